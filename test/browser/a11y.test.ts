/// <reference lib="dom" />
// Accessibility in Chromium. axe-core checks every kind of page against WCAG 2.1 A and AA (signed
// out, player, GM, spectator; open turn, published report, replay, console, legend, errors) and the
// test fails on any violation. Then a player who uses only the keyboard stores a program, fixes a
// refused one from the error summary, and steps through a report. Along the way: the live region
// of the program form, the "Error:" title, the board in words, text enlarged by the browser's
// font setting, and screenshots at 390 px and at 200 % zoom. Every page route, opened once by the
// person who sees it and held to the same checks and more, is a11y-routes.test.ts's sweep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { axeViolations, landmarkProblems } from './axe.js'
import { hasChromium, SHOTS, startStack, type Stack } from './harness.js'
import { go, signIn, text } from './steps.js'

const GM = 'gemma@example.org'
const BOB = 'bob@example.org'

describe.skipIf(!hasChromium)('accessibility in Chromium', () => {
  let stack: Stack
  let gameUrl = ''
  const checked: string[] = []
  const violations: string[] = []

  /** Runs axe on the page as it stands and records what it found under `name`. */
  async function axe(page: Page, name: string): Promise<void> {
    const found = await axeViolations(page)
    checked.push(name)
    violations.push(...found.lines.map((line) => `${name}: ${line}`))
    expect.soft(found.lines, `axe on ${name} (${page.url()})`).toEqual([])
    // Landmarks a screen reader lists can be told apart by their names (issue 16).
    const landmarks = await landmarkProblems(page)
    violations.push(...landmarks.problems.map((line) => `${name}: landmarks: ${line}`))
    expect.soft(landmarks.problems, `landmark names on ${name} (${page.url()}): ${landmarks.landmarks.join(', ')}`).toEqual([])
  }

  /** Puts faulty markup into the page's main, to show a check finds it; returns how to take it out. */
  async function probe(page: Page, html: string): Promise<() => Promise<void>> {
    await page.evaluate((markup) => {
      const div = document.createElement('div')
      div.id = 'a11y-probe'
      div.innerHTML = markup
      document.querySelector('main')!.append(div)
    }, html)
    return async () => { await page.evaluate(() => document.getElementById('a11y-probe')!.remove()) }
  }

  beforeAll(async () => { stack = await startStack() })
  afterAll(async () => { await stack?.close() })

  it('finds no WCAG 2.1 A/AA violation on any kind of page', { timeout: 240_000 }, async () => {
    const gm = await (await stack.context({ axe: true })).newPage()
    gm.on('dialog', (d) => { void d.accept() }) // the GM console asks before closing a turn
    const bob = await (await stack.context({ axe: true, phone: true })).newPage()

    // --- Signed out: welcome, sign-in (and refused), legend, a page that does not exist.
    await gm.goto(`${stack.origin}/`)
    await axe(gm, 'signed out: welcome')
    const welcome = await axeViolations(gm)
    // axe runs the WCAG 2.5.3 rule the issue found (it is marked experimental in axe).
    expect(welcome.ran).toContain('label-content-name-mismatch')
    expect(welcome.ran).toContain('color-contrast')
    // The check can fail: faint text and a button named unlike its label are found, then removed.
    const removeProbe = await probe(gm, '<p style="color:#bbb;background:#fff">faint</p><button type="button" aria-label="Priority 350">Turn left 350</button>')
    const probed = (await axeViolations(gm)).lines.join('\n')
    expect(probed).toContain('color-contrast')
    expect(probed).toContain('label-content-name-mismatch')
    await removeProbe()
    // So can the landmark names: two navigations with one name, an aside without any.
    const before = await landmarkProblems(gm)
    expect(before.landmarks).toEqual(expect.arrayContaining(['banner ""', 'main ""', 'contentinfo ""']))
    const removeLandmarks = await probe(gm, '<nav aria-label="Turns">a</nav><nav aria-label="turns">b</nav><aside>c</aside>')
    const probedLandmarks = (await landmarkProblems(gm)).problems.join('\n')
    expect(probedLandmarks).toContain('two navigation landmarks are both named "turns"')
    expect(probedLandmarks).toContain('a complementary landmark has no name')
    expect((await axeViolations(gm)).lines.join('\n')).toContain('landmark-unique')
    await removeLandmarks()
    await gm.goto(`${stack.origin}/legend`)
    await axe(gm, 'signed out: legend')
    await gm.goto(`${stack.origin}/sign-in`)
    await go(gm, () => gm.getByRole('button', { name: 'Mail me a sign-in link' }).click())
    expect(await gm.title()).toMatch(/^Error: /)
    await axe(gm, 'signed out: sign-in refused')
    await gm.goto(`${stack.origin}/no-such-page`)
    await axe(gm, 'signed out: not found')

    // --- The GM: signs in, creates a game (after a refusal), invites Bob.
    await gm.goto(`${stack.origin}/`)
    await signIn(stack, gm, GM, (name) => axe(gm, `signed out: ${name}`))
    await axe(gm, 'GM: my games')
    await go(gm, () => gm.goto(`${stack.origin}/games/new`))
    await axe(gm, 'GM: create a game')
    await go(gm, () => gm.getByRole('button', { name: 'Create the game' }).click())
    expect(await gm.title()).toMatch(/^Error: Create a game/)
    await axe(gm, 'GM: create a game refused')
    await gm.locator('#name').fill('Quiet race')
    await gm.locator('#seats').selectOption('2')
    await gm.locator('#gmPlays').check()
    await gm.locator('#gmName').fill('Gemma')
    await go(gm, () => gm.getByRole('button', { name: 'Create the game' }).click())
    gameUrl = gm.url().replace(/\?.*$/, '')
    await axe(gm, 'GM: game in setup')
    await gm.locator('#email').fill(BOB)
    await go(gm, () => gm.getByRole('button', { name: 'Send the invitation' }).click())

    // --- Bob on a phone: the invitation signed out, then signed in, joins.
    await bob.goto(await stack.mailLink(BOB, /Invitation/))
    await axe(bob, 'signed out: invitation')
    await go(bob, () => bob.getByRole('link', { name: 'Sign in to join' }).click())
    await signIn(stack, bob, BOB)
    await axe(bob, 'player: join')
    await bob.locator('#name').fill('Bob')
    await go(bob, () => bob.getByRole('button', { name: 'Take my seat' }).click())
    await axe(bob, 'player: join refused')
    await bob.locator('input[name=colour][value=blue]').check()
    await go(bob, () => bob.getByRole('button', { name: 'Take my seat' }).click())

    // --- The game runs: game page, GM console, the program form.
    await gm.reload()
    await go(gm, () => gm.getByRole('button', { name: 'Start the game' }).click())
    await axe(gm, 'GM: game running')
    await go(gm, () => gm.goto(`${gameUrl}/gm`))
    await axe(gm, 'GM: console, open turn')
    await go(bob, () => bob.goto(gameUrl))
    await axe(bob, 'player: game page')
    const words = bob.locator('.board-words').first()
    await words.locator('summary').click()
    expect(await text(words)).toMatch(/Bob \(blue\): r\d+c\d+, facing (north|east|south|west), virtual \(passes through other robots\), 10 HP\. Flags to tag: flag 1 at r\d+c\d+/)
    expect(await text(words)).toContain('Within two squares of your robot')
    await axe(bob, 'player: game page, board in words open')
    await stack.shot(bob, 'a11y-phone-game-board-in-words')

    await go(bob, () => bob.goto(`${gameUrl}/turns/1/submit`))
    await axe(bob, 'player: program form')
    // A card's accessible name starts with its visible name (WCAG 2.5.3) and says the priority.
    const first = bob.locator('#hand .card-button').first()
    const visible = (await first.locator('.cname').innerText()).trim()
    const priority = (await first.getAttribute('data-card'))!.split(':')[1]!
    await expect.poll(() => first.evaluate((b) => b.textContent?.replace(/\s+/g, ' ').trim())).toContain(`${visible}, priority ${priority}`)
    // Placing and removing a card is said in the live region.
    await first.click()
    expect(await text(bob.locator('#register-note'))).toBe(`${visible} (${priority}) in register 1.`)
    await first.click()
    expect(await text(bob.locator('#register-note'))).toBe(`${visible} (${priority}) taken out of register 1.`)
    await first.click()
    await axe(bob, 'player: program form with a card placed')
    await stack.shot(bob, 'a11y-phone-program-form-card-placed', '.program-form')
    await go(bob, () => bob.getByRole('button', { name: 'Store my program' }).click())
    expect(await bob.title()).toMatch(/^Error: (\(\d+\) )?Turn 1: your program/)
    expect(await bob.evaluate(() => document.activeElement?.id)).toBe('error-summary')
    await axe(bob, 'player: program refused')
    for (let k = 2; k <= 5; k++) await bob.locator('#hand .card-button').nth(k - 1).click()
    await go(bob, () => bob.getByRole('button', { name: 'Store my program' }).click())
    await axe(bob, 'player: program stored')

    // --- The GM plays too: programs, then closes, is refused once, previews the draft, publishes.
    await go(gm, () => gm.goto(`${gameUrl}/turns/1/submit`))
    for (let k = 0; k < 5; k++) await gm.locator('#hand .card-button').nth(k).click()
    await go(gm, () => gm.getByRole('button', { name: 'Store my program' }).click())
    await go(gm, () => gm.goto(`${gameUrl}/gm`))
    await axe(gm, 'GM: console, own program to lock (A14)')
    await gm.locator('#lock-confirm').check()
    await go(gm, () => gm.getByRole('button', { name: 'Lock my program' }).click())
    await axe(gm, 'GM: console with every program')
    await go(gm, () => gm.getByRole('button', { name: 'Close the turn now' }).click())
    await axe(gm, 'GM: console, draft')
    await go(gm, () => gm.getByRole('button', { name: 'Reopen for a correction' }).click())
    expect(await gm.title()).toMatch(/^Error: /)
    await axe(gm, 'GM: console, refused action')
    await go(bob, () => bob.goto(`${gameUrl}/turns/1`))
    await axe(bob, 'player: turn waiting for the GM')
    // Off the live page before the GM publishes: live.js reloads it then (src/server/live).
    await go(bob, () => bob.goto(`${stack.origin}/legend`))
    await go(gm, () => gm.goto(`${gameUrl}/turns/1`))
    await axe(gm, 'GM: draft report')
    await go(gm, () => gm.goto(`${gameUrl}/gm`))
    await go(gm, () => gm.getByRole('button', { name: 'Publish turn 1' }).click())

    // --- The published report, the replay, turn 2's form, errors.
    await go(bob, () => bob.goto(`${gameUrl}/turns/1`))
    await axe(bob, 'player: published report')
    // The stage table's cards are in words for everyone (codes like LF90:350 are only spelled out
    // for screen readers where a code still shows: src/render/spoken.ts, test/render/spoken.test.ts).
    const card = bob.locator('#stage-1 tr[data-row="CARDS"] td').first()
    expect((await card.innerText()).trim()).not.toMatch(/[A-Z0-9]{4}:\d+/)
    await bob.locator('#stage-2 .board-words summary').click()
    await stack.shot(bob, 'a11y-phone-report-stage-2', '#stage-2')
    await go(bob, () => bob.goto(`${gameUrl}/turns/1/replay/2`))
    await axe(bob, 'player: replay')
    await go(bob, () => bob.goto(`${gameUrl}/turns/1/replay/end`))
    await axe(bob, 'player: replay, end of turn')
    await go(bob, () => bob.goto(`${gameUrl}/turns/2/submit`))
    await axe(bob, 'player: program form, turn 2')
    await go(bob, () => bob.goto(`${gameUrl}/gm`))
    await axe(bob, 'player: not allowed')
    await go(bob, () => bob.goto(`${stack.origin}/games/nope`))
    await axe(bob, 'player: not found')
    await go(gm, () => gm.goto(`${stack.origin}/legend`))
    await axe(gm, 'GM: legend')
    await stack.shot(gm, 'a11y-legend-robot-shapes', '#robot-shapes') // issue 16: robots differ beyond hue

    // --- A spectator with the public link.
    const token = stack.app.services.games.byId(gameUrl.split('/games/')[1]!)!.public_token
    const watcher = await (await stack.context({ axe: true })).newPage()
    await watcher.goto(`${stack.origin}/watch/${token}`)
    await axe(watcher, 'spectator: game')
    await go(watcher, () => watcher.goto(`${stack.origin}/watch/${token}/turns/1`))
    await axe(watcher, 'spectator: report')
    await go(watcher, () => watcher.goto(`${stack.origin}/watch/${token}/turns/1/replay/1`))
    await axe(watcher, 'spectator: replay')

    expect(checked.length).toBeGreaterThanOrEqual(30)
    expect(violations).toEqual([])
  })

  it('lets a keyboard-only player store a program, fix a refused one, and step through a report', { timeout: 120_000 }, async () => {
    const page = await (await stack.context({})).newPage()
    await page.goto(`${stack.origin}/`)
    await signIn(stack, page, BOB)
    await go(page, () => page.goto(`${gameUrl}/turns/2/submit`))
    const focused = () => page.evaluate(() => {
      const el = document.activeElement as (Element & { id: string; value?: string }) | null
      return el ? { tag: el.tagName, id: el.id, text: (el.textContent ?? '').replace(/\s+/g, ' ').trim(), card: el.getAttribute('data-card') } : null
    })
    /** Presses Tab until `test` holds for the focused element; fails after 80 presses. */
    async function tabTo(what: string, test: (f: NonNullable<Awaited<ReturnType<typeof focused>>>) => boolean): Promise<void> {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab')
        const f = await focused()
        if (f && test(f)) return
      }
      throw new Error(`Tab never reached ${what}`)
    }

    // Two cards with Space and Enter, then store: refused, and focus is on the error summary.
    await tabTo('the first card', (f) => f.card !== null)
    const firstCard = (await focused())!.card!
    await page.keyboard.press('Space')
    await page.keyboard.press('Tab')
    const secondCard = (await focused())!.card!
    await page.keyboard.press('Enter')
    expect(await text(page.locator('#register-note'))).toContain('in register 2')
    expect(await page.locator('#r1').inputValue()).toBe(firstCard)
    expect(await page.locator('#r2').inputValue()).toBe(secondCard)
    await tabTo('the store button', (f) => f.id === 'store-program')
    await go(page, () => page.keyboard.press('Enter'))
    expect(await page.title()).toMatch(/^Error: /)
    expect((await focused())!.id).toBe('error-summary')
    await stack.shot(page, 'a11y-keyboard-refused')

    // From the summary: its first link leads into register 3's select; arrow keys choose a card,
    // Tab goes on to registers 4 and 5.
    expect(await text(page.locator('#error-summary'))).toContain('Please fix these 3 things')
    await tabTo('the summary link for register 3', (f) => f.tag === 'A' && f.text === 'Choose a card for register 3.')
    await page.keyboard.press('Enter')
    for (const k of [3, 4, 5]) {
      expect((await focused())!.id).toBe(`r${k}`)
      // Down past the cards already chosen until the register holds a card no other register has.
      for (let i = 0; i < 9; i++) {
        await page.keyboard.press('ArrowDown')
        const values = await page.locator('select.reg-select').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value))
        if (values[k - 1] && values.filter((v) => v === values[k - 1]).length === 1) break
      }
      expect(await page.locator(`#r${k}`).inputValue()).not.toBe('')
      expect(await text(page.locator('#register-note'))).toContain(`in register ${k}`)
      await page.keyboard.press('Tab')
    }
    await tabTo('the store button', (f) => f.id === 'store-program')
    await go(page, () => page.keyboard.press('Enter'))
    expect(await text(page.locator('main'))).toContain('Your program is stored')
    await stack.shot(page, 'a11y-keyboard-stored')

    // A report: from the game page to turn 1, "Step through", then the arrow keys to the end.
    await go(page, () => page.goto(gameUrl))
    await tabTo('the link to turn 1', (f) => f.tag === 'A' && f.text === 'Turn 1')
    await go(page, () => page.keyboard.press('Enter'))
    expect(await text(page.locator('h1'))).toBe('Turn 1')
    await tabTo('Step through', (f) => f.tag === 'A' && f.text.startsWith('Step through'))
    await go(page, () => page.keyboard.press('Enter'))
    for (const heading of ['Stage 2', 'Stage 3', 'Stage 4', 'Stage 5', 'End of turn']) {
      await go(page, () => page.keyboard.press('ArrowRight'))
      expect(await text(page.locator('h1'))).toBe(`Turn 1: ${heading}`)
    }
    // The board in words opens from the keyboard too.
    await tabTo('the board in words', (f) => f.tag === 'SUMMARY')
    await page.keyboard.press('Enter')
    expect(await page.locator('.board-words').first().getAttribute('open')).not.toBeNull()
    expect(await text(page.locator('.board-words').first())).toMatch(/Bob \(blue\): /)
  })

  it('follows the browser font size, wraps card names, and stays usable at 200 % zoom', { timeout: 120_000 }, async () => {
    const context = await stack.context({})
    const page = await context.newPage()
    await page.goto(`${stack.origin}/`)
    await signIn(stack, page, GM)
    await go(page, () => page.goto(`${gameUrl}/turns/2/submit`))
    // The browser's default font size set to 32 px (a reader's own setting): the root follows it.
    const cdp = await context.newCDPSession(page)
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32 } })
    await page.reload()
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('32px')
    await page.setViewportSize({ width: 390, height: 844 })
    // No card name is cut off: each fits inside its card.
    const clipped = await page.locator('#hand .cname').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length)
    expect(clipped).toBe(0)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await stack.shot(page, 'a11y-phone-large-text-program-form')
    await stack.shot(page, 'a11y-phone-large-text-hand', '#hand')
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 16 } })

    // 200 % zoom on a 1280-px-wide window is a 640-px layout drawn at twice the density.
    const zoomed = await (await stack.browser.newContext({ viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 })).newPage()
    await zoomed.goto(`${stack.origin}/`)
    await signIn(stack, zoomed, GM)
    for (const [name, url] of [['game', gameUrl], ['program-form', `${gameUrl}/turns/2/submit`], ['report', `${gameUrl}/turns/1`], ['replay', `${gameUrl}/turns/1/replay/1`]] as const) {
      await go(zoomed, () => zoomed.goto(url))
      expect(await zoomed.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(640)
      await zoomed.screenshot({ path: join(SHOTS, `a11y-zoom-200-${name}.png`) })
    }
    await zoomed.context().close()
  })
})
