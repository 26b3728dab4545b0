// What the game's state forbids, whoever asks: a program from a seat whose robot has not entered
// yet (or a correction for it), a rollback before anything was published, publishing a draft while
// the game is paused, a program, correction, rollback or lock in a game the GM abandoned (a tab
// left open). Each is refused with 409 saying why, and nothing changes. A sweep that let each
// `throw conflict` of the turn services fall through found these unneeded by any test
// (docs/performance.md, "Issue 17, 2026-11-27, night"): without them a newcomer's program answered
// 500 (so did a correction for that seat and a rollback with nothing published), a paused game
// dealt its next turn, an abandoned game went on storing programs and took a rollback, and a
// correction or lock there was refused for another reason than the true one.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { acceptInvitation, PLAYERS, testApp, type Client, type TestApp } from '../server/helpers.js'
import { closeTurn, gameOf, someProgram, startedGame } from './helpers.js'

let t: TestApp
let gm: Client, ann: Client
let gameId: string

beforeAll(async () => {
  t = await testApp()
  const started = await startedGame(t.app, {}, PLAYERS.slice(0, 2))
  ;({ gm, gameId } = started)
  ann = started.players[0]!
})
afterAll(async () => { await t.close() })

const versions = () => t.app.services.db.prepare(
  'SELECT player_id, version FROM submissions JOIN turns ON turns.id = submissions.turn_id WHERE turns.game_id = ? ORDER BY submissions.id').all(gameId)
const call = (c: Client, path: string, body: unknown = { reason: 'r' }) => c.call('POST', `/api/v1/games/${gameId}/${path}`, body)

it('refuses a program from a seat whose robot enters only at the next deal', async () => {
  expect((await call(gm, 'seats', { email: 'dee@example.org', reason: 'one more' })).status).toBe(201)
  const dee = await acceptInvitation(t.app, { email: 'dee@example.org', name: 'Dee', colour: 'teal' })
  const sent = await call(dee, 'turns/1/submission', { cards: ['FWD1:490'] })
  expect([sent.status, sent.json.message]).toEqual([409, 'your seat has no robot'])
  expect(versions()).toEqual([])
  const rollback = await call(gm, 'turns/1/rollback')
  expect([rollback.status, rollback.json.message]).toEqual([409, 'no turn has been published yet'])
})

it('refuses to publish a draft while the game is paused, and publishes it once resumed', async () => {
  await closeTurn(t.app, t.clock, gm, gameId)
  // Nor can the GM enter a program for the newcomer's seat in the draft: it has no robot in turn 1.
  const corrected = await call(gm, 'turns/1/corrections', { player: 'P3', cards: [], rebootNext: false, reason: 'r' })
  expect([corrected.status, corrected.json.message]).toEqual([409, 'Dee has no robot in turn 1'])
  expect((await call(gm, 'pause')).status).toBe(200)
  const refused = await call(gm, 'turns/1/publish')
  expect([refused.status, refused.json.message]).toEqual([409, 'the game is paused'])
  expect((await gameOf(gm, gameId)).currentTurn).toMatchObject({ number: 1, status: 'draft' })
  expect((await call(gm, 'resume')).status).toBe(200)
  expect((await call(gm, 'turns/1/publish')).status).toBe(200)
  expect((await gameOf(gm, gameId)).currentTurn).toMatchObject({ number: 2, status: 'open' })
})

it('refuses a program for a game the GM abandoned; the one sent before stands', async () => {
  const cards = await someProgram(ann, gameId, 2)
  expect((await call(ann, 'turns/2/submission', { cards })).status).toBe(201)
  expect((await call(gm, 'abandon')).status).toBe(200)
  const late = await call(ann, 'turns/2/submission', { cards: [...cards].reverse() })
  expect([late.status, late.json.message]).toEqual([409, 'the game is abandoned'])
  // Nor does the GM change it afterwards: no correction, no rollback.
  for (const [path, body] of [['turns/2/corrections', { player: 'P2', cards: [], rebootNext: false, reason: 'r' }], ['turns/1/rollback', { reason: 'r' }]] as const) {
    const res = await call(gm, path, body)
    expect([path, res.status, res.json.message]).toEqual([path, 409, 'the game is abandoned'])
  }
  expect(versions()).toEqual([{ player_id: 'P1', version: 1 }])
  expect((await gameOf(gm, gameId)).currentTurn).toMatchObject({ number: 2 })
})

it('refuses a GM who plays to lock a program in a game they abandoned', async () => {
  const played = await startedGame(t.app, { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow' }, PLAYERS.slice(0, 1))
  expect((await played.gm.call('POST', `/api/v1/games/${played.gameId}/abandon`, { reason: 'r' })).status).toBe(200)
  const lock = await played.gm.call('POST', `/api/v1/games/${played.gameId}/turns/1/lock`, { confirm: true })
  expect([lock.status, lock.json.message]).toEqual([409, 'the game is abandoned'])
  expect(t.app.services.turns.byNumber(played.gameId, 1)!.gm_locked_at).toBeNull()
})
