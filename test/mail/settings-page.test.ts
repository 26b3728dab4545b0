// The mail settings page and the unsubscribe page in Chromium, as a person uses them: sign in
// by the mailed link, choose a daily digest; then open a mail's unsubscribe link (it only asks)
// and press the button. A tampered form comes back refused with the error focused and nothing
// ticked she did not send. Screenshots in artifacts/screenshots/ (looked at).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { preferencesRepository, unsubscribePath } from '../../src/server/mail/preferences.js'
import { hasChromium, startStack, type Stack } from '../browser/harness.js'
import { go, signIn } from '../browser/steps.js'

const ANN = 'ann@example.org'

describe.skipIf(!hasChromium)('mail settings in Chromium', () => {
  let stack: Stack
  beforeAll(async () => { stack = await startStack() })
  afterAll(async () => { await stack?.close() })

  it('sets a daily digest on the settings page, and stops mail from the unsubscribe link', { timeout: 120_000 }, async () => {
    const page = await (await stack.context({ phone: true, javaScript: false })).newPage()
    await page.goto(`${stack.origin}/settings/mail`)
    await page.locator('#email').fill(ANN)
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Mail me a sign-in link' }).click()])
    await page.goto(await stack.mailLink(ANN, /sign-in link/))
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Sign in' }).click()])
    expect(page.url()).toContain('/settings/mail')
    expect(await page.locator('#mode-every').isChecked()).toBe(true)
    await page.locator('label[for="mode-digest"]').click()
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Save' }).click()])
    expect(await page.locator('[role="status"]').innerText()).toContain('Saved.')
    expect(await page.locator('#mode-digest').isChecked()).toBe(true)
    await stack.shot(page, 'mail-settings')
    const prefs = preferencesRepository(stack.app.services.db)
    expect(prefs.modeOf(ANN)).toBe('digest')

    await page.goto(`${stack.origin}${unsubscribePath(prefs, ANN)}`)
    expect(await page.locator('h1').innerText()).toBe('Stop BotWars mail?')
    expect(prefs.modeOf(ANN)).toBe('digest') // opening the link changed nothing
    await stack.shot(page, 'mail-unsubscribe')
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Stop the mail' }).click()])
    expect(await page.locator('h1').innerText()).toBe('BotWars mail stopped')
    expect(prefs.modeOf(ANN)).toBe('none')
    await stack.shot(page, 'mail-unsubscribed')
  })

  it('shows a tampered form refused, the error focused, her choice unchanged and nothing ticked she did not send', { timeout: 120_000 }, async () => {
    const BOB = 'bob@example.org'
    const page = await (await stack.context({ javaScript: true })).newPage()
    await page.goto(`${stack.origin}/settings/mail`)
    await signIn(stack, page, BOB)
    await page.locator('label[for="mode-digest"]').click()
    await go(page, () => page.getByRole('button', { name: 'Save' }).click())
    // Someone edits the page: the "none" choice now sends a mode there is not.
    await page.locator('#mode-none').evaluate((radio) => { (radio as unknown as { value: string }).value = 'weekly' })
    await page.locator('label[for="mode-none"]').click()
    await go(page, () => page.getByRole('button', { name: 'Save' }).click())
    expect(await page.title()).toMatch(/^Error: Mail settings/)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('error-summary')
    expect(await page.locator('#error-summary').innerText()).toContain('Choose one of the three.')
    for (const mode of ['every', 'digest', 'none']) expect(await page.locator(`#mode-${mode}`).isChecked()).toBe(false)
    expect(await page.locator('main').innerText()).toContain('Your setting is unchanged: One digest of my games a day.')
    await stack.shot(page, 'mail-settings-refused')
    expect(preferencesRepository(stack.app.services.db).modeOf(BOB)).toBe('digest')
  })
})
