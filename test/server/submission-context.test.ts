// The kept places of program submissions (services/submission-context.ts), at the seam: when a
// place read from the database may be kept, and when a kept one is used. A real app's database;
// the hostile tests through the API are in test/security/kept-submission-place.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testApp, type TestApp } from './helpers.js'
import { twoGames } from '../security/setup.js'

let t: TestApp
let s: Awaited<ReturnType<typeof twoGames>>
let annId: number
beforeAll(async () => {
  t = await testApp()
  s = await twoGames(t.app)
  annId = t.app.services.users.byEmail(s.ann.email)!.id
})
afterAll(async () => { await t.close() })

const ctx = () => t.app.services
const inTransaction = <T>(work: () => T): T => ctx().db.transaction(work).immediate()
/** Reads Ann's context in a transaction of its own, then keeps its place if it may (as a submission does after its COMMIT). */
function readAndKeep(during: () => void = () => {}): { fromMemory: boolean; status: string | null } {
  const read = inTransaction(() => {
    const got = ctx().submissionContexts.read(s.gameId, annId, s.turn)!
    during()
    return got
  })
  read.keep?.()
  return { fromMemory: read.keep === null, status: read.context.turn_status }
}

describe('a submission\'s place', () => {
  it('is read from the database the first time, and from memory while nothing has changed it', () => {
    expect(readAndKeep().fromMemory).toBe(false)
    expect(readAndKeep().fromMemory).toBe(true)
  })

  it('is read again after another player\'s program: a submissions row does not move the core version', () => {
    readAndKeep()
    inTransaction(() => ctx().db.prepare(`INSERT INTO submissions (turn_id, player_id, user_id, version, cards_json, reboot_next, sacrifice_at, double_wrench, submitted_at)
      SELECT id, 'P2', NULL, 99, '[]', 0, 6, 'repair', 0 FROM turns WHERE game_id = ? AND number = ?`).run(s.gameId, s.turn))
    expect(readAndKeep().fromMemory).toBe(true)
  })

  it('is read again when its own transaction changed the turn after reading it', () => {
    const touchTurn = () => ctx().db.prepare('UPDATE turns SET deadline = deadline + 1 WHERE game_id = ? AND number = ?').run(s.gameId, s.turn)
    inTransaction(touchTurn) // what was kept before is out of date
    expect(readAndKeep(touchTurn).fromMemory).toBe(false) // read from the database, then the deadline moved
    expect(readAndKeep().fromMemory).toBe(false) // so it is read again
    expect(readAndKeep().fromMemory).toBe(true)
  })

  it('is not kept by a keep called inside a transaction (an outer one could still roll back)', () => {
    readAndKeep(() => ctx().db.prepare('UPDATE games SET paused_at = NULL WHERE id = ?').run(s.gameId)) // moves the version
    const read = inTransaction(() => {
      const got = ctx().submissionContexts.read(s.gameId, annId, s.turn)!
      got.keep?.()
      return got
    })
    expect(read.keep).not.toBeNull()
    expect(readAndKeep().fromMemory).toBe(false)
  })

  it('is read only inside a transaction', () => {
    expect(() => ctx().submissionContexts.read(s.gameId, annId, s.turn)).toThrow(/transaction/)
  })

  it('of a game that does not exist is undefined, and nothing is kept for it', () => {
    const size = ctx().submissionContexts.size
    expect(inTransaction(() => ctx().submissionContexts.read('no-such-game', annId, s.turn))).toBeUndefined()
    expect(ctx().submissionContexts.size).toBe(size)
  })
})
