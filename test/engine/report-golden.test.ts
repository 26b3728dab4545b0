// The turn report as players read it, word for word: the engine's plain-text report (CLI `--report`;
// its tables are the pages' and the mail's) of chosen cases, kept in test/engine/reports/. Together they hold every line the
// report writes: each event kind in its row and seat, every row of the end-of-turn table, the
// fused-register table, both endings of a game, and display names with colours. A change to what
// players read fails here until the new text is looked at and taken (`npx vitest -u`); CI never
// writes a missing file (CI=true), it fails.
//
// report.test.ts says why each cell reads as it does; this file says that nothing else changed.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { GameEvent } from '../../src/engine/events.js'
import { renderTurnReport } from '../../src/engine/report.js'
import { fileOf, GOLDEN, played } from './golden-turns.js'

const REPORTS = join(import.meta.dirname, 'reports')

/**
 * Whether the tables write a line for each event kind: a Record, so that a new kind fails to compile
 * until it is placed here. The kinds without a line show some other way, or not at all.
 */
const WRITTEN: Record<GameEvent['kind'], boolean> = {
  'card-played': false,        // the CARDS row, from the registers
  'drawbridge-lowered': false, // the board picture
  'teleporter-changed': false, // the board picture
  'player-out': false,         // MODE "out" and REBOOT "out of the game" in the end-of-turn table
  'game-over': false,          // the closing "GAME OVER" line
  moved: true, turned: true, obstructed: true, teleported: true, 'switch-flipped': true, damaged: true,
  'option-sacrificed': true, 'register-fused': true, destroyed: true, 'board-laser': true,
  'robot-laser': true, checkpoint: true, 'flag-tagged': true, 'station-visited': true,
  'became-real': true, 'program-filled': true, 'facing-chosen': true, repaired: true,
  'register-unfused': true, 'option-taken': true, reboot: true, reinstated: true,
}

describe('the turn report, word for word', () => {
  for (const golden of GOLDEN) {
    it(fileOf(golden), async () => {
      const { board, result } = played(golden)
      await expect(renderTurnReport(board, result, golden.options)).toMatchFileSnapshot(join(REPORTS, `${fileOf(golden)}.txt`))
    })
  }
  it('the reports above hold every event kind the tables write', () => {
    const seen = new Set<GameEvent['kind']>()
    for (const golden of GOLDEN) {
      const { result } = played(golden)
      for (const part of [result.start, ...result.stages, result.end]) for (const event of part.events) seen.add(event.kind)
    }
    const written = Object.entries(WRITTEN).filter(([, writes]) => writes).map(([kind]) => kind)
    expect(written.filter((kind) => !seen.has(kind as GameEvent['kind']))).toEqual([])
  })
})
