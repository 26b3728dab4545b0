// What a game's seats and state forbid: an invitation or a bot to a seat a player or a bot holds;
// a new seat before the start, in a game that is over, or beyond the eighth; resuming a game that
// is not paused; moving the deadline of a turn that is not open; withdrawing from, writing in,
// seating a bot in or switching the planning preview of a game that is over; leaving as the GM
// who plays while it runs; hiding a message twice. Each is refused with 409 saying why, and
// nothing changes. A sweep that let each `throw conflict` of the game and seat services fall
// through found these unneeded by any test (docs/performance.md, "Issue 17, 2026-11-28"):
// without them the newcomer was mailed a link that could never be used, a game in setup grew a
// seat meant for mid-game arrivals, a ninth seat answered 500, an abandoned game (or one never
// started) ran again, a draft got a deadline mailed to everyone, a player left an abandoned game
// (told to all) or wrote in it, a bot replaced a player or took a seat in an abandoned game, and
// a second hiding was logged.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browser } from '../pages/helpers.js'
import { gameRows } from '../security/setup.js'
import { PLAYERS, setUpGame, testApp, type Client, type TestApp } from '../server/helpers.js'
import { closeTurn, gameOf, mailsOf, startedGame } from './helpers.js'

let t: TestApp
let gm: Client, gameId: string
/** A second game, started: Fay and Gus play, and a GM who does not. */
let other: { gm: Client; gameId: string; players: Client[] }

beforeAll(async () => {
  t = await testApp()
  ;({ gm, gameId } = await setUpGame(t.app, PLAYERS.slice(0, 2), { seats: 4 }))
  other = await startedGame(t.app, {}, [{ email: 'fay@example.org', name: 'Fay', colour: 'red' }, { email: 'gus@example.org', name: 'Gus', colour: 'blue' }])
})
afterAll(async () => { await t.close() })

const post = (c: Client, id: string, path: string, body: unknown) => c.call('POST', `/api/v1/games/${id}/${path}`, body)
/** The game's rows as a digest: a failure names the request, not pages of JSON. */
const rowsDigest = (id: string) => createHash('sha256').update(gameRows(t.app, id)).digest('hex')
/** Status and message of a refusal, after checking that it changed none of the game's rows. */
async function refused(c: Client, id: string, path: string, body: unknown): Promise<[number, string]> {
  const before = rowsDigest(id)
  const { status, json } = await post(c, id, path, body)
  expect(rowsDigest(id), `${path} changed the game`).toBe(before)
  return [status, json.message]
}

it('refuses an invitation to a seat a player or a bot holds', async () => {
  expect((await post(gm, gameId, 'seats/3/bot', { bot: 'greedy', reason: 'a bot for now' })).status).toBe(200)
  expect((await post(gm, gameId, 'invites', { email: 'eve@example.org', seat: 4 })).status).toBe(201)
  const mailed = mailsOf(t.app, gameId, 'invitation').length
  for (const seat of [1, 3]) {
    const answer = await post(gm, gameId, 'invites', { email: 'dee@example.org', seat })
    expect([answer.status, answer.json.field, answer.json.message]).toEqual([409, 'seat', `seat ${seat} is taken; remove or replace its player first`])
  }
  expect(await refused(gm, gameId, 'invites', { email: 'dee@example.org', seat: 1 })).toEqual([409, 'seat 1 is taken; remove or replace its player first'])
  expect(mailsOf(t.app, gameId, 'invitation')).toHaveLength(mailed)
  // Nor does a bot take a seat a player or another bot holds.
  for (const seat of [1, 3]) expect(await refused(gm, gameId, `seats/${seat}/bot`, { bot: 'random', reason: 'swap' })).toEqual([409, `seat ${seat} is taken`])
})

it('hides a message once', async () => {
  const { id } = (await post(other.gm, other.gameId, 'messages', { body: 'Spoiler!' })).json
  expect((await post(other.gm, other.gameId, `messages/${id}/hide`, { reason: 'spoiler' })).status).toBe(200)
  expect(await refused(other.gm, other.gameId, `messages/${id}/hide`, { reason: 'spoiler' })).toEqual([409, 'this message is hidden already'])
})

it('opens no seat before the start (the GM invites to the game\'s own), nor a ninth', async () => {
  const notYet = [409, 'the game has not started: invite to one of its seats']
  expect(await refused(gm, gameId, 'seats', { email: 'dee@example.org', reason: 'one more' })).toEqual(notYet)
  expect(await refused(gm, gameId, 'bot-seats', { bot: 'random', reason: 'one more' })).toEqual(notYet)
  for (let seats = 2; seats < 8; seats++) expect((await post(other.gm, other.gameId, 'bot-seats', { bot: 'random', reason: 'fill' })).status).toBe(201)
  expect(await refused(other.gm, other.gameId, 'bot-seats', { bot: 'random', reason: 'a ninth' })).toEqual([409, 'a game has at most 8 seats'])
  expect(await refused(other.gm, other.gameId, 'seats', { email: 'dee@example.org', reason: 'a ninth' })).toEqual([409, 'a game has at most 8 seats'])
})

it('refuses to resume a game that is not paused, and to move the deadline of a turn in review', async () => {
  expect(await refused(gm, gameId, 'resume', { reason: 'go' })).toEqual([409, 'the game is not paused'])
  expect(await refused(other.gm, other.gameId, 'resume', { reason: 'go' })).toEqual([409, 'the game is not paused'])
  // A turn in review has no deadline to move (its review window is not one).
  await closeTurn(t.app, t.clock, other.gm, other.gameId)
  expect(await refused(other.gm, other.gameId, 'deadline', { extendHours: 6, reason: 'weekend' })).toEqual([409, 'no turn is open'])
})

it('in a game that is over: no resuming, no new seat, no withdrawing', async () => {
  expect((await post(other.gm, other.gameId, 'abandon', { reason: 'done' })).status).toBe(200)
  expect(await refused(other.gm, other.gameId, 'resume', { reason: 'again' })).toEqual([409, 'the game is not paused'])
  expect(await refused(other.gm, other.gameId, 'bot-seats', { bot: 'random', reason: 'late' })).toEqual([409, 'the game is abandoned'])
  expect(await refused(other.players[0]!, other.gameId, 'withdraw', { reason: 'bye' })).toEqual([409, 'the game is abandoned'])
  expect(await refused(other.players[0]!, other.gameId, 'messages', { body: 'Anyone still here?' })).toEqual([409, 'the game is abandoned'])
  // The console's preview switch, from a tab opened before the game ended.
  const before = rowsDigest(other.gameId)
  const console = `/games/${other.gameId}/gm`
  const stale = await browser(t.app, other.gm).submit(console, `${console}/preview`, { pathPreview: 'off', reason: '' })
  // Its form is gone from the console of a game that is over: the refusal is told at the top.
  expect(stale.status).toBe(400)
  expect(stale.body).toMatch(/<div class="alert error" role="alert" id="stale"[^>]*><p>The game is abandoned\.<\/p>/)
  // And the console no longer says that turn 1 takes programs until its deadline.
  expect(stale.body).toContain('<h2 id="now-heading">Turn 1: not played, the game is abandoned</h2>')
  expect(stale.body).not.toContain('Deadline')
  expect(rowsDigest(other.gameId)).toBe(before)
  expect((await gameOf(other.gm, other.gameId)).status).toBe('abandoned')
  // Seat 4 of the first game is free (its invitation is pending): no bot takes it once that game is over.
  expect((await post(gm, gameId, 'abandon', { reason: 'no time' })).status).toBe(200)
  expect(await refused(gm, gameId, 'seats/4/bot', { bot: 'random', reason: 'late' })).toEqual([409, 'the game is abandoned'])
})

it('keeps a GM who plays in their seat while the game runs', async () => {
  const set = await setUpGame(t.app, PLAYERS.slice(0, 1), { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow' })
  expect((await post(set.gm, set.gameId, 'start', { reason: 'go' })).status).toBe(200)
  expect(await refused(set.gm, set.gameId, 'withdraw', { reason: 'bye' })).toEqual([409, 'you are the GM and play in this game: your seat stays yours until the game ends'])
})
