// Requests that name a seat, a turn or a report that does not exist, and actions by someone with
// no seat to act for. Each is refused with its own answer naming what is missing (never a 5xx from
// reading a row that is not there), and nothing changes. A sweep that let each `throw notFound` and
// `throw forbidden` of the services fall through found these refusals unneeded by any test: without
// them the code went on with `undefined` and answered 500, or 409 "your seat has no robot".
import { afterAll, beforeAll, expect, it } from 'vitest'
import { membership } from '../../src/server/services/membership.js'
import { postMessage } from '../../src/server/services/messages.js'
import { withdraw } from '../../src/server/services/seats.js'
import { client, PLAYERS, setUpGame, signIn, testApp, type Client, type TestApp } from '../server/helpers.js'
import { gameRows, refusalOf } from './setup.js'

let t: TestApp
let gm: Client, ann: Client
let gameId: string

beforeAll(async () => {
  t = await testApp()
  ;({ gm, gameId } = await setUpGame(t.app, PLAYERS.slice(0, 2), { reviewWindowHours: 24 }))
  ann = (await signIn(t.app, PLAYERS[0]!.email))
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`)).status).toBe(200)
  await signIn(t.app, 'eve@example.org', 'Eve') // signed in, with no part in the game
})
afterAll(async () => { await t.close() })

const gameRowsNow = () => gameRows(t.app, gameId)

it('answers the GM 404 naming the seat or turn when it does not exist, on every GM route that names one', async () => {
  const before = gameRowsNow()
  const calls: [string, unknown, string][] = [
    ['seats/5/remove', { reason: 'r' }, 'no seat 5'],
    ['seats/5/replace', { email: 'dee@example.org', reason: 'r' }, 'no seat 5'],
    ['seats/5/bot', { bot: 'greedy', reason: 'r' }, 'no seat 5'],
    ['turns/99/corrections', { player: 'P1', cards: [], reason: 'r' }, 'no turn 99'],
    ['turns/99/reopen', { player: 'P1', reason: 'r' }, 'no turn 99'],
    ['turns/99/resolve', { reason: 'r' }, 'no turn 99'],
    ['turns/99/publish', { reason: 'r' }, 'no turn 99'],
  ]
  for (const [path, body, message] of calls) {
    const res = await gm.call('POST', `/api/v1/games/${gameId}/${path}`, body)
    expect([path, res.status, res.json.error, res.json.message]).toEqual([path, 404, 'not_found', message])
  }
  const withdrawn = await gm.call('GET', `/api/v1/games/${gameId}/turns/1/withdrawn/3`)
  expect([withdrawn.status, withdrawn.json.message]).toEqual([404, 'no withdrawn version 3 of turn 1'])
  expect(gameRowsNow()).toBe(before)
})

it('answers a player 404 for a program sent to a turn that does not exist, and the spectator of an unknown link 404', async () => {
  const before = gameRowsNow()
  const res = await ann.call('POST', `/api/v1/games/${gameId}/turns/99/submission`, { cards: [] })
  expect([res.status, res.json.message]).toEqual([404, 'no turn 99'])
  const spectator = client(t.app, 'spectator')
  for (const path of ['/api/v1/public/' + 'z'.repeat(24), `/api/v1/public/${'z'.repeat(24)}/turns/1`]) {
    const seen = await spectator.call('GET', path)
    expect([path, seen.status, seen.json.error]).toEqual([path, 404, 'not_found'])
  }
  expect(gameRowsNow()).toBe(before)
})

it('answers 404 for a series that does not exist', async () => {
  const res = await gm.call('GET', '/api/v1/series/no-such-series')
  expect([res.status, res.json.message]).toEqual([404, 'no such series'])
})

it('refuses a GM who does not play a program or a withdrawal: there is no seat to act for', async () => {
  const before = gameRowsNow()
  const sent = await gm.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: [] })
  expect([sent.status, sent.json.message]).toEqual([403, 'you have no seat in this game'])
  const left = await gm.call('POST', `/api/v1/games/${gameId}/withdraw`, { reason: 'r' })
  expect([left.status, left.json.message]).toEqual([403, 'you have no seat in this game'])
  expect(gameRowsNow()).toBe(before)
})

it('refuses, in the services themselves, a message or a withdrawal from someone who is neither GM nor player', () => {
  // The routes answer such a viewer 404 before calling (memberOf); the services must not rely on it.
  const ctx = t.app.services
  const eve = ctx.users.byEmail('eve@example.org')!
  const outsider = membership(ctx, gameId, { user: eve })
  expect([outsider.isGm, outsider.seat]).toEqual([false, undefined])
  const before = gameRowsNow()
  const refusals: [string, () => unknown, string][] = [
    ['postMessage', () => postMessage(ctx, outsider, eve.id, { to: 'all', body: 'hello' }), 'only the GM and the players of this game can write here'],
    ['withdraw', () => withdraw(ctx, outsider, 'r'), 'you have no seat in this game'],
  ]
  for (const [name, call, message] of refusals) {
    expect([name, ...refusalOf(call)]).toEqual([name, 403, message])
  }
  expect(gameRowsNow()).toBe(before)
})
