// The bot protocol (issue 15) against the real server listening on 127.0.0.1: the example bot in
// examples/ plays a whole game through its webhook; a dead webhook never holds up a turn; webhook
// URLs that could reach inside the server's network are refused in production.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { isPrivateAddress } from '../../src/server/services/private-addresses.js'
import { signature, webhookPolicy, webhookUrlProblem } from '../../src/server/services/webhooks.js'
import { waitFor } from '../../src/testkit/server-process.js'
import { DAY, inviteToken, PLAYERS, signIn, testApp, type Client, type TestApp } from '../server/helpers.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
let t: TestApp | undefined
let bot: ChildProcess | undefined
let down: Server | undefined
afterEach(async () => {
  bot?.kill()
  bot = undefined
  await new Promise((resolve) => down ? down.close(resolve) : resolve(undefined))
  down = undefined
  await t?.close()
  t = undefined
})

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Registers Ann's webhook and starts the example bot in examples/ on it. The port is found free,
 * then handed to the bot, and another process may take it in between: a bot that cannot listen
 * is started again on another port (each registration makes a new secret).
 */
async function startExampleBot(ann: Client, gameId: string, address: string, token: string): Promise<{ port: number; secret: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const registered = await ann.call('POST', `/api/v1/games/${gameId}/webhook`, { url: `http://127.0.0.1:${port}/` })
    expect(registered.status, registered.text).toBe(201)
    const secret = registered.json.secret as string
    const child = spawn(process.execPath, ['examples/webhook-bot.mjs'], {
      cwd: ROOT, env: { ...process.env, BOTWARS_URL: address, BOTWARS_TOKEN: token, BOTWARS_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    bot = child
    const listening = await new Promise<boolean>((resolve) => {
      child.stdout!.on('data', (chunk: Buffer) => { if (chunk.toString().includes('listening')) resolve(true) })
      child.once('exit', () => resolve(false))
    })
    if (listening) return { port, secret }
    if (attempt === 5) throw new Error('the example bot could not listen on a free port, five times')
  }
}

/** A webhook server that is down: it cuts every connection. (A port merely left free could be taken by another test's server meanwhile.) */
async function downServer(): Promise<number> {
  const server = createServer((socket) => socket.destroy())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  down = server
  return (server.address() as { port: number }).port
}

/** A game of Ann (seat 2, to be played by a webhook) against a greedy bot, with review window 0. */
async function gameWithAnn(app: TestApp['app']) {
  const gm = await signIn(app, 'gm@example.org', 'Gemma')
  const gameId = (await gm.call('POST', '/api/v1/games', { name: 'Webhook', board: 'training-floor', seats: 2, bots: ['greedy'], reviewWindowHours: 0 })).json.id as string
  await gm.call('POST', `/api/v1/games/${gameId}/invites`, { email: PLAYERS[0]!.email })
  const ann = await signIn(app, PLAYERS[0]!.email)
  await ann.call('POST', `/api/v1/invites/${inviteToken(app, PLAYERS[0]!.email)}/join`, { name: 'Ann', colour: 'red' })
  return { gm, ann, gameId }
}

describe('a webhook bot', () => {
  it('plays a whole game against the real server: the example bot in examples/', async () => {
    t = await testApp()
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { gm, ann, gameId } = await gameWithAnn(t.app)
    const token = (await ann.call('POST', `/api/v1/games/${gameId}/api-token`)).json.token as string
    const { port, secret } = await startExampleBot(ann, gameId, address, token)
    expect(secret.length).toBeGreaterThan(20)
    // A forged delivery is refused by the bot.
    const forged = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}', headers: { 'x-botwars-signature': signature('wrong', 1, '{}') } })
    expect(forged.status).toBe(401)

    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, {})).status).toBe(200)
    const services = t.app.services
    let turns = 0
    while (services.games.byId(gameId)!.status === 'running' && turns < 80) {
      const turn = services.turns.current(gameId)!
      expect(await t.app.deliverWebhooks()).toBe(1)
      // The bot answers through the API in its own time; the clockwork closes the turn once it is in.
      // (The deadline only guards against a hang: a loaded machine may take seconds.)
      await waitFor(() => services.turns.submitters(turn.id).includes('P2'), 60_000, 25)
      expect(services.turns.submitters(turn.id)).toContain('P2')
      // The greedy bot's program comes from the worker thread it plans in, also in its own time.
      await t.app.botsPlanned()
      expect(t.app.runDueWork().closed).toBe(1)
      turns++
    }
    expect(services.games.byId(gameId)!.status).toBe('finished')
    // Every program of Ann's came from her bot: none was filled by the server.
    for (const number of (await ann.call('GET', `/api/v1/games/${gameId}`)).json.publishedTurns as number[]) {
      const result = (await ann.call('GET', `/api/v1/games/${gameId}/turns/${number}`)).json.result
      const filled = [...result.start.events, ...result.stages.flatMap((s: any) => s.events)].filter((e: any) => e.kind === 'program-filled')
      expect(filled.map((e: any) => e.player)).not.toContain('P2')
    }
    const status = (await ann.call('GET', `/api/v1/games/${gameId}/webhook`)).json
    expect(status.url).toBe(`http://127.0.0.1:${port}/`)
    expect(status.secret).toBeUndefined()
    expect(status.deliveries.length).toBeGreaterThan(0)
    expect(status.deliveries.every((d: any) => d.status === 'sent')).toBe(true)
  }, 120_000)

  it('that is down never holds up a turn: deliveries are retried with backoff, and the deadline fills the program (R9)', async () => {
    t = await testApp()
    const { gm, ann, gameId } = await gameWithAnn(t.app)
    const port = await downServer()
    expect((await ann.call('POST', `/api/v1/games/${gameId}/webhook`, { url: `http://127.0.0.1:${port}/hook` })).status).toBe(201)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, {})).status).toBe(200)
    expect(await t.app.deliverWebhooks()).toBe(0)
    let status = (await ann.call('GET', `/api/v1/games/${gameId}/webhook`)).json
    expect(status.deliveries[0]).toMatchObject({ turn: 1, status: 'pending', attempts: 1 })
    expect(status.deliveries[0].lastError).toBeTruthy()
    // Not due again at once: the retry waits.
    expect(await t.app.deliverWebhooks()).toBe(0)
    expect((await ann.call('GET', `/api/v1/games/${gameId}/webhook`)).json.deliveries[0].attempts).toBe(1)
    t.clock.now += 6 * DAY // past the deadline
    expect(t.app.runDueWork().closed).toBe(1)
    const result = (await ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result
    expect(result.start.events.some((e: any) => e.kind === 'program-filled' && e.player === 'P2')).toBe(true)
    // The delivery for the closed turn is dropped, not sent late.
    await t.app.deliverWebhooks()
    status = (await ann.call('GET', `/api/v1/games/${gameId}/webhook`)).json
    const first = status.deliveries.find((d: any) => d.turn === 1)
    expect(first.status).toBe('failed')
  })
})

describe('webhook URLs (server-side request forgery)', () => {
  const production = webhookPolicy({ NODE_ENV: 'production' })

  it('takes only http and https, without credentials', () => {
    for (const url of ['ftp://example.org/', 'file:///etc/passwd', 'javascript:alert(1)', 'gopher://example.org', 'not a url', 'https://user:pw@example.org/']) {
      expect(webhookUrlProblem(url, { allowPrivate: true }), url).not.toBeNull()
    }
    expect(webhookUrlProblem('https://bots.example.org/hook', production)).toBeNull()
  })

  it('refuses the ports of other protocols (mail, SSH, DNS …) that browsers refuse too, in and outside production', () => {
    for (const url of ['http://bots.example.org:25/', 'https://bots.example.org:22/', 'http://bots.example.org:53/', 'http://bots.example.org:6667/', 'http://bots.example.org:587/']) {
      expect(webhookUrlProblem(url, production), url).toMatch(/port/)
      expect(webhookUrlProblem(url, { allowPrivate: true }), url).toMatch(/port/)
    }
    for (const url of ['http://bots.example.org:8080/', 'https://bots.example.org:443/', 'http://bots.example.org/']) expect(webhookUrlProblem(url, production), url).toBeNull()
  })

  it('refuses loopback, private and link-local addresses in production', () => {
    for (const url of [
      'http://127.0.0.1:3000/', 'http://localhost/', 'http://api.localhost/', 'http://10.1.2.3/', 'http://172.16.0.1/', 'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://[fd00::1]/', 'http://[fe80::1]/', 'http://0.0.0.0/', 'http://[::ffff:127.0.0.1]/',
      'http://100.64.0.1/',
    ]) expect(webhookUrlProblem(url, production), url).not.toBeNull()
    expect(isPrivateAddress('93.184.216.34')).toBe(false)
    expect(isPrivateAddress('2606:2800:220:1:248:1893:25c8:1946')).toBe(false)
  })

  it('refuses IPv6 forms that carry a private IPv4 address, and the other IPv6 ranges that never reach a bot on the internet', () => {
    for (const url of [
      'http://[64:ff9b::a9fe:a9fe]/', // NAT64: 169.254.169.254 through the network's translator
      'http://[64:ff9b::7f00:1]/', 'http://[64:ff9b:1::a00:1]/', // NAT64, and its local-use prefix
      'http://[2002:a9fe:a9fe::1]/', 'http://[2002:7f00:1::]/', // 6to4 around 169.254.169.254 and 127.0.0.1
      'http://[::7f00:1]/', 'http://[::127.0.0.1]/', 'http://[::a9fe:a9fe]/', // IPv4-compatible (deprecated)
      'http://[::ffff:0:7f00:1]/', 'http://[0:0:0:0:0:ffff:169.254.169.254]/', // IPv4-translated, mapped written out
      'http://[fec0::1]/', 'http://[fef0::1]/', // site-local (deprecated)
      'http://[0::0:1]/', 'http://[::0]/',
    ]) expect(webhookUrlProblem(url, production), url).not.toBeNull()
    for (const ip of ['64:ff9b::a9fe:a9fe', '2002:a00:1::1', '::7f00:1', '::ffff:0:a00:1', 'fec0::1', '0:0:0:0:0:0:0:1']) expect(isPrivateAddress(ip), ip).toBe(true)
    // Teredo (2001::/32) tunnels to an IPv4 host it hides; documentation and protocol ranges reach no bot.
    for (const ip of ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:db8::1', '192.0.2.10', '198.51.100.7', '203.0.113.9', '192.0.0.8']) expect(isPrivateAddress(ip), ip).toBe(true)
    // Their public counterparts stay allowed.
    for (const ip of ['64:ff9b::5db8:d822', '2002:5db8:d822::1', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888', '192.0.3.1', '198.51.99.1', '203.0.114.1']) expect(isPrivateAddress(ip), ip).toBe(false)
  })

  it('allows them in production only with BOTWARS_WEBHOOK_ALLOW_PRIVATE=1, and outside production', () => {
    expect(webhookUrlProblem('http://127.0.0.1:3000/', webhookPolicy({ NODE_ENV: 'production', BOTWARS_WEBHOOK_ALLOW_PRIVATE: '1' }))).toBeNull()
    expect(webhookUrlProblem('http://127.0.0.1:3000/', webhookPolicy({ NODE_ENV: 'development' }))).toBeNull()
  })

  it('through the API: refused with a message naming the field; only a seated player may register, and sees only their own', async () => {
    t = await testApp({ webhookPolicy: production })
    const { gm, ann, gameId } = await gameWithAnn(t.app)
    const refused = await ann.call('POST', `/api/v1/games/${gameId}/webhook`, { url: 'http://169.254.169.254/' })
    expect(refused.status).toBe(400)
    expect(refused.json.field).toBe('url')
    expect(refused.json.message).toMatch(/^url: /)
    // The GM does not play here: no seat, no webhook.
    expect((await gm.call('POST', `/api/v1/games/${gameId}/webhook`, { url: 'https://bots.example.org/' })).status).toBe(409)
    const eve = await signIn(t.app, 'eve@example.org', 'Eve')
    expect((await eve.call('POST', `/api/v1/games/${gameId}/webhook`, { url: 'https://bots.example.org/' })).status).toBe(404)
    expect((await ann.call('POST', `/api/v1/games/${gameId}/webhook`, { url: 'https://bots.example.org/' })).status).toBe(201)
    expect((await gm.call('GET', `/api/v1/games/${gameId}/webhook`)).json).toEqual({ url: null, deliveries: [] })
  })
})
