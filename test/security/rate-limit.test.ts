// Too many sign-in requests: the JSON API and the sign-in page each take 20 a minute from one
// address (429 after), other addresses are not affected, and the allowance comes back after a minute.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { testApp, type TestApp } from '../server/helpers.js'
import { formToken } from './setup.js'

let t: TestApp
beforeAll(async () => { t = await testApp({ loginRateLimit: undefined }) })
afterAll(async () => { await t.close() })

const login = (address: string, email = 'flood@example.org') => t.app.inject({
  method: 'POST', url: '/api/v1/auth/login', remoteAddress: address, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email }),
})

it('limits sign-in link requests in the API to 20 a minute per address', async () => {
  const codes: number[] = []
  for (let i = 0; i < 30; i++) codes.push((await login('10.0.0.1', `flood${i}@example.org`)).statusCode)
  expect(codes.slice(0, 20).every((c) => c === 202)).toBe(true)
  expect(codes.slice(20).every((c) => c === 429)).toBe(true)
  expect((await login('10.0.0.2')).statusCode).toBe(202)
  const mails = t.app.services.outbox.all().filter((m) => m.kind === 'sign-in' && m.recipient.startsWith('flood'))
  expect(mails).toHaveLength(21)
})

it('limits the sign-in page to 20 a minute per address', async () => {
  const { token, cookie } = await formToken(t.app, '', '/sign-in')
  const codes: number[] = []
  for (let i = 0; i < 25; i++) {
    const res = await t.app.inject({ method: 'POST', url: '/sign-in', remoteAddress: '10.0.1.1', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: token, email: `page${i}@example.org` }).toString() })
    codes.push(res.statusCode)
  }
  expect(codes.slice(0, 20).every((c) => c === 200)).toBe(true)
  expect(codes.slice(20).every((c) => c === 429)).toBe(true)
})
