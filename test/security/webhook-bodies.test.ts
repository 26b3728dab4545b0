// What a webhook delivery carries, attacked from the seats: three people with a bot server each (a
// GM who plays, Ann and Bob) at one table with Cid, and a real HTTP server on 127.0.0.1 taking
// their deliveries. Each delivery is its own seat's view only: its own hand, no other hand and no
// other program, and for the GM who plays no program before their lock (A14), though Ann's is in.
// Then the GM replaces Bob with Dan: Bob's webhook, still registered, must never carry Dan's hand.
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acceptInvitation, DAY, PLAYERS, setUpGame, testApp, type Client, type TestApp } from '../server/helpers.js'

const DAN = { email: 'dan@example.org', name: 'Dan', colour: 'purple' }

let t: TestApp
let bots: Server
const received: { path: string; body: any }[] = []
let gm: Client, ann: Client, bob: Client, cid: Client
let gameId: string
let base: string

beforeAll(async () => {
  t = await testApp()
  bots = createServer((req, res) => {
    let text = ''
    req.on('data', (c: Buffer) => (text += c.toString()))
    req.on('end', () => { received.push({ path: req.url!, body: JSON.parse(text) }); res.end('ok') })
  })
  await new Promise<void>((r) => bots.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(bots.address() as { port: number }).port}`
  const set = await setUpGame(t.app, PLAYERS, { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow', reviewWindowHours: 0, closeEarly: false })
  ;({ gm, gameId } = set)
  ;[ann, bob, cid] = set.players as [Client, Client, Client]
  for (const [c, path] of [[gm, '/gm'], [ann, '/ann'], [bob, '/bob']] as const) {
    expect((await c.call('POST', `/api/v1/games/${gameId}/webhook`, { url: `${base}${path}` })).status).toBe(201)
  }
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: 'go' })).status).toBe(200)
})
afterAll(async () => {
  bots.closeAllConnections()
  await new Promise((r) => bots.close(r))
  await t.close()
})

const me = async (c: Client, turn: number) => (await c.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json.me as { player: string; hand: string[] }
const bodiesTo = (path: string, turn: number) => received.filter((r) => r.path === path && r.body.turn === turn).map((r) => r.body)

describe('webhook deliveries of one turn', () => {
  it('carry each seat its own hand only, and the GM who plays no program before the lock', async () => {
    const hands = Object.fromEntries(await Promise.all([gm, ann, bob, cid].map(async (c) => [c.email, await me(c, 1)] as const)))
    const annCards = hands[ann.email]!.hand.slice(0, 5)
    expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: annCards })).status).toBe(201)
    expect(await t.app.deliverWebhooks()).toBe(3)
    for (const [c, path] of [[gm, '/gm'], [ann, '/ann'], [bob, '/bob']] as const) {
      const [body] = bodiesTo(path, 1)
      expect(body, path).toBeDefined()
      const own = hands[c.email]!
      expect(body.player).toBe(own.player)
      expect(body.game.currentTurn.me.hand).toEqual(own.hand)
      expect(body.game.currentTurn.programs, path).toBeNull()
      const text = JSON.stringify(body)
      for (const other of Object.values(hands).filter((h) => h.player !== own.player)) {
        for (const card of other.hand) expect(text, `${path} carries ${other.player}'s ${card}`).not.toContain(card)
      }
    }
  })

  it('never go to a replaced player\'s webhook with the newcomer\'s hand', async () => {
    const bobSeat = (await me(bob, 1)).player
    const seatNo = Number(bobSeat.slice(1))
    expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/${seatNo}/replace`, { email: DAN.email, reason: 'Bob has gone' })).status).toBe(200)
    const dan = await acceptInvitation(t.app, DAN)
    t.clock.now += 6 * DAY
    expect(t.app.runDueWork().closed).toBe(1)
    expect(t.app.services.turns.current(gameId)!.number).toBe(2)
    await t.app.deliverWebhooks()
    const danHand = (await me(dan, 2)).hand
    expect(danHand.length).toBeGreaterThan(0)
    // Bob's server was told of turn 1 (his hand then) and of nothing since: not Dan's turn.
    expect(received.filter((x) => x.path === '/bob').map((x) => x.body.turn)).toEqual([1])
    // Dan, in Bob's seat now, does not read Bob's server's address.
    expect((await dan.call('GET', `/api/v1/games/${gameId}/webhook`)).json).toEqual({ url: null, deliveries: [] })
    // The others' webhooks go on as before.
    expect(bodiesTo('/ann', 2)).toHaveLength(1)
  })
})
