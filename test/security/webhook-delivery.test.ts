// Webhook deliveries against hostile name servers and bot servers, with the production policy
// (no loopback or private address) and real HTTP servers on 127.0.0.1. The name server is the one
// part that cannot be real here: a test cannot point the system resolver at its own DNS server, so
// the resolver of this test's process (node:dns, which every connection asks) answers as a
// rebinding attacker's name server would, with a zero TTL: a public address first, loopback after.
import dns from 'node:dns'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { syncBuiltinESMExports } from 'node:module'
import { afterEach, describe, expect, it } from 'vitest'
import { CONCURRENT_DELIVERIES, webhookPolicy } from '../../src/server/services/webhooks.js'
import { inviteToken, PLAYERS, signIn, testApp, type TestApp } from '../server/helpers.js'

const production = webhookPolicy({ NODE_ENV: 'production' })
let t: TestApp | undefined
let bot: Server | undefined
const originalLookup = dns.lookup
const originalPromisesLookup = dns.promises.lookup

afterEach(async () => {
  dns.lookup = originalLookup
  dns.promises.lookup = originalPromisesLookup
  syncBuiltinESMExports()
  bot?.closeAllConnections()
  await new Promise((r) => (bot ? bot.close(r) : r(undefined)))
  bot = undefined
  await t?.close()
  t = undefined
})

type Answer = (req: IncomingMessage, res: ServerResponse) => void

/** A bot server on 127.0.0.1 that counts the requests reaching it and answers as told (200 "ok" unless). */
async function botServer(answer: Answer = (_req, res) => res.end('ok')): Promise<{ port: number; requests: string[] }> {
  const requests: string[] = []
  bot = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`)
    answer(req, res)
  })
  await new Promise<void>((r) => bot!.listen(0, '127.0.0.1', r))
  return { port: (bot.address() as { port: number }).port, requests }
}

/** A player's seat (Ann unless told, against a greedy bot) with their webhook at `url`; the game started, so their hand is dealt and a delivery queued. */
async function annWithWebhook(app: TestApp['app'], url: string, player = PLAYERS[0]!) {
  const gm = await signIn(app, 'gm@example.org', 'Gemma')
  const gameId = (await gm.call('POST', '/api/v1/games', { name: 'Webhook', board: 'training-floor', seats: 2, bots: ['greedy'], reviewWindowHours: 0 })).json.id as string
  await gm.call('POST', `/api/v1/games/${gameId}/invites`, { email: player.email })
  const ann = await signIn(app, player.email)
  await ann.call('POST', `/api/v1/invites/${inviteToken(app, player.email)}/join`, { name: player.name, colour: player.colour })
  const registered = await ann.call('POST', `/api/v1/games/${gameId}/webhook`, { url })
  expect(registered.status, registered.text).toBe(201)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, {})).status).toBe(200)
  return { ann, gameId }
}

/** Makes `name` resolve, in this process, to each of `answers` in turn (the last one from then on). */
function rebinding(name: string, answers: string[]) {
  let asked = 0
  const next = () => answers[Math.min(asked++, answers.length - 1)]!
  const fake = (hostname: string, options: unknown, callback?: unknown) => {
    const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void
    const opts = (typeof options === 'object' && options !== null ? options : {}) as dns.LookupOptions
    if (hostname !== name) return (originalLookup as (...args: unknown[]) => void)(hostname, options, callback)
    const address = next()
    const family = address.includes(':') ? 6 : 4
    process.nextTick(() => (opts.all ? cb(null, [{ address, family }]) : cb(null, address, family)))
  }
  dns.lookup = fake as typeof dns.lookup
  dns.promises.lookup = (async (hostname: string, options?: dns.LookupOptions) => {
    if (hostname !== name) return originalPromisesLookup(hostname, options ?? {})
    const address = next()
    const found = { address, family: address.includes(':') ? 6 : 4 }
    return options?.all ? [found] : found
  }) as typeof dns.promises.lookup
  syncBuiltinESMExports()
  return { asked: () => asked }
}

describe('a webhook delivery in production', () => {
  it('connects only to the address it checked: a name that resolves to a public address, then to 127.0.0.1, never reaches 127.0.0.1', async () => {
    t = await testApp({ webhookPolicy: production })
    const { port, requests } = await botServer()
    const { ann, gameId } = await annWithWebhook(t.app, `http://bot.rebind.test:${port}/hook`)
    const dnsAnswers = rebinding('bot.rebind.test', ['198.51.100.7', '127.0.0.1'])
    expect(await t.app.deliverWebhooks()).toBe(0)
    expect(dnsAnswers.asked()).toBeGreaterThan(0)
    expect(requests).toEqual([])
    const delivery = (await ann.call('GET', `/api/v1/games/${gameId}/webhook`)).json.deliveries[0]
    expect(delivery).toMatchObject({ turn: 1, status: 'pending', attempts: 1 })
  })

  it('refuses a name that resolves to 127.0.0.1, and tries again later as for any failed delivery', async () => {
    t = await testApp({ webhookPolicy: production })
    const { port, requests } = await botServer()
    const { ann, gameId } = await annWithWebhook(t.app, `http://bot.inside.test:${port}/hook`)
    rebinding('bot.inside.test', ['127.0.0.1'])
    expect(await t.app.deliverWebhooks()).toBe(0)
    expect(requests).toEqual([])
    const delivery = (await ann.call('GET', `/api/v1/games/${gameId}/webhook`)).json.deliveries[0]
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastError: 'bot.inside.test resolves to a private address' })
  })
})

describe('a webhook delivery to a hostile bot server (private addresses allowed, as outside production)', () => {
  it('follows no redirect: a 302 to another address is a failed attempt, and that address is never called', async () => {
    t = await testApp({ webhookPolicy: { allowPrivate: true } })
    const inside = createServer((_req, res) => res.end('metadata'))
    await new Promise<void>((r) => inside.listen(0, '127.0.0.1', r))
    let insideCalled = 0
    inside.on('request', () => insideCalled++)
    try {
      const insidePort = (inside.address() as { port: number }).port
      const { port } = await botServer((_req, res) => { res.writeHead(302, { location: `http://127.0.0.1:${insidePort}/latest/meta-data/` }).end() })
      const { ann, gameId } = await annWithWebhook(t.app, `http://127.0.0.1:${port}/hook`)
      expect(await t.app.deliverWebhooks()).toBe(0)
      expect(insideCalled).toBe(0)
      expect((await ann.call('GET', `/api/v1/games/${gameId}/webhook`)).json.deliveries[0]).toMatchObject({ status: 'pending', lastError: 'answered 302' })
    } finally {
      inside.close()
    }
  })

  it('reads no answer without end: a 200 that streams forever counts as delivered, and its connection is closed', async () => {
    t = await testApp({ webhookPolicy: { allowPrivate: true } })
    let closed!: () => void
    const connectionClosed = new Promise<void>((r) => { closed = r })
    const { port } = await botServer((_req, res) => {
      res.writeHead(200)
      const chunk = Buffer.alloc(64 * 1024, 'x')
      const more = () => { while (res.write(chunk)); }
      res.on('drain', more)
      res.on('close', closed)
      more()
    })
    const { ann, gameId } = await annWithWebhook(t.app, `http://127.0.0.1:${port}/hook`)
    expect(await t.app.deliverWebhooks()).toBe(1)
    await connectionClosed
    expect((await ann.call('GET', `/api/v1/games/${gameId}/webhook`)).json.deliveries[0]).toMatchObject({ status: 'sent', attempts: 1 })
  })

  it('gives up on a server that never answers after the delivery timeout, closing the connection, and tries again later', async () => {
    t = await testApp({ webhookPolicy: { allowPrivate: true } })
    let closed!: () => void
    const connectionClosed = new Promise<void>((r) => { closed = r })
    const { port, requests } = await botServer((req) => { req.socket.on('close', closed) })
    const { ann, gameId } = await annWithWebhook(t.app, `http://127.0.0.1:${port}/hook`)
    expect(await t.app.deliverWebhooks()).toBe(0)
    await connectionClosed
    expect(requests).toHaveLength(1)
    const delivery = (await ann.call('GET', `/api/v1/games/${gameId}/webhook`)).json.deliveries[0]
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 })
    expect(delivery.lastError).toMatch(/abort|timeout/i)
  })

  it('are not held up by another person\'s bot server that never answers: theirs wait one at a time, the others go at once', async () => {
    t = await testApp({ webhookPolicy: { allowPrivate: true } })
    // Eve's bot server takes every delivery and answers none until Ann's is through (then 500 to
    // each, to end the round); she plays in three games, each queued before Ann's.
    const eveRequests: string[] = []
    const eveWaiting: ServerResponse[] = []
    let eveClosed = 0
    let annThrough = false
    const eveServer = createServer((req, res) => {
      eveRequests.push(req.url!)
      req.socket.on('close', () => eveClosed++)
      if (annThrough) res.writeHead(500).end()
      else eveWaiting.push(res)
    })
    await new Promise<void>((r) => eveServer.listen(0, '127.0.0.1', r))
    try {
      const evePort = (eveServer.address() as { port: number }).port
      const eve = { email: 'eve@example.org', name: 'Eve', colour: 'green' }
      for (let i = 0; i < 3; i++) await annWithWebhook(t.app, `http://127.0.0.1:${evePort}/game-${i}`, eve)
      let annReached!: () => void
      const annDelivered = new Promise<void>((r) => { annReached = r })
      let eveWhenAnnArrived: { requests: number; closed: number } | undefined
      await botServer((_req, res) => {
        eveWhenAnnArrived = { requests: eveRequests.length, closed: eveClosed }
        res.end('ok')
        annReached()
      })
      const port = (bot!.address() as { port: number }).port
      const { ann, gameId } = await annWithWebhook(t.app, `http://127.0.0.1:${port}/hook`)
      const round = t.app.deliverWebhooks()
      await annDelivered
      // Ann's hand went while Eve's first delivery was still waiting, and only one of Eve's was in flight.
      expect(eveWhenAnnArrived).toEqual({ requests: 1, closed: 0 })
      annThrough = true
      for (const res of eveWaiting) res.writeHead(500).end()
      expect(await round).toBe(1)
      expect((await ann.call('GET', `/api/v1/games/${gameId}/webhook`)).json.deliveries[0]).toMatchObject({ status: 'sent', attempts: 1 })
    } finally {
      eveServer.closeAllConnections()
      eveServer.close()
    }
  })

  it('are never more than CONCURRENT_DELIVERIES in flight, however many rounds run at once', async () => {
    t = await testApp({ webhookPolicy: { allowPrivate: true } })
    // One person more than the bound, each with a delivery to a server that answers nothing until told.
    const waiting: ServerResponse[] = []
    let released = false
    const { port } = await botServer((_req, res) => { if (released) res.end('ok'); else waiting.push(res) })
    for (let i = 0; i <= CONCURRENT_DELIVERIES; i++) {
      await annWithWebhook(t.app, `http://127.0.0.1:${port}/hook-${i}`, { email: `bot-author-${i}@example.org`, name: `Author ${i}`, colour: 'red' })
    }
    const sending = () => (t!.app.services.db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'sending'").get() as { n: number }).n
    // A round claims its deliveries before it waits for any answer; a second round starts while the first waits.
    const rounds = [t.app.deliverWebhooks(), t.app.deliverWebhooks()]
    expect(sending()).toBe(CONCURRENT_DELIVERIES)
    released = true
    for (const res of waiting) res.end('ok')
    expect(await Promise.all(rounds)).toEqual([CONCURRENT_DELIVERIES + 1, 0])
  })
})
