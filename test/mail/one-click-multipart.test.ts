// Found by a hostile review: the one-click POST of RFC 8058's preferred form answered 415.
// RFC 8058 §3.1: "The POST content SHOULD be sent as multipart/form-data and MAY instead be sent as
// application/x-www-form-urlencoded". A mail client that follows the SHOULD must be able to unsubscribe.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { unsubscribePath, preferencesRepository } from '../../src/server/mail/preferences.js'
import { testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

it('one-click unsubscribe works with a multipart/form-data POST (RFC 8058 SHOULD)', async () => {
  const prefs = preferencesRepository(t.app.services.db)
  const url = unsubscribePath(prefs, 'cid@example.org')
  const boundary = '----rfc8058boundary'
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`
  const res = await t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })
  expect(res.statusCode).toBe(200)
  expect(prefs.modeOf('cid@example.org')).toBe('none')
})
