// Malformed and oversized bodies on every route: every JSON API route of the OpenAPI document and
// every form post of the pages gets random JSON, random text, wrong content types and prototype
// pollution attempts (fast-check); nothing answers 5xx, API refusals keep the JSON error shape, and
// a body over 1 MiB is refused with 413 before any handler runs.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BODY_LIMIT } from '../../src/server/app.js'
import { testApp, type TestApp } from '../server/helpers.js'
import { apiRoutes, fill, formToken, PAGE_POSTS, twoGames, type ApiRoute } from './setup.js'

let t: TestApp
let s: Awaited<ReturnType<typeof twoGames>>
let routes: ApiRoute[]
let values: Record<string, string>

beforeAll(async () => {
  t = await testApp()
  s = await twoGames(t.app)
  routes = await apiRoutes(s.gm)
  values = { gameId: s.gameId, turn: String(s.turn), seat: '1', token: 'x'.repeat(32), publicToken: s.publicToken }
})
afterAll(async () => { await t.close() })

const hostileJson = fc.oneof(
  fc.anything().map((v) => JSON.stringify(v) ?? 'null'),
  fc.json(),
  fc.string({ maxLength: 300 }),
  fc.constantFrom('{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}', '{"cards":["FWD1:490","FWD1:490","FWD1:490","FWD1:490","FWD1:490"]}',
    '{"name":"' + 'a'.repeat(5000) + '"}', '[' + '['.repeat(2000) + ']'.repeat(2000) + ']', '{"seats":1e309}', '\u0000', ''),
)
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x')

describe('JSON API', () => {
  it('answers every route with random bodies without a 5xx', async () => {
    const withBody = routes.filter((r) => r.method !== 'GET')
    expect(withBody.length).toBeGreaterThan(15)
    await fc.assert(fc.asyncProperty(fc.constantFrom(...withBody), hostileJson, contentType, async (route, body, type) => {
      const res = await t.app.inject({ method: route.method as 'POST', url: fill(route.path, values), headers: { cookie: s.ann.headers.cookie!, 'content-type': type }, payload: body })
      expect(res.statusCode, `${route.method} ${route.path} ${type} ${body.slice(0, 80)}`).toBeLessThan(500)
      if (res.statusCode >= 400) expect(JSON.parse(res.body)).toMatchObject({ error: expect.any(String), message: expect.any(String) })
    }), { numRuns: 400 })
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
  })

  it('refuses a body over 1 MiB with 413 on every route that takes one', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(BODY_LIMIT) })
    for (const route of routes.filter((r) => r.method !== 'GET')) {
      const res = await t.app.inject({ method: route.method as 'POST', url: fill(route.path, values), headers: { cookie: s.gm.headers.cookie!, 'content-type': 'application/json' }, payload: big })
      expect(res.statusCode, `${route.method} ${route.path}`).toBe(413)
    }
  })
})

describe('web page forms', () => {
  it('answers every form post with random fields without a 5xx', async () => {
    const { token, cookie } = await formToken(t.app, s.gm.headers.cookie!)
    const field = fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('<script>alert(1)</script>', '../../etc/passwd', '%00', '-1', '1e999', 'P9', 'FWD9:999'))
    const form = fc.dictionary(fc.constantFrom('email', 'name', 'colour', 'reason', 'hours', 'player', 'board', 'seats', 'card1', 'card2', 'card3', 'card4', 'card5', 'rebootNext', '__proto__', 'next'), field)
    const statuses = new Map<number, number>()
    // Signing out is left out here (it would end the session the other posts use); it is in the 413 test below.
    await fc.assert(fc.asyncProperty(fc.constantFrom(...PAGE_POSTS.filter((p) => p !== '/sign-out')), form, async (path, fields) => {
      const payload = new URLSearchParams({ ...fields, _csrf: token }).toString()
      const res = await t.app.inject({ method: 'POST', url: fill(path, values), headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload })
      expect(res.statusCode, `${path} ${payload.slice(0, 120)}`).toBeLessThan(500)
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
    }), { numRuns: 300 })
    // The posts got past the form token to the handlers (not all refused at the door).
    expect([...statuses.entries()].filter(([code]) => code !== 403).reduce((a, [, n]) => a + n, 0)).toBeGreaterThan(150)
  })

  it('refuses a form over 1 MiB with 413 on every form post', async () => {
    const { token, cookie } = await formToken(t.app, s.gm.headers.cookie!)
    const payload = `_csrf=${encodeURIComponent(token)}&reason=${'x'.repeat(BODY_LIMIT)}`
    for (const path of PAGE_POSTS) {
      // From an address of its own: the fuzzing above used up this address's sign-in allowance (429 comes first).
      const res = await t.app.inject({ method: 'POST', url: fill(path, values), remoteAddress: '10.9.9.9', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload })
      expect(res.statusCode, path).toBe(413)
    }
  })
})
