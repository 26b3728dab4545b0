// A board's size is said one way everywhere: rows × columns, as squares are named (r16c24) and as
// boards/README.md and `botwars board check` give it. Found following the README: the gallery said
// Grand Factory was "24 × 16 squares" where the README and the command line said 16×24.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { signIn, testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

it('the new-game gallery and the practice form give Grand Factory as 16 rows × 24 columns', async () => {
  const gm = await signIn(t.app, 'sizes@example.org', 'Sam')
  for (const url of ['/games/new', '/']) {
    const page = await t.app.inject({ method: 'GET', url, headers: { cookie: gm.headers.cookie! } })
    expect(page.statusCode).toBe(200)
    expect(page.body, url).toMatch(/Grand Factory[\s\S]{0,200}?16 rows × 24 columns/)
    expect(page.body, url).not.toContain('24 × 16')
  }
})
