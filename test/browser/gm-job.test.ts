// The GM's job in Chromium (issue 12): a correction in the draft and its Corrections section, a
// rollback with the withdrawn report and a stale second tab, messages (escaped, private, hidden),
// a seat opened mid-game and a player who withdraws, a changed turn limit, and the end with
// placings on the standings page. Players are signed in through the real mailed link (outbox),
// then drive the pages; the screenshots are in artifacts/screenshots/gm-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { cardsInWords } from '../../src/render/cards.js'
import { inviteToken, setUpGame, signIn, type Client } from '../server/helpers.js'
import { hasChromium, startStack, type Stack } from './harness.js'

const text = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim()
async function go(page: Page, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForEvent('load'), action()])
}

describe.skipIf(!hasChromium)('the GM\'s job in Chromium', () => {
  let stack: Stack
  let gameId: string
  let api: { gm: Client; ann: Client; bob: Client }
  const pages: Record<string, Page> = {}

  async function personPage(email: string, phone = false, javaScript = true): Promise<Page> {
    const c = await signIn(stack.app, email)
    const context: BrowserContext = await stack.context({ phone, javaScript })
    const value = c.headers.cookie!.split('=')[1]!
    await context.addCookies([{ name: 'botwars_session', value, url: stack.origin }])
    return context.newPage()
  }

  beforeAll(async () => {
    stack = await startStack()
    const set = await setUpGame(stack.app, [
      { email: 'ann@example.org', name: 'Ann', colour: 'red' },
      { email: 'bob@example.org', name: 'Bob', colour: 'blue' },
    ], { turnLengthHours: 24, reviewWindowHours: 24, closeEarly: false })
    gameId = set.gameId
    api = { gm: set.gm, ann: set.players[0]!, bob: set.players[1]! }
    expect((await api.gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: 'go' })).status).toBe(200)
    pages.gm = await personPage('gm@example.org')
    pages.ann = await personPage('ann@example.org', true)
    pages.bob = await personPage('bob@example.org', false, false)
  })
  afterAll(async () => { await stack?.close() })

  const url = (path = '') => `${stack.origin}/games/${gameId}${path}`
  const closeTurn = async () => {
    const game = (await api.gm.call('GET', `/api/v1/games/${gameId}`)).json
    stack.clock.now = Date.parse(game.currentTurn.deadline) + 1000
    stack.app.runDueWork()
  }

  it('corrects a program in the draft; the published report shows the correction', { timeout: 120_000 }, async () => {
    const { gm, bob } = pages as Record<string, Page>
    await closeTurn()
    await go(gm!, () => gm!.goto(url('/gm')))
    const hand = (await text(gm!.locator('.hands li[data-player="P2"]'))).match(/hand (.*); program/)![1]!.split(' ')
    // A refusal first: cards Bob does not hold; the values stay.
    await gm!.locator('#correct-player').selectOption('P2')
    await gm!.locator('#correct-cards').fill('FWD3:999')
    await gm!.locator('#correct-reason').fill('Bob mailed his program')
    await go(gm!, () => gm!.getByRole('button', { name: 'Correct and resolve again' }).click())
    expect(await text(gm!.locator('#gm-correct .alert'))).toMatch(/not a card|not in|hand/i)
    expect(await gm!.locator('#correct-cards').inputValue()).toBe('FWD3:999')
    await gm!.locator('#correct-cards').fill(hand.slice(0, 5).join(' '))
    await go(gm!, () => gm!.getByRole('button', { name: 'Correct and resolve again' }).click())
    expect(await text(gm!.locator('#done'))).toContain('The program is corrected')
    await stack.shot(gm!, 'gm-01-console-corrected')
    expect(await text(gm!.locator('table.programs tr[data-player="P2"]'))).toContain(`(${hand[0]!.split(':')[1]})`)
    await go(gm!, () => gm!.goto(url('/turns/1')))
    expect(await text(gm!.locator('#corrections'))).toContain('Bob mailed his program')
    await go(gm!, () => gm!.goto(url('/gm')))
    await go(gm!, () => gm!.getByRole('button', { name: 'Publish turn 1' }).click())
    await go(bob!, () => bob!.goto(url('/turns/1')))
    const section = await text(bob!.locator('#corrections'))
    expect(section).toContain('Bob')
    expect(section).toContain('no program')
    // In words, as the rest of the report writes cards.
    expect(section).toContain(cardsInWords(hand.slice(0, 5).join(' ')))
    expect(section).toContain('Bob mailed his program')
    await stack.shot(bob!, 'gm-02-report-corrections', '#corrections')
    const mail = stack.app.services.outbox.all().find((m) => m.kind === 'correction')!
    expect(mail.recipient).toBe('bob@example.org')
    // The mail reads the cards in words, as people read them.
    expect(mail.body).toContain(`Now:    ${cardsInWords(hand.slice(0, 5).join(' '))}`)
  })

  it('rolls back the turn; a second tab is told the turn changed; the withdrawn report stays readable', { timeout: 120_000 }, async () => {
    const { gm, ann } = pages as Record<string, Page>
    const report = (await api.ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result.report
    const other = await gm!.context().newPage()
    await go(gm!, () => gm!.goto(url('/gm')))
    await go(other, () => other.goto(url('/gm')))
    await gm!.locator('#rollback-reason').fill('a rules fix')
    await go(gm!, () => gm!.getByRole('button', { name: 'Roll back turn 1' }).click())
    expect(await text(gm!.locator('#gm-rollback .alert'))).toContain('Tick the box to confirm the rollback')
    await gm!.locator('#rollback-confirm').check()
    await go(gm!, () => gm!.getByRole('button', { name: 'Roll back turn 1' }).click())
    expect(await text(gm!.locator('#done'))).toContain('rolled back')
    expect(await text(gm!.locator('#now-heading'))).toContain('Turn 1: draft')
    await stack.shot(gm!, 'gm-03-console-rolled-back')
    // The other tab still shows turn 2 open: its action is refused, nothing changes.
    await other.locator('#extend-reason').fill('more time')
    await go(other, () => other.getByRole('button', { name: 'Extend the deadline' }).click())
    expect(await text(other.locator('#stale'))).toContain('The turn changed meanwhile')
    expect(await text(other.locator('#now-heading'))).toContain('Turn 1: draft')
    await stack.shot(other, 'gm-04-other-tab-refused')
    await go(ann!, () => ann!.goto(url()))
    await go(ann!, () => ann!.getByRole('link', { name: 'Turn 1, version 1' }).click())
    expect(await text(ann!.locator('h1'))).toContain('withdrawn')
    expect(await text(ann!.locator('.alert'))).toContain('a rules fix')
    const withdrawn = await ann!.locator('pre.text-report').textContent()
    expect(withdrawn!.startsWith(report)).toBe(true)
    expect(withdrawn).toContain('Corrections by the GM')
    await stack.shot(ann!, 'gm-05-withdrawn-report-phone')
    await go(gm!, () => gm!.goto(url('/gm')))
    await go(gm!, () => gm!.getByRole('button', { name: 'Publish turn 1' }).click())
    expect((await api.ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result.report).toBe(report)
  })

  it('messages: public and private, escaped, hidden by the GM', { timeout: 120_000 }, async () => {
    const { gm, ann, bob } = pages as Record<string, Page>
    await go(ann!, () => ann!.goto(url()))
    await ann!.locator('#message-body').fill('<script>window.__xss=1</script>Good luck all')
    await go(ann!, () => ann!.getByRole('button', { name: 'Send' }).click())
    expect(await text(ann!.locator('#messages .message').last())).toContain('<script>window.__xss=1</script>Good luck all')
    await ann!.locator('#message-to').selectOption('gm')
    await ann!.locator('#message-body').fill('May I declare a reboot now?')
    await go(ann!, () => ann!.getByRole('button', { name: 'Send' }).click())
    await ann!.locator('#message-body').fill('')
    await go(ann!, () => ann!.getByRole('button', { name: 'Send' }).click())
    expect(await text(ann!.locator('#message-body-error'))).toContain('Write a message')
    await stack.shot(ann!, 'gm-06-messages-phone', '#messages')
    expect(await ann!.evaluate('typeof window.__xss')).toBe('undefined')
    await go(bob!, () => bob!.goto(url('/turns/1')))
    const bobSees = await text(bob!.locator('#messages'))
    expect(bobSees).toContain('Good luck all')
    expect(bobSees).not.toContain('May I declare')
    expect(await bob!.locator('#message-to option').allInnerTexts()).toEqual(['Everyone at the table', 'The GM only'])
    await go(gm!, () => gm!.goto(url('/gm')))
    expect(await text(gm!.locator('#messages'))).toContain('private, to GM')
    const first = gm!.locator('#messages .message').first()
    await first.locator('input[name=reason]').fill('no scripts please')
    await go(gm!, () => first.getByRole('button', { name: 'Hide' }).click())
    expect(await text(gm!.locator('#messages .message').first())).toContain('hidden: no scripts please')
    await stack.shot(gm!, 'gm-07-console-messages', '#messages')
    await go(bob!, () => bob!.goto(url()))
    expect(await text(bob!.locator('#messages'))).not.toContain('Good luck all')
    stack.app.runDueWork()
    const mailed = stack.app.services.outbox.all().filter((m) => m.kind === 'messages')
    expect(mailed.map((m) => m.recipient).sort()).toEqual(['gm@example.org'])
    expect(mailed[0]!.body).toContain('May I declare a reboot now?')
  })

  it('opens a seat mid-game, a player withdraws, the limit changes and the game ends with placings', { timeout: 150_000 }, async () => {
    const { gm, ann } = pages as Record<string, Page>
    await go(gm!, () => gm!.goto(url('/gm')))
    await gm!.locator('#open-seat-email').fill('cid@example.org')
    await gm!.locator('#open-seat-reason').fill('Cid asked to join')
    await go(gm!, () => gm!.getByRole('button', { name: 'Open a seat and invite' }).click())
    expect(await text(gm!.locator('#done'))).toContain('The new seat is open')
    const cid = await personPage('cid@example.org', true)
    await go(cid, () => cid.goto(`${stack.origin}/invites/${inviteToken(stack.app, 'cid@example.org')}`))
    await cid.locator('#name').fill('Cid')
    await cid.locator('input[name=colour][value=green]').check()
    await Promise.all([cid.waitForURL(/done=joined/), cid.getByRole('button', { name: 'Take my seat' }).click()])
    expect(await text(cid.locator('#done'))).toContain('You have a seat')
    // Cid leaves the live game page before the turn is published: the publication would reload it
    // (live.js) while the goto below navigates, and the two navigations racing left goto waiting
    // for a load that never came (a flaky 30 s timeout). Live reloads are tested in test/browser/live*.
    await cid.goto('about:blank')
    await closeTurn()
    await go(gm!, () => gm!.goto(url('/gm')))
    await go(gm!, () => gm!.getByRole('button', { name: 'Publish turn 2' }).click())
    await go(cid, () => cid.goto(url()))
    expect(await text(cid.locator('table.players tr[data-player="P3"]'))).toContain('virtual')
    expect(await cid.getByRole('link', { name: 'My turn 3' }).count()).toBe(1)
    await stack.shot(cid, 'gm-08-newcomer-phone')

    // Ann leaves: the game plays on with her robot (R9, the default).
    // (Withdrawing through the page form is not driven here yet: see test/gm/endings-seats.test.ts for the API.)
    expect((await api.ann.call('POST', `/api/v1/games/${gameId}/withdraw`, { reason: 'exams' })).status).toBe(200)

    // The GM sets a turn limit (a reason is needed), then ends the game with placings.
    await go(gm!, () => gm!.goto(url('/gm')))
    await gm!.locator('#settings-turnLimit').fill('9')
    await go(gm!, () => gm!.getByRole('button', { name: 'Save the settings' }).click())
    expect(await text(gm!.locator('#gm-settings .alert'))).toContain('A changed turn limit needs a reason')
    await gm!.locator('#settings-reason').fill('the club closes in June')
    await go(gm!, () => gm!.getByRole('button', { name: 'Save the settings' }).click())
    expect(await text(gm!.locator('#done'))).toContain('settings are saved')
    expect(await gm!.locator('#settings-turnLimit').inputValue()).toBe('9')
    await stack.shot(gm!, 'gm-09-console-seats-settings')
    await gm!.locator('#end-confirm').check()
    await gm!.locator('#end-reason').fill('summer')
    await go(gm!, () => gm!.getByRole('button', { name: 'End with placings' }).click())
    expect(await text(gm!.locator('#done'))).toContain('placings are final')
    await go(gm!, () => gm!.goto(url()))
    await go(gm!, () => gm!.getByRole('link', { name: 'Final standings' }).first().click())
    expect(await text(gm!.locator('h1'))).toBe('Final standings')
    const rows = await gm!.locator('table.standings tbody tr').count()
    expect(rows).toBe(3)
    expect(await text(gm!.locator('table.standings'))).toMatch(/Place Player Flags Steps to next flag HP Robots left 1 /)
    await stack.shot(gm!, 'gm-10-final-standings')
    await go(cid, () => cid.goto(`${stack.origin}/`))
    await go(cid, () => cid.getByRole('link', { name: 'Final standings' }).click())
    expect(await text(cid.locator('h1'))).toBe('Final standings')
    const final = stack.app.services.outbox.all().filter((m) => m.kind === 'game-over')
    expect(final.map((m) => m.recipient).sort()).toEqual(['bob@example.org', 'cid@example.org', 'gm@example.org'])
    expect(final[0]!.body).toContain('Final standings')
  })
})
