// Every hand worked out from one's own, as an attacker at the table would: the deal is the project's
// own engine (public), the board, seat order and player ids are on the game page, and a player
// knows their own hand of turn 1. Were the game's generator started from a 31-bit seed, a player
// could try every seed until one deals their hand (about 2^31 deals: under three hours on one core,
// measured, well within a turn's deadline) and then read every other hand of the game as it is dealt,
// and replay each published turn to follow the generator. The server in production (no fixed seed,
// as tests fix it to replay a game) must start the generator from far more than 32 bits.
//
// The test stands for the whole search with a window around the game's stored seed, where the
// search of every seed would end: read from the database, which the attacker cannot, only so that
// the test runs in a second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dealHands, formatCard } from '../../src/engine/deck.js'
import { newGame } from '../../src/engine/game.js'
import { PLAYERS, setUpGame, testApp, type Client, type TestApp } from '../server/helpers.js'

const WINDOW = 2000

let t: TestApp
let ann: Client, bob: Client
let gameId: string

beforeAll(async () => {
  // No fixed seed: the server as it runs in production.
  t = await testApp({ newSeed: undefined })
  const set = await setUpGame(t.app, PLAYERS.slice(0, 3))
  gameId = set.gameId
  ;[ann, bob] = set.players as [Client, Client]
  expect((await set.gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: 'go' })).status).toBe(200)
})
afterAll(async () => { await t.close() })

const handOf = async (c: Client) => (await c.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me as { player: string; hand: string[] }

describe('a player who knows their own hand of turn 1', () => {
  it('finds no seed that deals it, and so none of the other hands', async () => {
    const mine = await handOf(ann)
    const view = (await ann.call('GET', `/api/v1/games/${gameId}`)).json
    const players = (view.seats as { player: string }[]).map((s) => s.player)
    const game = t.app.services.games.byId(gameId)!
    const board = t.app.services.board(game)
    const dealtFrom = (seed: number) => dealHands(newGame(board, players, seed)).hands
    let found: Record<string, string[]> | undefined
    for (let seed = Math.max(0, game.seed - WINDOW); seed <= game.seed + WINDOW && !found; seed++) {
      const hands = dealtFrom(seed)
      if (hands[mine.player]!.map(formatCard).join() === mine.hand.join()) found = Object.fromEntries(Object.entries(hands).map(([p, h]) => [p, h.map(formatCard)]))
    }
    const theirs = await handOf(bob)
    expect(found?.[theirs.player], 'Bob\'s hand, worked out from Ann\'s').toBeUndefined()
  })
})
