// Form input that once answered 500 (found by a hostile review): a field sent twice arrives as a
// list (@fastify/formbody) and page routes also take JSON, so the sign-in email and the start
// form's reason may be no string; and a signed-out form post's Referer may be no URL. Each is
// refused naming the field, or sent to sign in, never a 500.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { formToken } from './setup.js'
import { PLAYERS, setUpGame, testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })


it('a signed-out form post with an odd Referer is sent to sign in, never a 500', async () => {
  const { token, cookie } = await formToken(t.app, '', '/sign-in')
  for (const referer of ['not a url', '/games/x', '']) {
    const res = await t.app.inject({
      method: 'POST', url: '/games/abc/gm/publish',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', referer },
      payload: new URLSearchParams({ _csrf: token, reason: '' }).toString(),
    })
    expect(res.statusCode, `referer ${JSON.stringify(referer)}: ${res.body.slice(0, 200)}`).toBeLessThan(500)
  }
})


it('a sign-in form with the email field twice is refused naming the field, never a 500', async () => {
  const { token, cookie } = await formToken(t.app, '', '/sign-in')
  const res = await t.app.inject({
    method: 'POST', url: '/sign-in',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `_csrf=${encodeURIComponent(token)}&email=ann%40example.org&email=bob%40example.org`,
  })
  expect(res.statusCode, res.body.slice(0, 300)).toBe(400)
  expect(res.body).toMatch(/Enter an email address/)
})

it('a sign-in form posted as JSON with a non-string email is refused naming the field, never a 500', async () => {
  const { token, cookie } = await formToken(t.app, '', '/sign-in')
  for (const email of [['ann@example.org'], 5, { a: 1 }]) {
    const res = await t.app.inject({
      method: 'POST', url: '/sign-in', headers: { cookie, 'content-type': 'application/json' }, payload: JSON.stringify({ _csrf: token, email }),
    })
    expect(res.statusCode, `${JSON.stringify(email)}: ${res.body.slice(0, 200)}`).toBe(400)
  }
})


for (const [what, reason] of [
  ['a reason over 500 characters', `reason=${'x'.repeat(501)}`],
  ['the reason field twice', 'reason=a&reason=b'],
] as const) {
  it(`the start form with ${what} is refused naming the reason and the game stays in setup, never a 500`, async () => {
    const { gm, gameId } = await setUpGame(t.app, PLAYERS.slice(0, 2).map((p) => ({ ...p, email: `${what.length}-${p.email}` })))
    const { token, cookie } = await formToken(t.app, gm.headers.cookie!, `/games/${gameId}`)
    const res = await t.app.inject({
      method: 'POST', url: `/games/${gameId}/start`,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(token)}&${reason}`,
    })
    expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500)
    expect(res.body).toMatch(/reason/i)
  })
}
