// A close-early turn closes once every program it can get is in: a seat its player left (removed,
// waiting for a newcomer; its robot plays R9's random programs) sends none, so the turn does not
// wait for it (services/programs-in.ts). Found by a hostile review: such a game waited for the
// deadline every turn until someone took the seat.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { HOUR, PLAYERS, testApp, type TestApp } from '../server/helpers.js'
import { gameOf, someProgram, startedGame } from '../gm/helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

it('a close-early turn closes once every remaining player has sent, after the GM removed one who had not', async () => {
  const { gm, gameId, players: [ann, bob] } = await startedGame(t.app, { closeEarly: true, reviewWindowHours: 0, turnLengthHours: 48 }, PLAYERS)
  for (const p of [ann!, bob!]) expect((await p.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await someProgram(p, gameId, 1) })).status).toBe(201)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/3/remove`, { reason: 'gone quiet' })).status).toBe(200)
  t.clock.now += HOUR
  t.app.runDueWork()
  // Everyone who can send a program has sent one: turn 1 closes (and, review 0, turn 2 opens).
  expect((await gameOf(gm, gameId)).currentTurn.number).toBe(2)
})

it('later turns of that close-early game close as soon as the players left have sent', async () => {
  const { gm, gameId, players: [ann, bob] } = await startedGame(t.app, { closeEarly: true, reviewWindowHours: 0, turnLengthHours: 48 }, PLAYERS.map((p) => ({ ...p, email: `b-${p.email}` })))
  expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/3/remove`, { reason: 'gone quiet' })).status).toBe(200)
  for (const p of [ann!, bob!]) expect((await p.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await someProgram(p, gameId, 1) })).status).toBe(201)
  t.clock.now += HOUR
  t.app.runDueWork()
  expect((await gameOf(gm, gameId)).currentTurn.number).toBe(2)
})
