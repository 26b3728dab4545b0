// The picture of the board now is captioned with the turn it comes before. While the GM reviewed
// turn 2, the game page and the spectator page said "before turn 3" over the board as it stood
// before turn 2 (found following the README): the draft is not the board until it is published.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PLAYERS, setUpGame, testApp, type Client, type TestApp } from '../server/helpers.js'

let t: TestApp
let gameId: string
let gm: Client
let players: Client[]
beforeAll(async () => {
  t = await testApp()
  ;({ gameId, gm, players } = await setUpGame(t.app, PLAYERS.slice(0, 2), { reviewWindowHours: 48 }))
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: '' })).status).toBe(200)
})
afterAll(async () => { await t.close() })

const caption = (svg: string) => /before turn \d+/.exec(svg)?.[0]

it('says "before turn 1" while turn 1 is open, and still while it is under review', async () => {
  const token = t.app.services.games.byId(gameId)!.public_token
  const pictures = async () => [
    caption((await players[0]!.call('GET', `/games/${gameId}/pictures/board.svg`)).text),
    caption((await t.app.inject({ method: 'GET', url: `/watch/${token}/pictures/board.svg` })).body),
  ]
  expect(await pictures()).toEqual(['before turn 1', 'before turn 1'])
  for (const who of players) {
    const hand = (await who.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me.hand as string[]
    expect((await who.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: hand.slice(0, 5) })).status).toBe(201)
  }
  await t.app.runDueWork()
  expect(t.app.services.turns.current(gameId)!.status).toBe('draft')
  expect(await pictures()).toEqual(['before turn 1', 'before turn 1'])
})
