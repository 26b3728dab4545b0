// The standings page of a series (issue 15), in Chromium: a GM signs in, starts a series of bots
// through the API, the clockwork plays it out, and the page shows the standings and each game.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { hasChromium, startStack, type Stack } from '../browser/harness.js'

const GM = 'gemma@example.org'
const go = (page: Page, action: () => Promise<unknown>) => Promise.all([page.waitForEvent('load'), action()])
const text = async (page: Page, selector: string) => (await page.locator(selector).innerText()).replace(/\s+/g, ' ').trim()

describe.skipIf(!hasChromium)('the series standings page in Chromium', () => {
  let stack: Stack
  beforeAll(async () => { stack = await startStack() })
  afterAll(async () => { await stack?.close() })

  it('shows the standings and the games of a finished series', { timeout: 120_000 }, async () => {
    const page = await (await stack.context({})).newPage()
    await page.goto(`${stack.origin}/`)
    await page.locator('#email').fill(GM)
    await go(page, () => page.getByRole('button', { name: 'Mail me a sign-in link' }).click())
    await page.goto(await stack.mailLink(GM, /sign-in link/))
    await go(page, () => page.getByRole('button', { name: 'Sign in' }).click())

    const created = await page.request.post(`${stack.origin}/api/v1/series`, {
      data: { name: 'Winter cup', boards: ['training-floor', 'the-foundry'], seats: ['strong', 'greedy', 'random'] },
    })
    expect(created.status()).toBe(201)
    const id = (await created.json()).id as string
    for (let tick = 0; tick < 400 && stack.app.services.bots.series(id)!.status === 'running'; tick++) {
      stack.clock.now += 3600_000
      stack.app.runDueWork()
      stack.app.advanceSeries()
    }
    await page.goto(`${stack.origin}/series/${id}`)
    await stack.shot(page, 'desktop-series-standings')
    expect(await text(page, 'h1')).toBe('Winter cup')
    expect(await text(page, 'main')).toContain('2 of 2 games started')
    const rows = await page.locator('table.standings tbody tr').allInnerTexts()
    expect(rows).toHaveLength(3)
    expect(rows.map((r) => r.split('\t')[1]).sort()).toEqual(['Bot (greedy)', 'Bot (random)', 'Bot (strong)'])
    expect(rows.every((r) => r.split('\t')[2] === '2')).toBe(true)

    // Signed out, it asks for a sign-in; signed in as someone else, it refuses. Never the standings.
    const other = await (await stack.context({})).newPage()
    await other.goto(`${stack.origin}/series/${id}`)
    expect(await text(other, 'main')).not.toContain('Winter cup')
    await other.locator('#email').fill('eve@example.org')
    await go(other, () => other.getByRole('button', { name: 'Mail me a sign-in link' }).click())
    await other.goto(await stack.mailLink('eve@example.org', /sign-in link/))
    await go(other, () => other.getByRole('button', { name: 'Sign in' }).click())
    const refused = await other.goto(`${stack.origin}/series/${id}`)
    expect(refused?.status()).toBe(403)
    expect(await text(other, 'main')).not.toContain('Bot (strong)')
  })
})
