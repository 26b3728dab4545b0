// Bad input: fast-check sends random and malformed bodies, paths and headers to every endpoint
// of the OpenAPI document (and the sign-in link); nothing answers 500 and every refusal is the
// JSON error shape.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLAYERS, setUpGame, testApp, type Client, type TestApp } from './helpers.js'

let t: TestApp
let gm: Client, ann: Client
let gameId: string, publicToken: string
let routes: { method: string; path: string; body: boolean }[]

beforeAll(async () => {
  t = await testApp()
  const set = await setUpGame(t.app, PLAYERS.slice(0, 2))
  gm = set.gm
  ann = set.players[0]!
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

const body = fc.oneof(
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

async function expectNo500(method: string, url: string, headers: Record<string, string>, payload?: string) {
  const res = await t.app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) })
  expect(res.statusCode, `${method} ${url} ${payload?.slice(0, 200)} → ${res.body.slice(0, 300)}`).toBeLessThan(500)
  if (res.statusCode >= 400 && url.startsWith('/api/')) {
    const json = JSON.parse(res.body) as { error: unknown; message: unknown }
    expect(typeof json.error).toBe('string')
    expect(typeof json.message).toBe('string')
    expect(res.body).not.toMatch(/\n\s+at /) // no stack traces
  }
}

describe('no request, however malformed, gets a 500', () => {
  it('random bodies to every endpoint, with real and random path values, as GM, player and nobody', async () => {
    const real = { gameId, turn: '1', seat: '2', publicToken, token: 'x'.repeat(12) }
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: 1000 }), body, fc.boolean(), segment, fc.constantFrom(0, 1, 2),
      async (routeIndex, b, realPath, junk, who) => {
        const route = routes[routeIndex % routes.length]!
        const values = realPath ? real : { gameId: junk, turn: junk, seat: junk, publicToken: junk, token: junk }
        const headers: Record<string, string> = { ...[gm.headers, ann.headers, {}][who], 'content-type': b.type }
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
})
