// Bad input: fast-check sends random and malformed bodies, paths and headers to every endpoint
// of the OpenAPI document and every page route (GET and form post), as the GM, a player, a
// signed-in outsider and nobody (and to the API with a player's game token). Nothing answers 500,
// every API refusal is the JSON error shape, no answer is larger than MAX_RESPONSE, and a refused
// request (and every GET) leaves every table of the database exactly as it was (compared by a
// digest of all rows before and after).
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formToken, PAGE_POSTS } from '../security/setup.js'
import { PLAYERS, setUpGame, signIn, testApp, type Client, type TestApp } from './helpers.js'

let t: TestApp
let gm: Client, ann: Client, outsider: Client
let annToken: Record<string, string>
let gameId: string, publicToken: string
let routes: { method: string; path: string; body: boolean }[]

beforeAll(async () => {
  t = await testApp()
  const set = await setUpGame(t.app, PLAYERS.slice(0, 2))
  gm = set.gm
  ann = set.players[0]!
  outsider = await signIn(t.app, 'outsider@example.org')
  const token = (await ann.call('POST', `/api/v1/games/${set.gameId}/api-token`)).json.token as string
  annToken = { authorization: `Bearer ${token}` }
  gameId = set.gameId
  await gm.call('POST', `/api/v1/games/${gameId}/start`)
  publicToken = (await gm.call('GET', `/api/v1/games/${gameId}`)).json.publicToken
  const doc = (await gm.call('GET', '/api/v1/openapi.json')).json
  routes = Object.entries(doc.paths as Record<string, Record<string, { requestBody?: unknown }>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, body: op.requestBody !== undefined })))
  expect(routes.length).toBeGreaterThan(25)
})
afterAll(async () => { await t.close() })

const segment = fc.oneof(
  fc.string({ maxLength: 30 }), fc.constantFrom('1', '0', '-1', '99999999999', '1e3', 'P1', '%00', '..', '%2F', 'null'),
  fc.stringMatching(/^[A-Za-z0-9_-]{10,20}$/),
)

function fillPath(path: string, values: Record<string, string>) {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? 'x'))
}

/** Well-formed bodies of the routes, so that refusals by permission (not only by shape) are tried too. */
const wellFormed = fc.constantFrom(
  { name: 'Fuzzed game', board: 'training-floor', seats: 2 }, { name: 'Fuzzed name' }, { email: 'fuzz@example.org' }, { reason: 'fuzz' },
  { player: 'P1', reason: 'fuzz' }, { player: 'P2' }, { extendHours: 1 }, { confirm: true }, { cards: [] }, { name: 'Fuzz', colour: 'teal' },
).map((v) => ({ text: JSON.stringify(v), type: 'application/json' }))

const body = fc.oneof(
  wellFormed,
  fc.anything().map((v) => ({ text: JSON.stringify(v) ?? 'null', type: 'application/json' })),
  fc.json().map((text) => ({ text, type: 'application/json' })),
  fc.string({ maxLength: 200 }).map((text) => ({ text, type: 'application/json' })),
  fc.constantFrom('{', '{"a":', '[1,2', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '', 'null', '1e999', '"\\ud800"')
    .map((text) => ({ text, type: 'application/json' })),
  fc.string({ maxLength: 100 }).map((text) => ({ text, type: 'text/plain' })),
  fc.string({ maxLength: 100 }).map((text) => ({ text, type: 'application/x-www-form-urlencoded' })),
  fc.record({
    name: fc.anything(), email: fc.anything(), board: fc.anything(), seats: fc.anything(), cards: fc.anything(),
    boardFile: fc.anything(), reason: fc.anything(), player: fc.anything(), deadline: fc.anything(), extendHours: fc.anything(),
    colour: fc.anything(), token: fc.anything(), rebootNext: fc.anything(), facing: fc.anything(),
  }, { requiredKeys: [] }).map((v) => ({ text: JSON.stringify(v), type: 'application/json' })),
)

/** Every row of every table, hashed: equal digests mean the request changed nothing. */
function databaseDigest(): string {
  const db = t.app.services.db
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[]
  const hash = createHash('sha256')
  for (const table of tables) hash.update(table).update(JSON.stringify(db.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).raw().all()))
  return hash.digest('hex')
}

/** No answer, however asked for, is larger than this (the largest is a game with a 50×50 board). */
const MAX_RESPONSE = 1024 * 1024

async function expectNo500(method: string, url: string, headers: Record<string, string>, payload?: string) {
  const before = databaseDigest()
  const res = await t.app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) })
  const what = `${method} ${url} ${payload?.slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 300)}`
  expect(res.statusCode, what).toBeLessThan(500)
  expect(res.body.length, what).toBeLessThan(MAX_RESPONSE)
  if (res.statusCode >= 400 || method === 'GET') expect(databaseDigest(), `changed the database: ${what}`).toBe(before)
  if (res.statusCode >= 400 && url.startsWith('/api/')) {
    const json = JSON.parse(res.body) as { error: unknown; message: unknown }
    expect(typeof json.error).toBe('string')
    expect(typeof json.message).toBe('string')
    expect(res.body).not.toMatch(/\n\s+at /) // no stack traces
  }
}

describe('no request, however malformed, gets a 500', () => {
  it('random bodies to every endpoint, with real and random path values, as GM, player, outsider, nobody and a game API token', async () => {
    const real = { gameId, turn: '1', seat: '2', publicToken, token: 'x'.repeat(12) }
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: 1000 }), body, fc.boolean(), segment, fc.constantFrom(0, 1, 2, 3, 4),
      async (routeIndex, b, realPath, junk, who) => {
        const route = routes[routeIndex % routes.length]!
        const values = realPath ? real : { gameId: junk, turn: junk, seat: junk, publicToken: junk, token: junk }
        const headers: Record<string, string> = { ...[gm.headers, ann.headers, outsider.headers, {}, annToken][who], 'content-type': b.type }
        await expectNo500(route.method, fillPath(route.path, values), headers, route.method === 'GET' ? undefined : b.text)
      },
    ), { numRuns: 600 })
  })

  it('bad headers, query strings, oversized bodies and unknown routes', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }), async (auth, query) => {
      await expectNo500('GET', `/api/v1/games?${encodeURIComponent(query)}`, { authorization: auth.replace(/[\r\n]/g, '') })
      await expectNo500('GET', `/api/v1/me`, { cookie: `botwars_session=${encodeURIComponent(auth)}` })
      await expectNo500('GET', `/auth/link?token=${encodeURIComponent(query)}`, {})
      await expectNo500('GET', `/api/v1/${encodeURIComponent(query)}`, {})
    }), { numRuns: 200 })
    await expectNo500('POST', '/api/v1/games', { ...gm.headers, 'content-type': 'application/json' }, JSON.stringify({ name: 'x', seats: 2, boardFile: { rows: 3, cols: 3, elements: Array(2_000_000).fill(0) } }))
    await expectNo500('POST', '/api/v1/games', { ...gm.headers, 'content-type': 'application/json' }, JSON.stringify({ name: 'x', seats: 2, boardFile: { rows: 50, cols: 50, start: { at: 'r1c1' }, elements: Array(9000).fill({ type: 'pit', at: 'r9c9' }) } }))
    await expectNo500('POST', `/api/v1/games/${gameId}/turns/1/submission`, { ...ann.headers, 'content-type': 'application/json' }, JSON.stringify({ cards: ['FWD1:490', 'FWD1:490', 'X', 'FWD9:1', 'fwd1:500'] }))
  })

  it('every page route, read and posted with random form fields and a valid form token, as GM, player, outsider and nobody', async () => {
    const real = { gameId, turn: '1', publicToken, token: 'x'.repeat(12) }
    const gets = ['/', '/sign-in', '/games/new', '/legend', '/games/{gameId}', '/games/{gameId}/gm', '/games/{gameId}/turns/{turn}',
      '/games/{gameId}/turns/{turn}/submit', '/games/{gameId}/turns/{turn}/replay/1', '/games/{gameId}/pictures/board.svg',
      '/games/{gameId}/turns/{turn}/pictures/end.svg', '/watch/{publicToken}', '/watch/{publicToken}/turns/{turn}', '/invites/{token}',
      '/auth/link?token={token}', '/boards/training-floor.svg']
    // Signing out is left out of the posts (it would end the session the other requests use).
    const posts = PAGE_POSTS.filter((p) => p !== '/sign-out')
    const people = [gm, ann, outsider, null]
    const forms = await Promise.all(people.map((c) => formToken(t.app, c?.headers.cookie ?? '', '/sign-in')))
    const field = fc.oneof(fc.string({ maxLength: 100 }), segment, fc.constantFrom('on', 'P1', 'P2', 'FWD1:490', '<script>', 'ann@example.org', '/中文', '1e999'))
    const form = fc.dictionary(fc.constantFrom('email', 'name', 'colour', 'reason', 'hours', 'player', 'seat', 'confirm', 'next', 'r1', 'r2', 'r3', 'r4', 'r5', 'token', 'boardChoice', 'seats', 'everywhere'), field)
    await fc.assert(fc.asyncProperty(
      fc.constantFrom(...gets), fc.constantFrom(...posts), fc.boolean(), fc.boolean(), segment, form, fc.constantFrom(0, 1, 2, 3),
      async (get, post, posting, realPath, junk, fields, who) => {
        const values = realPath ? real : { gameId: junk, turn: junk, publicToken: junk, token: junk }
        const { token, cookie } = forms[who]!
        if (!posting) return expectNo500('GET', fillPath(get, values), { cookie, accept: 'text/html' })
        const payload = new URLSearchParams({ ...fields, _csrf: token }).toString()
        return expectNo500('POST', fillPath(post, values), { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload)
      },
    ), { numRuns: 400 })
  })
})
