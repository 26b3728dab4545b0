// Wrong and expired sign-in links and tokens: unknown, used and expired links; forged, tampered,
// expired and signed-out session cookies; unknown, malformed, revoked and replaced API tokens, and
// a token used on another game; unknown and used invitations. Each is refused and opens nothing.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { client, HOUR, DAY, inviteToken, lastMailTo, linksIn, openSignInLink, signIn, testApp, type TestApp } from '../server/helpers.js'
import { twoGames } from './setup.js'

let t: TestApp
let s: Awaited<ReturnType<typeof twoGames>>
beforeAll(async () => {
  t = await testApp()
  s = await twoGames(t.app)
})
afterAll(async () => { await t.close() })

async function askLink(email: string): Promise<string> {
  expect((await client(t.app, email).call('POST', '/api/v1/auth/login', { email })).status).toBe(202)
  return linksIn(lastMailTo(t.app, email, 'sign-in')!.body)[0]!.replace('http://botwars.test', '')
}
const sessionCookie = (res: { cookies: { name: string; value: string }[] }) => res.cookies.find((c) => c.name === 'botwars_session' && c.value)

it('refuses an unknown sign-in link, on the page and in the API, and sets no session', async () => {
  for (const token of ['A'.repeat(32), 'short', '<script>', '../../etc/passwd']) {
    const page = await t.app.inject({ method: 'GET', url: `/auth/link?token=${encodeURIComponent(token)}` })
    expect(page.statusCode).toBe(400)
    expect(sessionCookie(page)).toBeUndefined()
    expect((await client(t.app, 'x@example.org').call('POST', '/api/v1/auth/link', { token })).status).toBe(400)
  }
})

it('lets a link be used once only', async () => {
  const link = await askLink('once@example.org')
  expect((await openSignInLink(t.app, link)).statusCode).toBe(303)
  const again = await t.app.inject({ method: 'GET', url: link })
  expect(again.statusCode).toBe(400)
  expect(sessionCookie(again)).toBeUndefined()
})

it('refuses a link after 30 minutes', async () => {
  const fresh = await askLink('late@example.org')
  const stale = await askLink('late2@example.org')
  const pressedLate = await askLink('late3@example.org')
  t.clock.now += 29 * 60_000
  expect((await openSignInLink(t.app, fresh)).statusCode).toBe(303)
  const confirm = await t.app.inject({ method: 'GET', url: pressedLate })
  expect(confirm.statusCode).toBe(200)
  t.clock.now += 2 * 60_000
  expect((await t.app.inject({ method: 'GET', url: stale })).statusCode).toBe(400)
  // The confirmation page was shown in time, but the button is pressed after the 30 minutes.
  const token = /name="token" value="([^"]+)"/.exec(confirm.body)![1]!
  const csrf = /name="_csrf" value="([^"]+)"/.exec(confirm.body)![1]!
  const csrfCookie = confirm.cookies.find((c) => c.name === 'botwars_csrf')!
  const late = await t.app.inject({
    method: 'POST', url: '/auth/link', payload: new URLSearchParams({ _csrf: csrf, token }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `botwars_csrf=${csrfCookie.value}` },
  })
  expect(late.statusCode).toBe(400)
  expect(late.cookies.find((c) => c.name === 'botwars_session')).toBeUndefined()
})

it('treats forged, tampered, expired and signed-out sessions as signed out', async () => {
  const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } })
  const good = s.ann.headers.cookie!
  expect((await me(good)).statusCode).toBe(200)
  const value = good.split('=').slice(1).join('=')
  const [id, sig] = [value.slice(0, value.lastIndexOf('.')), value.slice(value.lastIndexOf('.') + 1)]
  expect((await me(`botwars_session=${id}`)).statusCode).toBe(401) // unsigned
  expect((await me(`botwars_session=${id}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`)).statusCode).toBe(401) // tampered signature
  expect((await me(`botwars_session=${'x'.repeat(32)}.${sig}`)).statusCode).toBe(401) // another id, old signature
  // A GET page with a bad cookie sends to sign-in instead of showing anything.
  const page = await t.app.inject({ method: 'GET', url: `/games/${s.gameId}`, headers: { cookie: `botwars_session=${id}.${sig}x` } })
  expect([303, 404]).toContain(page.statusCode)

  const leaving = await signIn(t.app, 'leaving@example.org')
  expect((await leaving.call('POST', '/api/v1/auth/logout')).status).toBe(200)
  expect((await me(leaving.headers.cookie!)).statusCode).toBe(401)

  const old = await signIn(t.app, 'old@example.org')
  t.clock.now += 91 * DAY
  expect((await me(old.headers.cookie!)).statusCode).toBe(401)
  t.clock.now -= 91 * DAY
})

it('refuses unknown, malformed, revoked and replaced API tokens, and a token on another game', async () => {
  const bearer = (token: string, url = `/api/v1/games/${s.gameId}`) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })
  expect((await bearer('A'.repeat(32))).statusCode).toBe(401)
  for (const header of ['Bearer', 'Bearer ', 'Basic YWxhZGRpbjpvcGVuc2VzYW1l', 'Bearer a b', `Bearer ${'x'.repeat(500)}`]) {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: header } })
    expect(res.statusCode, header).toBe(401)
  }
  const first = (await s.ann.call('POST', `/api/v1/games/${s.gameId}/api-token`)).json.token as string
  expect((await bearer(first)).statusCode).toBe(200)
  expect((await bearer(first, `/api/v1/games/${s.otherGameId}`)).statusCode).toBe(404)
  const second = (await s.ann.call('POST', `/api/v1/games/${s.gameId}/api-token`)).json.token as string
  expect((await bearer(first)).statusCode).toBe(401) // replaced
  expect((await bearer(second)).statusCode).toBe(200)
  expect((await s.ann.call('DELETE', `/api/v1/games/${s.gameId}/api-token`)).status).toBe(200)
  expect((await bearer(second)).statusCode).toBe(401) // revoked
})

it('refuses unknown and used invitations', async () => {
  const unknown = await s.outsider.call('POST', `/api/v1/invites/${'B'.repeat(32)}/join`, { name: 'Eve', colour: 'pink' })
  expect(unknown.status).toBe(404)
  const invited = await s.otherGm.call('POST', `/api/v1/games/${s.otherGameId}/invites`, { email: 'zed@example.org' })
  expect(invited.status).toBe(201)
  const token = inviteToken(t.app, 'zed@example.org')
  const zed = await signIn(t.app, 'zed@example.org')
  expect((await zed.call('POST', `/api/v1/invites/${token}/join`, { name: 'Zed', colour: 'pink' })).status).toBe(200)
  expect((await s.outsider.call('POST', `/api/v1/invites/${token}/join`, { name: 'Eve', colour: 'teal' })).status).toBe(404)
  t.clock.now += HOUR
})
