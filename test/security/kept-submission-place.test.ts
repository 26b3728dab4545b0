// A program submission's place (the game, the submitter's seat, the turn) is kept in memory between
// submissions (services/submission-context.ts; issue 17). Hostile first: whatever changes the
// place after a player's submission — the GM taking the seat away, the turn closing, another
// connection to the same SQLite file changing either, a transaction that rolled back — the next
// submission is judged on the place as it is now, and a refused one stores nothing.
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import Database from '../../src/server/plugins/sqlite.js'
import { closeTurn, submitProgram } from '../../src/server/services/turns.js'
import { testApp, type TestApp } from '../server/helpers.js'
import { twoGames } from './setup.js'

let t: TestApp
let s: Awaited<ReturnType<typeof twoGames>>
let other: Database.Database
let hand: string[]
beforeEach(async () => {
  t = await testApp()
  s = await twoGames(t.app)
  other = new Database(join(t.dir, 'botwars.db'))
  hand = (await s.ann.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).json.me.hand as string[]
})
afterEach(async () => {
  other.close()
  await t.close()
})

const ctx = () => t.app.services
const submitUrl = () => `/api/v1/games/${s.gameId}/turns/${s.turn}/submission`
const annVersions = () => ctx().db.prepare<[string], number>(
  "SELECT COUNT(*) FROM submissions WHERE turn_id = (SELECT id FROM turns WHERE game_id = ? AND number = 1) AND player_id = 'P1'").pluck().get(s.gameId)!
const turnId = () => ctx().db.prepare<[string], number>('SELECT id FROM turns WHERE game_id = ? AND number = 1').pluck().get(s.gameId)!

/** Two programs in from Ann, the second checked against her place kept from the first. */
async function annSubmitsTwice(): Promise<void> {
  expect((await s.ann.call('POST', submitUrl(), { cards: hand.slice(0, 5) })).status).toBe(201)
  expect(ctx().submissionContexts.size).toBeGreaterThan(0)
  expect((await s.ann.call('POST', submitUrl(), { cards: hand.slice(1, 6) })).status).toBe(201)
  expect(annVersions()).toBe(2)
}

describe('a submission after its place has changed', () => {
  it('is refused once the GM has removed the player, and nothing is stored', async () => {
    await annSubmitsTwice()
    expect((await s.gm.call('POST', `/api/v1/games/${s.gameId}/seats/1/remove`, { reason: 'left the club' })).status).toBe(200)
    const refused = await s.ann.call('POST', submitUrl(), { cards: hand.slice(0, 5) })
    expect([403, 404]).toContain(refused.status)
    expect(annVersions()).toBe(2)
  })

  it('is refused once the turn has closed in this process', async () => {
    await annSubmitsTwice()
    expect(closeTurn(ctx(), turnId())).toBe(true)
    const refused = await s.ann.call('POST', submitUrl(), { cards: hand.slice(0, 5) })
    expect(refused.status).toBe(409)
    expect(refused.json.message).toMatch(/closed/)
    expect(annVersions()).toBe(2)
  })

  it('is refused once another connection has closed the turn', async () => {
    await annSubmitsTwice()
    other.prepare("UPDATE turns SET status = 'draft' WHERE id = ?").run(turnId())
    const refused = await s.ann.call('POST', submitUrl(), { cards: hand.slice(0, 5) })
    expect(refused.status).toBe(409)
    expect(refused.json.message).toMatch(/closed/)
    expect(annVersions()).toBe(2)
  })

  it('is refused once another connection has given the seat to someone else', async () => {
    await annSubmitsTwice()
    other.prepare("UPDATE seats SET user_id = (SELECT id FROM users WHERE email = 'eve@example.org') WHERE game_id = ? AND player_id = 'P1'").run(s.gameId)
    const refused = await s.ann.call('POST', submitUrl(), { cards: hand.slice(0, 5) })
    expect([403, 404]).toContain(refused.status)
    expect(annVersions()).toBe(2)
  })

  it('is refused once another connection has ended the game', async () => {
    await annSubmitsTwice()
    other.prepare("UPDATE games SET status = 'abandoned' WHERE id = ?").run(s.gameId)
    const refused = await s.ann.call('POST', submitUrl(), { cards: hand.slice(0, 5) })
    expect(refused.status).toBe(409)
    expect(annVersions()).toBe(2)
  })

  it('is judged on the committed place, not on one read inside a transaction that rolled back', async () => {
    expect(closeTurn(ctx(), turnId())).toBe(true)
    const ann = ctx().users.byEmail(s.ann.email)!
    // Inside a transaction that is then rolled back, the turn is open again and Ann's program goes in.
    expect(() => ctx().db.transaction(() => {
      ctx().db.prepare("UPDATE turns SET status = 'open' WHERE id = ?").run(turnId())
      expect(submitProgram(ctx(), { user: ann }, s.gameId, s.turn, { cards: hand.slice(0, 5), rebootNext: false }).version).toBe(1)
      throw new Error('rolled back')
    })()).toThrow('rolled back')
    expect(annVersions()).toBe(0)
    // The place that transaction read (an open turn) was never kept: the turn is closed.
    const refused = await s.ann.call('POST', submitUrl(), { cards: hand.slice(0, 5) })
    expect(refused.status).toBe(409)
    expect(refused.json.message).toMatch(/closed/)
    expect(annVersions()).toBe(0)
  })
})

describe('submissions checked against a kept place', () => {
  it('count their versions on and inherit the previous choices, as when every place was read', async () => {
    expect((await s.ann.call('POST', submitUrl(), { cards: hand.slice(0, 5), sacrificeAt: 4 })).status).toBe(201)
    // Bob's program moves the game's version but not Ann's place.
    const bobHand = (await s.bob.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).json.me.hand as string[]
    expect((await s.bob.call('POST', submitUrl(), { cards: bobHand.slice(0, 5) })).status).toBe(201)
    const second = await s.ann.call('POST', submitUrl(), { cards: hand.slice(1, 6) })
    expect(second.status).toBe(201)
    expect(second.json.version).toBe(2)
    const third = await s.ann.call('POST', submitUrl(), { cards: hand.slice(2, 7) })
    expect(third.json.version).toBe(3)
    const rows = ctx().db.prepare<[number], { version: number; sacrifice_at: number }>(
      "SELECT version, sacrifice_at FROM submissions WHERE turn_id = ? AND player_id = 'P1' ORDER BY version").all(turnId())
    expect(rows).toEqual([{ version: 1, sacrifice_at: 4 }, { version: 2, sacrifice_at: 4 }, { version: 3, sacrifice_at: 4 }])
  })
})
