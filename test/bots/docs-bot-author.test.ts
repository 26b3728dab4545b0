// A bot written by an outside author from the documentation alone — README.md, docs/bots.md ("The
// bot protocol"), src/server/README.md ("JSON API") and /api/v1/openapi.json — and played against
// the real server listening on 127.0.0.1. It signs in by the mailed link, takes the game's API
// token, registers a webhook, checks each delivery's signature exactly as the docs give it, reads
// its hand, submits and revises a legal program, meets every refusal the docs promise, and plays a
// short game to its end. Each assertion is a sentence of those docs: when one fails, the docs and
// the server disagree. The part above the tests is the bot; keep it readable as an example.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { client, inviteToken, lastMailTo, linksIn, signIn, testApp, type TestApp } from '../server/helpers.js'

// ---------------------------------------------------------------------------------------------
// The bot
// ---------------------------------------------------------------------------------------------

interface Answer { status: number; json: any }

/** The JSON API under /api/v1 with one way of signing in: a session cookie or `Authorization: Bearer <token>`. */
class Api {
  constructor(readonly base: string, readonly credentials: Record<string, string> = {}) {}

  async call(method: string, path: string, body?: unknown): Promise<Answer> {
    // A body goes as JSON with its content type; a POST without one sends neither (docs/bots.md).
    const response = await fetch(`${this.base}/api/v1${path}`, {
      method,
      headers: { ...this.credentials, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, json: text ? JSON.parse(text) : null }
  }
}

/** Signs in as src/server/README.md says: ask for a link, then hand its token to POST /api/v1/auth/link. */
async function signInByLink(base: string, email: string, readMailedLink: () => string): Promise<Api> {
  const anonymous = new Api(base)
  const asked = await anonymous.call('POST', '/auth/login', { email })
  if (asked.status !== 202) throw new Error(`login: ${asked.status} ${JSON.stringify(asked.json)}`)
  const token = new URL(readMailedLink()).searchParams.get('token')
  const response = await fetch(`${base}/api/v1/auth/link`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }),
  })
  if (response.status !== 200) throw new Error(`link: ${response.status} ${await response.text()}`)
  const session = response.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('botwars_session='))
  if (!session) throw new Error('no botwars_session cookie')
  return new Api(base, { cookie: session })
}

/** X-BotWars-Signature: `t=<ms>,sha256=<hex HMAC-SHA256 of "<t>.<body>" keyed with the secret>`, over the body's raw bytes. */
function signedWith(secret: string, header: string | undefined, rawBody: Buffer): boolean {
  const match = /^t=(\d+),sha256=([0-9a-f]{64})$/.exec(header ?? '')
  if (!match) return false
  const expected = createHmac('sha256', secret).update(`${match[1]}.`).update(rawBody).digest()
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'))
}

/** A legal program (R8): one distinct card of the hand for each unfused register, in register order. */
function programFrom(me: { hand: string[]; robot: { fused: Record<string, string | null> } }, order: 'as dealt' | 'reversed'): string[] {
  const unfused = 5 - Object.keys(me.robot.fused).length
  const hand = order === 'as dealt' ? me.hand : [...me.hand].reverse()
  return hand.slice(0, unfused)
}

interface Delivery { headers: IncomingMessage['headers']; rawBody: Buffer; payload: any }

/**
 * The bot's webhook: refuses a delivery it cannot verify (401), answers a good one at once (204),
 * then submits a program and revises it through the API with the game's token.
 */
class WebhookBot {
  secret = ''
  /** The status a verified delivery is answered with: not 2xx plays a bot server that is down. */
  answer = 204
  /** Whether a delivery answered 2xx is played (a test may read it first). */
  playing = true
  readonly deliveries: Delivery[] = []
  readonly submissions: Answer[] = []
  private readonly server: Server = createServer((request, response) => this.receive(request, response))
  private work: Promise<void>[] = []

  constructor(private readonly api: Api) {}

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/botwars`
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  /** Waits for the programs the bot is still sending. */
  async settled(): Promise<void> {
    while (this.work.length > 0) await Promise.all(this.work.splice(0))
  }

  private receive(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      // Verify the bytes as they came: a string built chunk by chunk can split a character.
      const rawBody = Buffer.concat(chunks)
      if (!signedWith(this.secret, request.headers['x-botwars-signature'] as string | undefined, rawBody)) {
        response.writeHead(401).end()
        return
      }
      response.writeHead(this.answer).end()
      if (this.answer < 200 || this.answer > 299) return
      const payload = JSON.parse(rawBody.toString('utf8'))
      this.deliveries.push({ headers: request.headers, rawBody, payload })
      if (this.playing) this.work.push(this.play(payload))
    })
  }

  private async play(delivery: { gameId: string; turn: number; game: any }) {
    const me = delivery.game.currentTurn?.me
    if (!me?.canSubmit) return
    const path = `/games/${delivery.gameId}/turns/${delivery.turn}/submission`
    // A first program at once, then a better thought: the newest version before the close counts.
    this.submissions.push(await this.api.call('POST', path, { cards: programFrom(me, 'as dealt') }))
    this.submissions.push(await this.api.call('POST', path, { cards: programFrom(me, 'reversed'), rebootNext: false }))
  }
}

// ---------------------------------------------------------------------------------------------
// The tests: the bot against the real server
// ---------------------------------------------------------------------------------------------

let t: TestApp | undefined
let bot: WebhookBot | undefined
afterEach(async () => {
  await bot?.close()
  bot = undefined
  await t?.close()
  t = undefined
})

const AUTHOR = { email: 'author@example.org', name: 'Ada', colour: 'purple' }

/** The mailed sign-in link, read from the server's outbox as from the author's mailbox. */
function mailedSignInLink(app: TestApp['app'], email: string): string {
  return linksIn(lastMailTo(app, email, 'sign-in')!.body)[0]!
}

/**
 * A GM's game of 3 turns (turnLimit) on the training floor, published as each turn closes, with a
 * random bot in seat 1 and the author invited to seat 2; the author signed in by the docs' way and
 * joined, holding a session and the game's API token.
 */
async function authorInAGame(app: TestApp['app'], base: string) {
  const gm = await signIn(app, 'gm@example.org', 'Gemma')
  const created = await gm.call('POST', '/api/v1/games', { name: 'Docs', board: 'training-floor', seats: 2, bots: ['random'], reviewWindowHours: 0, turnLimit: 3 })
  expect(created.status, created.text).toBe(201)
  const gameId = created.json.id as string
  expect((await gm.call('POST', `/api/v1/games/${gameId}/invites`, { email: AUTHOR.email })).status).toBe(201)

  const session = await signInByLink(base, AUTHOR.email, () => mailedSignInLink(app, AUTHOR.email))
  const joined = await session.call('POST', `/invites/${inviteToken(app, AUTHOR.email)}/join`, { name: AUTHOR.name, colour: AUTHOR.colour })
  expect(joined.status).toBe(200)

  // docs/bots.md, step 2: POST /api/v1/games/{id}/api-token → 201 { token }, with the session.
  const issued = await session.call('POST', `/games/${gameId}/api-token`)
  expect(issued.status).toBe(201)
  expect(typeof issued.json.token).toBe('string')
  const withToken = new Api(base, { authorization: `Bearer ${issued.json.token}` })
  return { gm, gameId, session, withToken, player: joined.json.player as string }
}

/** The server's clockwork for one turn: bots' programs in, the turn closed (every program is in) and published. */
async function closeTurn(app: TestApp['app']) {
  await app.botsPlanned()
  const due = app.runDueWork()
  expect(due.closed).toBe(1)
  app.runDueWork()
}

describe('a bot written from the docs alone', () => {
  it('signs in, takes the API token, registers a webhook, and plays a whole short game through signed deliveries', async () => {
    t = await testApp()
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { gm, gameId, session, withToken, player } = await authorInAGame(t.app, base)
    bot = new WebhookBot(withToken)
    const url = await bot.listen()

    // Step 3: POST …/webhook { url } → 201 { url, secret }; registering again replaces URL and secret.
    const first = await session.call('POST', `/games/${gameId}/webhook`, { url: `${url}?first` })
    expect(first.status).toBe(201)
    expect(first.json.url).toBe(`${url}?first`)
    const registered = await session.call('POST', `/games/${gameId}/webhook`, { url })
    expect(registered.status).toBe(201)
    expect(registered.json).toMatchObject({ url, secret: expect.any(String) })
    expect(registered.json.secret).not.toBe(first.json.secret)
    bot.secret = registered.json.secret
    // GET shows the URL and the recent deliveries, never the secret.
    const shown = await session.call('GET', `/games/${gameId}/webhook`)
    expect(shown.json).toMatchObject({ url, deliveries: [] })
    expect(JSON.stringify(shown.json)).not.toContain(bot.secret)

    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, {})).status).toBe(200)
    let turns = 0
    while ((await withToken.call('GET', `/games/${gameId}`)).json.status === 'running') {
      expect(++turns).toBeLessThanOrEqual(3)
      await t.app.botsPlanned()
      expect(await t.app.deliverWebhooks()).toBe(1)
      await bot.settled()

      // Step 4: the delivery as docs/bots.md describes it; signed with the newest secret only.
      const delivery = bot.deliveries.at(-1)!
      expect(delivery.headers['x-botwars-event']).toBe('hand-dealt')
      expect(delivery.headers['x-botwars-delivery']).toMatch(/^\S+$/)
      expect(signedWith(first.json.secret, delivery.headers['x-botwars-signature'] as string, delivery.rawBody)).toBe(false)
      expect(delivery.payload).toMatchObject({ event: 'hand-dealt', gameId, turn: turns, player })
      // The hand is the player's own; the next test compares the whole game with GET's.
      const me = delivery.payload.game.currentTurn.me
      expect(me.hand.length).toBeGreaterThanOrEqual(5 - Object.keys(me.robot.fused).length)

      // Step 5: the program and its revision went in; the newest stands.
      const [submitted, revised] = bot.submissions.slice(-2)
      expect(submitted!.status, JSON.stringify(submitted!.json)).toBe(201)
      expect(revised!.status, JSON.stringify(revised!.json)).toBe(201)
      expect(revised!.json.version).toBe(2)
      const turn = await withToken.call('GET', `/games/${gameId}/turns/${turns}`)
      expect(turn.json.me.submission.cards).toEqual(programFrom(me, 'reversed'))
      await closeTurn(t.app)
    }

    const game = (await withToken.call('GET', `/games/${gameId}`)).json
    expect(game.status).toBe('finished')
    expect((await withToken.call('POST', `/games/${gameId}/turns/3/submission`, { cards: [] })).status).toBe(409)
    expect(turns).toBe(3)
    expect(game.publishedTurns).toEqual([1, 2, 3])
    // Every program of the author's came from the bot: the server filled none (R9).
    for (const number of game.publishedTurns as number[]) {
      const { result } = (await withToken.call('GET', `/games/${gameId}/turns/${number}`)).json
      const filled = [...result.start.events, ...result.stages.flatMap((s: any) => s.events)].filter((e: any) => e.kind === 'program-filled')
      expect(filled.map((e: any) => e.player)).not.toContain(player)
    }
    const deliveries = (await session.call('GET', `/games/${gameId}/webhook`)).json.deliveries
    expect(deliveries.map((d: any) => [d.turn, d.status])).toEqual(expect.arrayContaining([[1, 'sent'], [2, 'sent'], [3, 'sent']]))
  }, 60_000)

  it('is sent the delivery again 5 s after answering 503, with the game exactly as GET /api/v1/games/{id} gives the player', async () => {
    t = await testApp()
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { gm, gameId, session, withToken } = await authorInAGame(t.app, base)
    bot = new WebhookBot(withToken)
    bot.secret = (await session.call('POST', `/games/${gameId}/webhook`, { url: await bot.listen() })).json.secret
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, {})).status).toBe(200)
    await t.app.botsPlanned()

    bot.answer = 503
    expect(await t.app.deliverWebhooks()).toBe(0)
    const pending = (await session.call('GET', `/games/${gameId}/webhook`)).json.deliveries
    expect(pending).toMatchObject([{ turn: 1, status: 'pending', attempts: 1 }])
    // "any non-2xx answer retried after 5 s, 10 s, 20 s …"
    bot.answer = 204
    bot.playing = false
    t.clock.now += 4_999
    expect(await t.app.deliverWebhooks()).toBe(0)
    t.clock.now += 1
    expect(await t.app.deliverWebhooks()).toBe(1)
    expect(bot.deliveries[0]!.payload.game).toEqual((await withToken.call('GET', `/games/${gameId}`)).json)
  })

  it('meets each refusal the docs name: 400 naming the field, 401, 403, 409 and 429, each as { error, message, field? }', async () => {
    // The real limit of sign-in mails (the test app raises it for other tests).
    t = await testApp({ signInMailsPerHour: undefined })
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { gm, gameId, session, withToken } = await authorInAGame(t.app, base)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, {})).status).toBe(200)
    const refusal = (answer: Answer, status: number, error: string, field?: string) => {
      expect(answer.status, JSON.stringify(answer.json)).toBe(status)
      expect(answer.json).toEqual({ error, message: expect.any(String), ...(field ? { field } : {}) })
    }
    const game = (await withToken.call('GET', `/games/${gameId}`)).json
    const me = game.currentTurn.me
    const path = `/games/${gameId}/turns/${game.currentTurn.number}/submission`
    const program = programFrom(me, 'as dealt')
    expect((await withToken.call('POST', path, { cards: program })).status).toBe(201)

    // 400 naming the field; the program already in stays.
    refusal(await withToken.call('POST', path, { cards: programFrom(me, 'reversed'), rebootnext: true }), 400, 'bad_request', 'rebootnext')
    refusal(await withToken.call('POST', path, { cards: ['FWD9:700', ...program.slice(1)] }), 400, 'bad_request', 'cards[0]')
    refusal(await withToken.call('POST', path, { cards: program.slice(0, 4) }), 400, 'bad_request', 'cards')
    const notInHand = ['FWD1:490', 'FWD1:500', 'FWD1:510', 'FWD1:520', 'FWD1:530', 'FWD1:540', 'FWD1:550', 'FWD1:560', 'FWD1:570', 'FWD1:580']
      .find((card) => !me.hand.includes(card))!
    refusal(await withToken.call('POST', path, { cards: [notInHand, ...program.slice(1)] }), 400, 'bad_request', 'cards[0]')
    expect((await withToken.call('GET', `/games/${gameId}/turns/${game.currentTurn.number}`)).json.me.submission).toMatchObject({ version: 1, cards: program })

    // 401: a token unknown or revoked; 403: a token on a route for the signed-in person only.
    refusal(await new Api(base, { authorization: 'Bearer not-a-token-at-all' }).call('POST', path, { cards: program }), 401, 'unauthorized')
    refusal(await withToken.call('POST', `/games/${gameId}/webhook`, { url: 'http://127.0.0.1:9/' }), 403, 'forbidden')
    refusal(await withToken.call('POST', `/games/${gameId}/api-token`), 403, 'forbidden')

    // 404: another game's, for the token; a turn not dealt yet. 415: a body that is not JSON.
    const other = (await gm.call('POST', '/api/v1/games', { name: 'Other', board: 'training-floor', seats: 2 })).json.id as string
    refusal(await withToken.call('GET', `/games/${other}`), 404, 'not_found')
    refusal(await withToken.call('POST', `/games/${gameId}/turns/${game.currentTurn.number + 1}/submission`, { cards: program }), 404, 'not_found')
    const form = await fetch(`${base}/api/v1${path}`, { method: 'POST', headers: { ...withToken.credentials, 'content-type': 'application/x-www-form-urlencoded' }, body: 'cards=FWD2:680' })
    refusal({ status: form.status, json: await form.json() }, 415, 'ctp_invalid_media_type')
    const text = await fetch(`${base}/api/v1${path}`, { method: 'POST', headers: withToken.credentials, body: JSON.stringify({ cards: program }) })
    refusal({ status: text.status, json: await text.json() }, 400, 'bad_request')

    // 409: at most 100 versions of a program per turn.
    for (let version = 2; version <= 100; version++) expect((await withToken.call('POST', path, { cards: program })).status).toBe(201)
    refusal(await withToken.call('POST', path, { cards: program }), 409, 'too_many_versions')

    // 429 (within the hour of the first): 3 sign-in mails an hour per recipient (the author's first went above).
    const anonymous = new Api(base)
    for (let again = 2; again <= 3; again++) expect((await anonymous.call('POST', '/auth/login', { email: AUTHOR.email })).status).toBe(202)
    refusal(await anonymous.call('POST', '/auth/login', { email: AUTHOR.email }), 429, 'rate_limited')

    // 409: the turn closes at its deadline, even before the clockwork comes round.
    expect(Date.parse(game.currentTurn.deadline) - Date.parse(game.currentTurn.openedAt)).toBe(game.settings.turnLengthHours * 3600_000)
    t.clock.now = Date.parse(game.currentTurn.deadline)
    refusal(await withToken.call('POST', path, { cards: program }), 409, 'conflict')
    await closeTurn(t.app)
    refusal(await withToken.call('POST', path, { cards: program }), 409, 'conflict')
  })

  it('gets a delivery for a turn it reboots (no hand), and may declare another reboot with no cards (R33)', async () => {
    t = await testApp()
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { gm, gameId, session, withToken } = await authorInAGame(t.app, base)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, {})).status).toBe(200)
    bot = new WebhookBot(withToken)
    bot.playing = false // this test sends the programs itself
    // Registered while turn 1 is open: the first delivery is the next deal's.
    bot.secret = (await session.call('POST', `/games/${gameId}/webhook`, { url: await bot.listen() })).json.secret
    await t.app.botsPlanned()
    expect(await t.app.deliverWebhooks()).toBe(0)
    const first = (await withToken.call('GET', `/games/${gameId}`)).json.currentTurn
    expect((await withToken.call('POST', `/games/${gameId}/turns/1/submission`, { cards: programFrom(first.me, 'as dealt'), rebootNext: true })).status).toBe(201)
    await closeTurn(t.app)

    expect(await t.app.deliverWebhooks()).toBe(1)
    expect(bot.deliveries.at(-1)?.payload).toMatchObject({ turn: 2, game: { currentTurn: { me: { hand: [], robot: { rebooting: true } } } } })
    const second = (await withToken.call('GET', `/games/${gameId}`)).json.currentTurn
    expect(second).toMatchObject({ number: 2, status: 'open', me: { hand: [], canSubmit: true, robot: { rebooting: true } } })
    const again = await withToken.call('POST', `/games/${gameId}/turns/2/submission`, { cards: [], rebootNext: true })
    expect(again.status, JSON.stringify(again.json)).toBe(201)
    await closeTurn(t.app)
    expect((await withToken.call('GET', `/games/${gameId}`)).json.currentTurn.me.robot.rebooting).toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------
// The JSON written in docs/bots.md: valid, and accepted as written
// ---------------------------------------------------------------------------------------------

const BOTS_DOC = readFileSync(new URL('../../docs/bots.md', import.meta.url), 'utf8')

/** Every `{ "…" }` of docs/bots.md written as code, with the `POST /api/v1/…` written just before it, if any. */
function documentedJson(): { route: string | null; text: string }[] {
  return [...BOTS_DOC.matchAll(/(?:`POST (\/api\/v1\/[^`]+)`\s+)?`(\{ ?"[^`]*\})`/g)].map((m) => ({ route: m[1] ?? null, text: m[2]! }))
}

describe('the JSON in docs/bots.md', () => {
  it('is JSON, every example of it', () => {
    const examples = documentedJson()
    expect(examples.length).toBeGreaterThan(10)
    for (const { text } of examples) expect(() => JSON.parse(text), text).not.toThrow()
  })

  it('is accepted as written after its route, where it holds no <placeholder>', async () => {
    t = await testApp()
    const gm = await signIn(t.app, 'gm@example.org', 'Gemma')
    const author = await signIn(t.app, AUTHOR.email, AUTHOR.name)
    const gameId = (await gm.call('POST', '/api/v1/games', { name: 'Docs', board: 'training-floor', seats: 2 })).json.id as string
    expect((await gm.call('POST', `/api/v1/games/${gameId}/invites`, { email: AUTHOR.email })).status).toBe(201)
    let seriesId = ''
    const sent: string[] = []
    for (const { route, text } of documentedJson()) {
      if (!route || /<[^>]+>/.test(text)) continue
      const freeSeat = () => (gm.call('GET', `/api/v1/games/${gameId}`)).then((g) => g.json.seats.find((seat: any) => !seat.joined).seat as number)
      const [who, url] = route === '/api/v1/auth/login' ? [client(t.app, 'anyone'), route]
        : route === '/api/v1/invites/{token}/join' ? [author, `/api/v1/invites/${inviteToken(t.app, AUTHOR.email)}/join`]
        : route === '/api/v1/games/{id}/webhook' ? [author, `/api/v1/games/${gameId}/webhook`]
        : route === '/api/v1/games/{id}/seats/{seat}/bot' ? [gm, `/api/v1/games/${gameId}/seats/${await freeSeat()}/bot`]
        : route === '/api/v1/games/{id}/bot-seats' ? [gm, `/api/v1/games/${gameId}/bot-seats`]
        : route === '/api/v1/practice' ? [author, route]
        : route === '/api/v1/series' ? [gm, route]
        : route === '/api/v1/series/{id}/stop' ? [gm, `/api/v1/series/${seriesId}/stop`]
        : [null, route]
      if (!who) throw new Error(`docs/bots.md writes JSON for ${route}, which this test does not send yet`)
      // A new seat for a bot is opened in a running game.
      if (route.endsWith('/bot-seats')) expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, {})).status).toBe(200)
      const answer = await who.call('POST', url, JSON.parse(text))
      expect(answer.status, `${route} ${text}: ${answer.text}`).toBeLessThan(300)
      if (route === '/api/v1/series') seriesId = answer.json.id
      sent.push(route)
    }
    expect(sent).toEqual(expect.arrayContaining(['/api/v1/auth/login', '/api/v1/games/{id}/webhook', '/api/v1/practice', '/api/v1/series', '/api/v1/series/{id}/stop']))
  })
})

// ---------------------------------------------------------------------------------------------
// The example bot docs/bots.md points to
// ---------------------------------------------------------------------------------------------

describe('examples/webhook-bot.mjs', () => {
  let example: ChildProcess | undefined
  afterEach(() => {
    example?.kill()
    example = undefined
  })

  it('verifies a delivery whose body comes in chunks split inside a character (a name with "ë")', async () => {
    const secret = 'a webhook secret of the example'
    example = spawn(process.execPath, [fileURLToPath(new URL('../../examples/webhook-bot.mjs', import.meta.url))], {
      env: { ...process.env, BOTWARS_URL: 'http://127.0.0.1:9', BOTWARS_TOKEN: 'unused', BOTWARS_SECRET: secret, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const port = await new Promise<number>((resolve) => example!.stdout!.on('data', (chunk: Buffer) => {
      const listening = /listening on (\d+)/.exec(chunk.toString())
      if (listening) resolve(Number(listening[1]))
    }))
    // No turn to play in it: the example answers and does nothing more.
    const body = Buffer.from(JSON.stringify({ event: 'hand-dealt', gameId: 'g', turn: 1, player: 'P1', game: { name: 'Zoë', currentTurn: null } }))
    const split = body.indexOf(Buffer.from('ë')) + 1
    const signedAt = 1_894_017_600_000
    const signature = `t=${signedAt},sha256=${createHmac('sha256', secret).update(`${signedAt}.`).update(body).digest('hex')}`
    // Chunked transfer: the bot's request stream hands it the two chunks apart.
    const chunk = (part: Buffer) => Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')])
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end(Buffer.concat([
          Buffer.from(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-BotWars-Signature: ${signature}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`),
          chunk(body.subarray(0, split)), chunk(body.subarray(split)), Buffer.from('0\r\n\r\n'),
        ]))
      })
      let text = ''
      socket.on('data', (data) => { text += data.toString() })
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 204 No Content')
  })
})
