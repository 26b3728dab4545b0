// The GM console's "the turn changed meanwhile" check (issue 12) and the action it guards are one
// transaction (pages/gm.ts). Found by a hostile review: the check ran before the action's own
// transaction, so a second server process on the same database could change the turn in between,
// and the GM's action then went through on a turn they had not seen. The crash point
// 'gm-console-checked' stands between the two; there, another connection to the same file tries to
// move the turn's deadline, as a second process would.
import Database from '../../src/server/plugins/sqlite.js'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startedGame } from './helpers.js'
import { browser } from '../pages/helpers.js'
import { PLAYERS, tempDir, testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
const dir = tempDir()
let other: Database.Database
let interfere: (() => void) | null = null
beforeAll(async () => {
  t = await testApp({ dir, crashPoint: (name) => { if (name === 'gm-console-checked') interfere?.() } })
  other = new Database(join(dir, 'botwars.db'), { timeout: 0 })
})
afterAll(async () => { other.close(); await t.close() })

it('lets no other writer change the turn between the console\'s check and its action', async () => {
  const { gameId, gm } = await startedGame(t.app, {}, PLAYERS.slice(0, 2))
  const turn = t.app.services.turns.current(gameId)!
  let attempts = 0
  let otherWrote = false
  interfere = () => {
    attempts++
    try {
      other.prepare('UPDATE turns SET deadline = deadline + 60000 WHERE id = ?').run(turn.id)
      otherWrote = true
    } catch (err) {
      expect((err as { code?: string }).code).toBe('SQLITE_BUSY')
    }
  }
  const page = `/games/${gameId}/gm`
  const response = await browser(t.app, gm).submit(page, `${page}/pause`, { reason: 'a break' })
  interfere = null
  expect(attempts).toBe(1)
  // The other writer waited for the console's transaction: the pause was decided on the turn as seen.
  expect(otherWrote).toBe(false)
  expect(response.location).toContain('done=')
  expect(t.app.services.games.byId(gameId)!.status).toBe('paused')
  expect(t.app.services.turns.current(gameId)!.deadline).toBe(turn.deadline)
})
