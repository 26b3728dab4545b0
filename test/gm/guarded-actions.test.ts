// GM actions that must change nothing, or change only what was asked (found by a hostile review):
// - on a game that is over (abandoned, or ended with placings), whose last turn stays open or in
//   review in the database, moving the deadline or reopening a program is refused and mails nobody;
// - reopening a program already reopened (a second click, a retried call) mails the player once;
// - a deadline set while the game is paused is mailed as it is set, and the resume does not move it
//   on by the pause (resumeGame moves a deadline by the time since the pause began).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { HOUR, PLAYERS, testApp, type TestApp } from '../server/helpers.js'
import { closeTurn, gameOf, mailsOf, startedGame } from './helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })


it('refuses to move the deadline of an abandoned game, and mails nobody', async () => {
  const { gm, gameId } = await startedGame(t.app)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/abandon`, { reason: 'over' })).status).toBe(200)
  const turnBefore = JSON.stringify(t.app.services.turns.current(gameId))
  const res = await gm.call('POST', `/api/v1/games/${gameId}/deadline`, { extendHours: 48, reason: 'more time' })
  expect(mailsOf(t.app, gameId, 'deadline')).toHaveLength(0)
  expect(JSON.stringify(t.app.services.turns.current(gameId))).toBe(turnBefore)
  expect(res.status).toBe(409)
})

it('refuses to move the deadline of a game the GM ended with placings, and mails nobody', async () => {
  const { gm, gameId } = await startedGame(t.app)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/end`, { reason: 'enough' })).status).toBe(200)
  expect((await gm.call('GET', `/api/v1/games/${gameId}`)).json.status).toBe('finished')
  const res = await gm.call('POST', `/api/v1/games/${gameId}/deadline`, { extendHours: 48, reason: 'more time' })
  expect(mailsOf(t.app, gameId, 'deadline')).toHaveLength(0)
  expect(res.status).toBe(409)
})

it('refuses to reopen a program in the draft of an abandoned game, and mails nobody', async () => {
  const { gm, gameId } = await startedGame(t.app)
  const n = await closeTurn(t.app, t.clock, gm, gameId)
  expect(t.app.services.turns.current(gameId)!.status).toBe('draft')
  expect((await gm.call('POST', `/api/v1/games/${gameId}/abandon`, { reason: 'over' })).status).toBe(200)
  const res = await gm.call('POST', `/api/v1/games/${gameId}/turns/${n}/reopen`, { player: 'P1', reason: 'fix it' })
  expect(mailsOf(t.app, gameId, 'reopened')).toHaveLength(0)
  expect(res.status).toBe(409)
})


it('reopening the same program twice mails the player once', async () => {
  const { gm, gameId } = await startedGame(t.app, {}, PLAYERS.slice(0, 2))
  const n = await closeTurn(t.app, t.clock, gm, gameId)
  const body = { player: 'P1', reason: 'fix register 3' }
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/${n}/reopen`, body)).status).toBe(200)
  const second = await gm.call('POST', `/api/v1/games/${gameId}/turns/${n}/reopen`, body)
  expect(mailsOf(t.app, gameId, 'reopened')).toHaveLength(1)
  expect(second.status).toBe(409)
})


it('a deadline set during a pause is the deadline after the resume, as mailed', async () => {
  const { gm, gameId } = await startedGame(t.app, {}, PLAYERS.slice(0, 2))
  expect((await gm.call('POST', `/api/v1/games/${gameId}/pause`, { reason: 'holiday' })).status).toBe(200)
  const pausedAt = t.clock.now
  t.clock.now = pausedAt + 10 * HOUR
  const wanted = new Date(pausedAt + 48 * HOUR).toISOString()
  const set = await gm.call('POST', `/api/v1/games/${gameId}/deadline`, { deadline: wanted, reason: 'new deadline' })
  expect(set.status).toBe(200)
  expect(mailsOf(t.app, gameId, 'deadline').length).toBeGreaterThan(0)
  t.clock.now = pausedAt + 20 * HOUR
  expect((await gm.call('POST', `/api/v1/games/${gameId}/resume`, { reason: 'back' })).status).toBe(200)
  expect((await gameOf(gm, gameId)).currentTurn.deadline).toBe(wanted)
})
