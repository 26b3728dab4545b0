// The standings page of a series (issue 15), in Chromium: a GM signs in, starts a series of bots
// through the API, the clockwork plays it out, and the page shows the standings and each game.
// Then its GM stops a series from the page: the form asks for the tick, then the game in progress
// is abandoned (its game-over mail goes out) and the page shows the series stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { hasChromium, startStack, type Stack } from '../browser/harness.js'

const GM = 'gemma@example.org'
const go = (page: Page, action: () => Promise<unknown>) => Promise.all([page.waitForEvent('load'), action()])
const text = async (page: Page, selector: string) => (await page.locator(selector).innerText()).replace(/\s+/g, ' ').trim()

async function signedIn(stack: Stack, email: string): Promise<Page> {
  const page = await (await stack.context({})).newPage()
  await page.goto(`${stack.origin}/`)
  await page.locator('#email').fill(email)
  await go(page, () => page.getByRole('button', { name: 'Mail me a sign-in link' }).click())
  await page.goto(await stack.mailLink(email, /sign-in link/))
  await go(page, () => page.getByRole('button', { name: 'Sign in' }).click())
  return page
}

describe.skipIf(!hasChromium)('the series standings page in Chromium', () => {
  let stack: Stack
  beforeAll(async () => { stack = await startStack() })
  afterAll(async () => { await stack?.close() })

  it('shows the standings and the games of a finished series', { timeout: 120_000 }, async () => {
    const page = await signedIn(stack, GM)

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

  it('lets its GM stop a series from the page, with a tick to confirm, and shows it stopped with the standings so far', { timeout: 120_000 }, async () => {
    const page = await signedIn(stack, 'stella@example.org')
    const created = await page.request.post(`${stack.origin}/api/v1/series`, {
      data: { name: 'Spring cup', boards: ['training-floor', 'the-foundry', 'training-floor'], seats: ['gm', 'greedy', 'random'] },
    })
    expect(created.status()).toBe(201)
    const id = (await created.json()).id as string
    // Game 1 ends with placings; the clockwork starts game 2, which the stop will abandon.
    const first = (await created.json()).games[0].gameId as string
    expect((await page.request.post(`${stack.origin}/api/v1/games/${first}/end`, { data: { reason: 'enough' } })).status()).toBe(200)
    expect(stack.app.advanceSeries()).toBe(1)

    await page.goto(`${stack.origin}/series/${id}`)
    const form = page.locator('form[action$="/stop"]')
    await form.getByLabel('Now:').check()
    await form.getByLabel(/^Reason/).fill('the boards are being redrawn')
    // The question app.js asks first is answered yes; the tick is still needed.
    page.on('dialog', (dialog) => { void dialog.accept() })
    await go(page, () => form.getByRole('button', { name: 'Stop the series' }).click())
    expect(await text(page, '#error-summary')).toContain('Tick the box to confirm')
    expect(stack.app.services.bots.series(id)!.status).toBe('running')
    await stack.shot(page, 'desktop-series-stop-refused')

    await page.getByLabel('Yes, stop this series for good').check()
    await go(page, () => page.locator('form[action$="/stop"]').getByRole('button', { name: 'Stop the series' }).click())
    expect(await text(page, '#done')).toContain('The series is stopped')
    expect(await text(page, '.page-head .badge')).toBe('stopped')
    expect(await text(page, 'main')).toContain('Reason: the boards are being redrawn')
    expect(await page.locator('form[action$="/stop"]').count()).toBe(0)
    const games = await page.locator('table:not(.standings) tbody tr').allInnerTexts()
    expect(games.map((r) => r.split('\t')[2])).toEqual(['finished', 'abandoned'])
    const standings = await page.locator('table.standings tbody tr').allInnerTexts()
    expect(standings.every((r) => r.split('\t')[2] === '1')).toBe(true)
    await stack.shot(page, 'desktop-series-stopped')
    // The abandon path's mail reached the GM, who plays in game 2, through the real SMTP server.
    const second = stack.app.services.bots.seriesGames(id)[1]!.game_id
    expect(await stack.mailLink('stella@example.org', /game over/)).toContain(`/games/${second}`)
  })
})
