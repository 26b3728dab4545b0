/// <reference lib="dom" />
// Accessibility in Chromium, the pages and moments test/browser/a11y.test.ts does not reach: the
// program form used with the keyboard alone on a phone (the sticky Store bar, a pick from the
// opened list), the game page's and mail settings' refused forms, phones that must not scroll
// sideways, and axe on mail settings, unsubscribing, the GM console's panels, a withdrawn report,
// standings, a finished game, a practice game and a series (its stop form too). Screenshots: a11y-pages-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { unsubscribePath, preferencesRepository } from '../../src/server/mail/preferences.js'
import { playTurn, startedGame, type Started } from '../gm/helpers.js'
import { signIn } from '../server/helpers.js'
import { axeViolations, landmarkProblems } from './axe.js'
import { hasChromium, PHONE, startStack, type Stack } from './harness.js'
import { pageFor } from './people.js'
import { go, text } from './steps.js'

describe.skipIf(!hasChromium)('accessibility of the other pages in Chromium', () => {
  let stack: Stack
  let game: Started
  const url = (path = '') => `${stack.origin}/games/${game.gameId}${path}`
  const checked: string[] = []

  /** axe's WCAG 2.1 A/AA violations and the landmark names on the page as it stands, under `name`. */
  async function axe(page: Page, name: string): Promise<void> {
    checked.push(name)
    expect.soft((await axeViolations(page)).lines, `axe on ${name} (${page.url()})`).toEqual([])
    expect.soft((await landmarkProblems(page)).problems, `landmark names on ${name} (${page.url()})`).toEqual([])
  }
  /** What has the focus: its id, or its tag and text. */
  const focused = (page: Page) => page.evaluate(() => {
    const el = document.activeElement
    return el ? el.id || `${el.tagName} ${(el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60)}` : ''
  })

  beforeAll(async () => {
    stack = await startStack()
    game = await startedGame(stack.app)
  })
  afterAll(async () => { await stack?.close() })

  it('on a phone, the keyboard never hides what has the focus under the Store bar, and a pick from the opened list swaps', { timeout: 120_000 }, async () => {
    const ann = await pageFor(stack, game.players[0]!, { phone: true })
    await ann.emulateMedia({ reducedMotion: 'reduce' }) // focus scrolls at once, not smoothly
    await go(ann, () => ann.goto(url('/turns/1/submit')))
    // Tab from the first card to the Store button: each control scrolled into view lies above the bar.
    await ann.locator('#hand .card-button').first().focus()
    const hidden: string[] = []
    for (let i = 0; i < 40 && (await focused(ann)) !== 'store-program'; i++) {
      const overlap = await ann.evaluate(() => {
        const el = document.activeElement!
        const bar = document.querySelector('.sticky-actions')!.getBoundingClientRect()
        const box = el.getBoundingClientRect()
        return !el.closest('.sticky-actions') && box.bottom > bar.top + 1 && box.top < bar.bottom
      })
      if (overlap) hidden.push(await focused(ann))
      await ann.keyboard.press('Tab')
    }
    expect(await focused(ann)).toBe('store-program')
    expect(hidden, 'focused controls under the sticky Store bar').toEqual([])

    // Two cards in registers 1 and 2; then register 1's list, opened from the keyboard (Space, and
    // Alt+↓), and register 2's card picked: the two registers swap, as a tap or a mouse pick does.
    await ann.locator('#hand .card-button').nth(0).click()
    await ann.locator('#hand .card-button').nth(1).click()
    const [first, second] = [await ann.locator('#r1').inputValue(), await ann.locator('#r2').inputValue()]
    await ann.locator('#r1').focus()
    await ann.keyboard.press(' ')
    await ann.keyboard.press('ArrowDown') // in the opened list: the select keeps its card until Enter
    expect(await ann.locator('#r1').inputValue()).toBe(first)
    await ann.keyboard.press('Enter')
    expect([await ann.locator('#r1').inputValue(), await ann.locator('#r2').inputValue()]).toEqual([second, first])
    expect(await text(ann.locator('#register-note'))).toMatch(/^Swapped: .* went to register 1, and .* to register 2\.$/)
    await ann.keyboard.press('Alt+ArrowDown')
    await ann.keyboard.press('ArrowUp')
    await ann.keyboard.press('Enter')
    expect([await ann.locator('#r1').inputValue(), await ann.locator('#r2').inputValue()]).toEqual([first, second])
    // An arrow key on the closed select still only chooses: register 2 keeps its card.
    await ann.keyboard.press('ArrowDown')
    expect(await ann.locator('#r2').inputValue()).toBe(second)
    expect(await text(ann.locator('#register-note'))).toContain('also in register 2')
    await stack.shot(ann, 'a11y-pages-phone-program-form')
  })

  it('refused forms on the game page and the mail settings say "Error:" first and take the focus to what went wrong', { timeout: 120_000 }, async () => {
    const ann = await pageFor(stack, game.players[0]!, { phone: true, axe: true })
    ann.on('dialog', (d) => { void d.accept() }) // leaving the game asks first
    // An empty message.
    await go(ann, () => ann.goto(url()))
    await go(ann, () => ann.getByRole('button', { name: 'Send' }).click())
    expect(await ann.title()).toMatch(/^Error: /)
    expect(await focused(ann)).toBe('error-summary')
    expect(await text(ann.locator('#error-summary'))).toContain('Write a message')
    await ann.locator('#error-summary a').click()
    expect(await focused(ann)).toBe('message-body')
    expect(await ann.locator('#message-body').getAttribute('aria-describedby')).toBe('message-body-error')
    await axe(ann, 'player: message refused')
    await stack.shot(ann, 'a11y-pages-phone-message-refused')
    // Leaving the game without ticking the box.
    await go(ann, () => ann.getByRole('button', { name: 'Leave the game' }).click())
    expect(await ann.title()).toMatch(/^Error: /)
    expect(await focused(ann)).toBe('error-summary')
    expect(await text(ann.locator('#error-summary'))).toMatch(/tick the box/i)
    await ann.locator('#error-summary a').click()
    expect(await focused(ann)).toBe('withdraw-confirm')
    expect(await ann.locator('#withdraw-confirm').getAttribute('aria-invalid')).toBe('true')
    expect(await ann.locator('#withdraw-confirm').getAttribute('aria-describedby')).toBe('withdraw-confirm-error')
    await axe(ann, 'player: leaving refused')
    await stack.shot(ann, 'a11y-pages-phone-leaving-refused', '.danger-zone')
    // The mail settings, reached from the site's own menu (not only from a mail), sent with no choice.
    await go(ann, () => ann.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Mail', exact: true }).click())
    expect(new URL(ann.url()).pathname).toBe('/settings/mail')
    expect(await ann.getByRole('link', { name: 'Mail', exact: true }).getAttribute('aria-current')).toBe('page')
    await axe(ann, 'player: mail settings')
    await ann.evaluate(() => document.querySelectorAll<HTMLInputElement>('input[name=mode]').forEach((radio) => { radio.checked = false }))
    await go(ann, () => ann.getByRole('button', { name: 'Save' }).click())
    expect(await ann.title()).toMatch(/^Error: /)
    expect(await focused(ann)).toBe('error-summary')
    await ann.locator('#error-summary a').click()
    expect(await focused(ann)).toMatch(/^mode-/)
    expect(await ann.locator('fieldset#mode').getAttribute('aria-describedby')).toBe('mode-error')
    await axe(ann, 'player: mail settings refused')
    await stack.shot(ann, 'a11y-pages-phone-mail-settings-refused')

    // The GM invites nobody in a game still being set up.
    const gm = await pageFor(stack, game.gm, { axe: true })
    const created = await game.gm.call('POST', '/api/v1/games', { name: 'Second table', board: 'training-floor', seats: 2 })
    await go(gm, () => gm.goto(`${stack.origin}/games/${created.json.id}`))
    await go(gm, () => gm.getByRole('button', { name: 'Send the invitation' }).click())
    expect(await gm.title()).toMatch(/^Error: /)
    expect(await focused(gm)).toBe('error-summary')
    await gm.locator('#error-summary a').click()
    expect(await focused(gm)).toBe('email')
    await axe(gm, 'GM: invitation refused')

    // A newcomer asked for a display name sends none.
    const newcomer = await pageFor(stack, await signIn(stack.app, 'newcomer@example.org'), { phone: true, axe: true })
    await go(newcomer, () => newcomer.goto(`${stack.origin}/`))
    // The page's title heading comes first, the question under it (a screen reader lists headings in order).
    expect(await newcomer.locator('main').getByRole('heading').first().evaluate((h) => [h.tagName, h.textContent])).toEqual(['H1', 'My games'])
    await newcomer.locator('#displayName').fill(' ')
    await go(newcomer, () => newcomer.getByRole('button', { name: 'Save my name' }).click())
    expect(await newcomer.title()).toMatch(/^Error: /)
    expect(await focused(newcomer)).toBe('error-summary')
    await newcomer.locator('#error-summary a').click()
    expect(await focused(newcomer)).toBe('displayName')
    await axe(newcomer, 'player: display name refused')
    await stack.shot(newcomer, 'a11y-pages-phone-name-refused', '.name-ask')
  })

  it('a phone never scrolls sideways: the page fits 375 px, wide tables scroll inside their box', { timeout: 120_000 }, async () => {
    await playTurn(stack.app, stack.clock, game.gm, game.gameId)
    const ann = await pageFor(stack, game.players[0]!, { phone: true })
    const token = stack.app.services.games.byId(game.gameId)!.public_token
    for (const [name, address] of [
      ['game page (with the spectators\' link)', url()], ['report', url('/turns/1')], ['spectator report', `${stack.origin}/watch/${token}/turns/1`],
    ] as const) {
      await go(ann, () => ann.goto(address))
      // On a phone the page grows wider than the screen when something sticks out (innerWidth follows).
      expect(await ann.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]), name).toEqual([PHONE.width, PHONE.width])
    }
    await stack.shot(ann, 'a11y-pages-phone-spectator-report')
    // The new-game form: its indented choice under "played by a bot" was as wide as the form and more.
    const gm = await pageFor(stack, game.gm, { phone: true })
    await go(gm, () => gm.goto(`${stack.origin}/games/new`))
    expect(await gm.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]), 'new game').toEqual([PHONE.width, PHONE.width])
    await stack.shot(gm, 'a11y-pages-phone-new-game', '#goneRobot')
  })

  it('finds no WCAG 2.1 A/AA violation on mail, console panels, withdrawn, finished, practice and series pages', { timeout: 240_000 }, async () => {
    const before = checked.length
    const gm = await pageFor(stack, game.gm, { axe: true })
    gm.on('dialog', (d) => { void d.accept() })
    const ann = await pageFor(stack, game.players[0]!, { phone: true, axe: true })

    // Unsubscribing from a mail's link, signed out.
    const reader = await (await stack.context({ axe: true, phone: true })).newPage()
    await go(reader, () => reader.goto(`${stack.origin}${unsubscribePath(preferencesRepository(stack.app.db), 'ann@example.org')}`))
    await axe(reader, 'signed out: unsubscribe')
    await go(reader, () => reader.getByRole('button', { name: 'Stop the mail' }).click())
    expect(await text(reader.locator('h1'))).toBe('BotWars mail stopped')
    await axe(reader, 'signed out: unsubscribed')
    await go(reader, () => reader.goto(`${stack.origin}/mail/unsubscribe?a=x&t=y`))
    await axe(reader, 'signed out: a bad unsubscribe link')

    // The console: a refused setting, a published turn rolled back, its withdrawn report.
    await go(gm, () => gm.goto(url('/gm')))
    await gm.locator('#settings-turnLimit').fill('9')
    await go(gm, () => gm.getByRole('button', { name: 'Save the settings' }).click())
    expect(await gm.title()).toMatch(/^Error: /)
    await axe(gm, 'GM: console, a setting refused')
    await gm.locator('#rollback-reason').fill('a rules fix')
    await gm.locator('#rollback-confirm').check()
    await go(gm, () => gm.getByRole('button', { name: 'Roll back turn 1' }).click())
    expect(await text(gm.locator('#done'))).toContain('rolled back')
    await axe(gm, 'GM: console, turn rolled back')
    await go(gm, () => gm.getByRole('button', { name: 'Publish turn 1' }).click())
    await go(ann, () => ann.goto(url('/turns/1/withdrawn/1')))
    await axe(ann, 'player: withdrawn report')
    await stack.shot(ann, 'a11y-pages-phone-withdrawn')
    await go(ann, () => ann.goto(url('/standings')))
    await axe(ann, 'player: standings')

    // The game ends with placings.
    await go(gm, () => gm.goto(url('/gm')))
    await gm.locator('#end-confirm').check()
    await go(gm, () => gm.getByRole('button', { name: 'End with placings' }).click())
    await axe(gm, 'GM: console, game over')
    await go(gm, () => gm.goto(url()))
    await axe(gm, 'GM: finished game')
    await go(ann, () => ann.goto(url('/standings')))
    await axe(ann, 'player: final standings')
    await go(ann, () => ann.goto(`${stack.origin}/watch/${stack.app.services.games.byId(game.gameId)!.public_token}`))
    await axe(ann, 'spectator: finished game')

    // A practice game from the home page.
    const solo = await pageFor(stack, await signIn(stack.app, 'solo@example.org', 'Solo'), { phone: true, axe: true })
    await go(solo, () => solo.goto(`${stack.origin}/`))
    await axe(solo, 'player: home with the practice form')
    await go(solo, () => solo.getByRole('button', { name: 'Start a practice game' }).click())
    const practice = new URL(solo.url()).pathname.split('/')[2]!
    await axe(solo, 'player: practice program form')
    for (let k = 0; k < 5; k++) await solo.locator('#hand .card-button').nth(k).click()
    await go(solo, () => solo.getByRole('button', { name: 'Store my program' }).click())
    await axe(solo, 'player: practice program stored')
    await go(solo, () => solo.goto(`${stack.origin}/games/${practice}/turns/1`))
    await axe(solo, 'player: practice report')
    await go(solo, () => solo.goto(`${stack.origin}/games/${practice}`))
    await axe(solo, 'player: practice game')

    // A series of bots, on a phone.
    const created = await gm.request.post(`${stack.origin}/api/v1/series`, { data: { name: 'Winter cup', boards: ['training-floor'], seats: ['strong', 'greedy', 'random'] } })
    expect(created.status()).toBe(201)
    const seriesUrl = `${stack.origin}/series/${(await created.json()).id}`
    const series = await pageFor(stack, game.gm, { phone: true, axe: true })
    await go(series, () => series.goto(seriesUrl))
    await axe(series, 'GM: series on a phone')
    await stack.shot(series, 'a11y-pages-phone-series')
    // Its stop form, refused without the tick, then the series stopped.
    series.on('dialog', (d) => { void d.accept() })
    await series.locator('#when-now').check()
    await series.locator('#reason').fill('new boards')
    await go(series, () => series.getByRole('button', { name: 'Stop the series' }).click())
    expect(await series.title()).toMatch(/^Error: /)
    await axe(series, 'GM: series, stop refused, on a phone')
    await stack.shot(series, 'a11y-pages-phone-series-stop-refused')
    await series.locator('#confirm').check()
    await go(series, () => series.getByRole('button', { name: 'Stop the series' }).click())
    expect(await text(series.locator('.page-head .badge'))).toBe('stopped')
    await axe(series, 'GM: series stopped, on a phone')

    expect(checked.length - before).toBe(19)
  })
})
