// A refused mail settings form shows what the person sent, not what is stored. Ann takes a daily
// digest; then a tampered form (a mode that is not one of the three, or the field twice) is
// refused: the page comes back with the error first (focused on load, the title saying so), her
// setting unchanged and said in words, and no choice ticked, as none of the three was what she
// sent. Before, the stored "daily digest" came back ticked, as if that were what she had chosen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { preferencesRepository } from '../../src/server/mail/preferences.js'
import { browser, csrfOf, type Browser } from '../pages/helpers.js'
import { signIn, testApp, type TestApp } from '../server/helpers.js'

const ANN = 'ann@example.org'
const PAGE = '/settings/mail'

let t: TestApp
let b: Browser
beforeAll(async () => {
  t = await testApp()
  b = browser(t.app, await signIn(t.app, ANN, 'Ann'))
  const saved = await b.submit(PAGE, PAGE, { mode: 'digest' })
  expect(saved.status).toBe(200)
  expect(preferencesRepository(t.app.services.db).modeOf(ANN)).toBe('digest')
})
afterAll(async () => { await t.close() })

const checked = (html: string) => [...html.matchAll(/<input type="radio" id="mode-(\w+)"[^>]*?( checked)?>/g)].filter((m) => m[2]).map((m) => m[1])

/** What a refused form must show: the error first, her setting in words, and nothing ticked that she did not send. */
function expectRefused(res: { status: number; body: string }) {
  expect(res.status).toBe(400)
  expect(res.body).toMatch(/<title>Error: Mail settings/)
  expect(res.body).toMatch(/id="error-summary"[^>]*data-focus-on-load/)
  expect(res.body).toContain('<a href="#mode">Choose one of the three.</a>')
  expect(checked(res.body)).toEqual([])
  expect(res.body).toMatch(/unchanged[^<]*<strong>One digest of my games a day<\/strong>/)
  expect(preferencesRepository(t.app.services.db).modeOf(ANN)).toBe('digest')
}

describe('a refused mail settings form', () => {
  it('shows a mode that is not one of the three as no choice, not the stored one', async () => {
    expectRefused(await b.submit(PAGE, PAGE, { mode: 'weekly' }))
  })

  it('shows the field sent twice as no choice either', async () => {
    const token = csrfOf((await b.get(PAGE)).body)
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ')
    const res = await t.app.inject({
      method: 'POST', url: PAGE, payload: `_csrf=${encodeURIComponent(token)}&mode=none&mode=every`,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    })
    expectRefused({ status: res.statusCode, body: res.body })
  })

  it('comes back as it was shown once a valid choice is saved', async () => {
    const saved = await b.submit(PAGE, PAGE, { mode: 'every' })
    expect([saved.status, checked(saved.body)]).toEqual([200, ['every']])
    expect(saved.body).not.toContain('error-summary')
  })
})
