// Behind a reverse proxy every request comes from the proxy. With TRUST_PROXY naming it, the limits
// per address of origin (here the sign-in limit, 20 a minute) count each client apart; without it,
// X-Forwarded-For is not believed, so nobody can pose as another address. Found by a hostile review:
// there was no way to set it, and behind the proxy the README recommends everyone shared one limit.
import { afterEach, expect, it } from 'vitest'
import { testApp, type TestApp } from '../server/helpers.js'

let t: TestApp | undefined
afterEach(async () => { await t?.close(); t = undefined })

/** `count` sign-in requests from the proxy at 127.0.0.1, each for another person at another address. */
async function refusedOf(app: TestApp['app'], count: number) {
  let refused = 0
  for (let i = 1; i <= count; i++) {
    const res = await app.inject({
      method: 'POST', url: '/api/v1/auth/login', remoteAddress: '127.0.0.1',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i}` }, payload: { email: `player${i}@example.org` },
    })
    if (res.statusCode === 429) refused++
  }
  return refused
}

it('counts each client apart when the proxy in front is trusted', async () => {
  t = await testApp({ loginRateLimit: 20, trustProxy: ['127.0.0.1'] })
  expect(await refusedOf(t.app, 21)).toBe(0)
})

it('believes no X-Forwarded-For by default: everyone behind one proxy shares its limit', async () => {
  t = await testApp({ loginRateLimit: 20 })
  expect(await refusedOf(t.app, 21)).toBe(1)
})
