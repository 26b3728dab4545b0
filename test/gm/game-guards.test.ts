// What a game's seats and state forbid the GM: an invitation to a seat a player or a bot holds,
// resuming a game that is not paused, moving the deadline of a turn that is not open. Each is
// refused with 409 saying why, and nothing changes. A sweep that let each `throw conflict` of the
// game and seat services fall through found these unneeded by any test (docs/performance.md,
// "Issue 17, 2026-11-28"): without them the newcomer was mailed a link that could never be used,
// an abandoned game (or one never started) ran again, and a draft got a deadline, mailed to all.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { gameRows } from '../security/setup.js'
import { PLAYERS, setUpGame, testApp, type Client, type TestApp } from '../server/helpers.js'
import { closeTurn, gameOf, mailsOf, startedGame } from './helpers.js'

let t: TestApp
let gm: Client, gameId: string

beforeAll(async () => {
  t = await testApp()
  ;({ gm, gameId } = await setUpGame(t.app, PLAYERS.slice(0, 2), { seats: 4 }))
})
afterAll(async () => { await t.close() })

const call = (path: string, body: unknown) => gm.call('POST', `/api/v1/games/${gameId}/${path}`, body)
const refusal = async (answer: ReturnType<typeof call>) => { const { status, json } = await answer; return [status, json.message] }

it('refuses an invitation to a seat a player or a bot holds', async () => {
  expect((await call('seats/3/bot', { bot: 'greedy', reason: 'a bot for now' })).status).toBe(200)
  expect((await call('invites', { email: 'eve@example.org', seat: 4 })).status).toBe(201)
  const before = gameRows(t.app, gameId)
  const mailed = mailsOf(t.app, gameId, 'invitation').length
  for (const seat of [1, 3]) {
    const refused = await call('invites', { email: 'dee@example.org', seat })
    expect([refused.status, refused.json.field, refused.json.message]).toEqual([409, 'seat', `seat ${seat} is taken; remove or replace its player first`])
  }
  expect(gameRows(t.app, gameId)).toBe(before)
  expect(mailsOf(t.app, gameId, 'invitation')).toHaveLength(mailed)
})

it('refuses to resume a game that is not paused: in setup, running or abandoned', async () => {
  const inSetup = gameRows(t.app, gameId)
  expect(await refusal(call('resume', { reason: 'go' }))).toEqual([409, 'the game is not paused'])
  expect(gameRows(t.app, gameId)).toBe(inSetup)

  const other = await startedGame(t.app, {}, [{ email: 'fay@example.org', name: 'Fay', colour: 'red' }, { email: 'gus@example.org', name: 'Gus', colour: 'blue' }])
  const callOther = (path: string, body: unknown) => other.gm.call('POST', `/api/v1/games/${other.gameId}/${path}`, body)
  const running = gameRows(t.app, other.gameId)
  expect(await refusal(callOther('resume', { reason: 'go' }))).toEqual([409, 'the game is not paused'])
  expect(gameRows(t.app, other.gameId)).toBe(running)

  // A turn in review has no deadline to move (its review window is not one).
  await closeTurn(t.app, t.clock, other.gm, other.gameId)
  const inReview = gameRows(t.app, other.gameId)
  expect(await refusal(callOther('deadline', { extendHours: 6, reason: 'weekend' }))).toEqual([409, 'no turn is open'])
  expect(gameRows(t.app, other.gameId)).toBe(inReview)

  expect((await callOther('abandon', { reason: 'done' })).status).toBe(200)
  const abandoned = gameRows(t.app, other.gameId)
  expect(await refusal(callOther('resume', { reason: 'again' }))).toEqual([409, 'the game is not paused'])
  expect(gameRows(t.app, other.gameId)).toBe(abandoned)
  expect((await gameOf(other.gm, other.gameId)).status).toBe('abandoned')
})
