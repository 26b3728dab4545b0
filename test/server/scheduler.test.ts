// The clockwork reads only what is due: close-early turns close once every program is in (recorded
// by the submission that completes them), closes are capped per call and the rest close on the
// next call, and open turns already in a file get their "all in" mark from migration 002.
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { runDueWork } from '../../src/server/services/scheduler.js'
import { DAY, PLAYERS, setUpGame, testApp, type Client, type TestApp } from './helpers.js'

let t: TestApp
beforeEach(async () => { t = await testApp() })
afterEach(async () => { await t.close() })

async function startedGame(settings: Record<string, unknown>) {
  const set = await setUpGame(t.app, PLAYERS.slice(0, 2), settings)
  const started = await set.gm.call('POST', `/api/v1/games/${set.gameId}/start`, { reason: 'go' })
  expect(started.status, started.text).toBe(200)
  return set
}

async function submit(c: Client, gameId: string, turn: number) {
  const view = (await c.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json
  const res = await c.call('POST', `/api/v1/games/${gameId}/turns/${turn}/submission`, { cards: view.me.hand.slice(0, 5) })
  expect(res.status, res.text).toBe(201)
  return res.json
}

const turnStatus = (gameId: string, n: number) => t.app.services.turns.byNumber(gameId, n)?.status

it('closes a close-early turn on the first tick after the last program is in, not before', async () => {
  const { gameId, players: [ann, bob] } = await startedGame({ closeEarly: true, reviewWindowHours: 0 })
  await submit(ann!, gameId, 1)
  await submit(ann!, gameId, 1) // a second version of the same player does not complete the turn
  expect(t.app.runDueWork().closed).toBe(0)
  expect(turnStatus(gameId, 1)).toBe('open')
  await submit(bob!, gameId, 1)
  expect(t.app.runDueWork()).toMatchObject({ closed: 1, failed: 0 })
  expect(turnStatus(gameId, 1)).toBe('published')
  expect(turnStatus(gameId, 2)).toBe('open')
  expect(t.app.runDueWork().closed).toBe(0)
})

it('does not close early when the game does not close early; the deadline closes it', async () => {
  const { gameId, players: [ann, bob] } = await startedGame({ closeEarly: false, reviewWindowHours: 0 })
  await submit(ann!, gameId, 1)
  await submit(bob!, gameId, 1)
  expect(t.app.runDueWork().closed).toBe(0)
  t.clock.now += 6 * DAY
  expect(t.app.runDueWork().closed).toBe(1)
})

it('closes at most the limit per call and the rest on the next call', async () => {
  const games: string[] = []
  for (let i = 0; i < 3; i++) games.push((await startedGame({ closeEarly: false, reviewWindowHours: 0 })).gameId)
  t.clock.now += 6 * DAY
  const ctx = t.app.services
  expect(runDueWork(ctx, undefined, 2).closed).toBe(2)
  expect(games.filter((g) => turnStatus(g, 1) === 'open')).toHaveLength(1)
  expect(runDueWork(ctx, undefined, 2).closed).toBe(1)
  expect(games.map((g) => turnStatus(g, 1))).toEqual(['published', 'published', 'published'])
  expect(runDueWork(ctx, undefined, 2).closed).toBe(0)
})

it('migration 002 marks open turns that already have every program in', async () => {
  const { gameId, players: [ann, bob] } = await startedGame({ closeEarly: true, reviewWindowHours: 0 })
  await submit(ann!, gameId, 1)
  await submit(bob!, gameId, 1)
  const { db } = t.app
  db.prepare('UPDATE turns SET programs_in = 0').run() // as in a file from before the migration
  const sql = readFileSync(new URL('../../migrations/002-due-work.sql', import.meta.url), 'utf8')
  const update = sql.match(/UPDATE turns SET programs_in = 1[\s\S]*?\);/)![0]
  db.exec(update)
  expect(t.app.services.turns.byNumber(gameId, 1)!.programs_in).toBe(1)
  expect(t.app.runDueWork().closed).toBe(1)
})

it('a submission returns its own new version, keeps standing choices, and refuses a GM without a seat and outsiders', async () => {
  const { gm, gameId, players: [ann] } = await startedGame({ closeEarly: false, reviewWindowHours: 0 })
  const hand = (await ann!.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me.hand as string[]
  const url = `/api/v1/games/${gameId}/turns/1/submission`
  const first = await ann!.call('POST', url, { cards: hand.slice(0, 5), sacrificeAt: 4, doubleWrench: 'option' })
  expect(first.json).toMatchObject({ version: 1, cards: hand.slice(0, 5), sacrificeAt: 4, doubleWrench: 'option' })
  const second = await ann!.call('POST', url, { cards: hand.slice(1, 6) })
  expect(second.status).toBe(201)
  expect(second.json).toMatchObject({ version: 2, cards: hand.slice(1, 6), sacrificeAt: 4, doubleWrench: 'option' })
  expect((await gm.call('POST', url, { cards: hand.slice(0, 5) })).status).toBe(403)
  const { signIn } = await import('./helpers.js')
  const stranger = await signIn(t.app, 'zed@example.org', 'Zed')
  expect((await stranger.call('POST', url, { cards: hand.slice(0, 5) })).status).toBe(404)
  expect((await ann!.call('POST', `/api/v1/games/nope/turns/1/submission`, { cards: hand.slice(0, 5) })).status).toBe(404)
})
