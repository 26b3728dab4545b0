// Every page asked Chromium for /favicon.ico and got a 404: a console error on each page a newcomer
// opened (found following the README), and a 404 in the server's log for every page view. The pages
// now name their icon, so the browser asks for that instead, and it is there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, startStack, type Stack } from './harness.js'

describe.skipIf(!hasChromium)('the site icon in Chromium', () => {
  let stack: Stack
  beforeAll(async () => { stack = await startStack() })
  afterAll(async () => { await stack?.close() })

  it('a page loads with no failed request and no console error', { timeout: 60_000 }, async () => {
    const context = await stack.context({})
    const page = await context.newPage()
    const failed: string[] = []
    page.on('response', (response) => { if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`) })
    page.on('console', (message) => { if (message.type() === 'error') failed.push(message.text()) })
    await page.goto(`${stack.origin}/`)
    expect(await page.locator('link[rel=icon]').count()).toBe(1)
    const icon = await page.locator('link[rel=icon]').getAttribute('href')
    const response = await page.request.get(`${stack.origin}${icon}`)
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toBe('image/svg+xml')
    // The icon is fetched after load; a reload waits for it from the cache or the server.
    await page.reload({ waitUntil: 'networkidle' })
    expect(failed).toEqual([])
  })
})
