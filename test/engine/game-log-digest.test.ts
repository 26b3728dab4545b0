// The engine's whole output over many seeded games and the public rules cases (game-log-digest.ts)
// is exactly what it was when the speed work of issue 17 began: a faster engine must play the same
// games, event by event, with the same random stream, without changing its inputs. When a rule is
// deliberately changed, these digests change too: record the new ones here with the reason in the
// commit message. `npx tsx test/engine/game-log-digest.ts [seeds] [turns]` prints a larger set's
// digest (every board, our cases too) to compare before and after a change.
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CASE_FOLDERS, gameLogDigest } from './game-log-digest.js'

const BOARDS = ['conveyor-works.json', 'grand-factory.json', 'the-foundry.json', 'training-floor.json']

describe('the engine output digest', () => {
  it('is unchanged over 72 seeded games (4 boards, 2/4/8 players, seeds 1-6, up to 60 turns)', () => {
    const result = gameLogDigest({ boards: BOARDS, seeds: 6, turns: 60, caseFolders: [], caseTurns: 0 })
    expect(result.turns).toBe(1750)
    expect(result.digest).toBe('9b9b38986a75f9a4f543cfc06c36a0458b0fa65866e7c128ae2f3543e1954c4d')
  })

  const hasPublic = existsSync(CASE_FOLDERS.public)
  if (!hasPublic) console.warn(`SKIPPED: the public rules cases are not at ${CASE_FOLDERS.public}`)
  it.skipIf(!hasPublic)('is unchanged over the 20 valid public rules cases, each played on for 5 turns', () => {
    const result = gameLogDigest({ boards: [], seeds: 0, turns: 0, caseFolders: [CASE_FOLDERS.public], caseTurns: 5 })
    expect(result.cases).toBe(20)
    expect(result.digest).toBe('23275d2dcc1f00e7c897ed165b7f55d5baa483944a1fcf76dc1bf4b4eb028d12')
  })
})
