// Cross-site form posts. A page on another site can make the browser post a form, with the
// session cookie (SameSite=Lax keeps it off cross-site POSTs in current browsers; these tests
// assume the worst and send it anyway), but it cannot read this site's form token nor carry its
// SameSite=Strict form cookie. Such posts are refused (403) and change nothing; the JSON API takes
// only JSON, which a cross-site form cannot send.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { client, lastMailTo, linksIn, openSignInLink, testApp, type TestApp } from '../server/helpers.js'
import { formToken, twoGames } from './setup.js'

let t: TestApp
let s: Awaited<ReturnType<typeof twoGames>>
beforeAll(async () => {
  t = await testApp()
  s = await twoGames(t.app)
})
afterAll(async () => { await t.close() })

const pause = (cookie: string, fields: Record<string, string>) => t.app.inject({
  method: 'POST', url: `/games/${s.gameId}/gm/pause`,
  headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', referer: 'https://evil.example/page' },
  payload: new URLSearchParams(fields).toString(),
})
const status = async () => (await s.gm.call('GET', `/api/v1/games/${s.gameId}`)).json.status as string

it("refuses a GM form post without this site's form token and cookie, and nothing changes", async () => {
  const session = s.gm.headers.cookie!
  const attacker = await formToken(t.app, s.outsider.headers.cookie!) // the attacker's own, valid token and cookie
  const own = await formToken(t.app, session)
  for (const [what, cookie, fields] of [
    ['no token, no form cookie', session, { reason: 'csrf' }],
    ['a made-up token', session, { reason: 'csrf', _csrf: 'A'.repeat(40) }],
    ["the attacker's token, no form cookie", session, { reason: 'csrf', _csrf: attacker.token }],
    ["the victim's form cookie but the attacker's token", own.cookie, { reason: 'csrf', _csrf: attacker.token }],
    ['the form cookie but no token', own.cookie, { reason: 'csrf' }],
  ] as const) {
    const res = await pause(cookie, fields)
    expect(res.statusCode, what).toBe(403)
    expect(await status(), what).toBe('running')
  }
  // The same post from this site's own form works: the check is what refused the others.
  const ok = await pause(own.cookie, { reason: 'from our own form', _csrf: own.token })
  expect(ok.statusCode).toBe(303)
  expect(await status()).toBe('paused')
})

it('gives cookies the attributes that keep them from other sites and scripts', async () => {
  const page = await t.app.inject({ method: 'GET', url: '/sign-in' })
  const csrf = page.cookies.find((c) => c.name === 'botwars_csrf')!
  expect(csrf).toMatchObject({ httpOnly: true, sameSite: 'Strict' })
  expect((await t.app.inject({ method: 'GET', url: '/auth/link?token=' + 'A'.repeat(32) })).cookies.find((c) => c.name === 'botwars_session')).toBeUndefined()
  await client(t.app, 'cookie@example.org').call('POST', '/api/v1/auth/login', { email: 'cookie@example.org' })
  const link = linksIn(lastMailTo(t.app, 'cookie@example.org', 'sign-in')!.body)[0]!.replace('http://botwars.test', '')
  const session = (await openSignInLink(t.app, link)).cookies.find((c) => c.name === 'botwars_session')!
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })
  const helmet = page.headers
  expect(helmet['x-frame-options'] ?? helmet['content-security-policy']).toBeTruthy()
})

it('takes only JSON in the API, so a cross-site form cannot submit a program', async () => {
  const url = `/api/v1/games/${s.gameId}/turns/${s.turn}/submission`
  // A text/plain form can carry a JSON-looking body ({"cards":[],"x":"=…"}): it stays a string and is refused.
  for (const [type, payload] of [['application/x-www-form-urlencoded', 'cards=FWD1:490'], ['text/plain', '{"cards":[],"x":"="}'], ['multipart/form-data; boundary=x', '--x--']]) {
    const res = await t.app.inject({ method: 'POST', url, headers: { cookie: s.ann.headers.cookie!, 'content-type': type!, origin: 'https://evil.example' }, payload })
    expect([400, 415], `${type}: ${res.statusCode}`).toContain(res.statusCode)
  }
  expect((await s.ann.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).json.me.submission).toBeNull()
})
