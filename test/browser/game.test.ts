// A whole turn in a real browser: the GM signs in through the mailed link, creates a game (after
// a refused form that keeps what was typed), invites a second player who joins on a phone without
// JavaScript (signing in on the way), the GM programs with the mouse, the player with plain
// selects (first with a mistake), the GM closes, reviews every program in the draft and
// publishes, and everyone reads the turn report and steps through it with the arrow keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatSquare } from '../../src/engine/geometry.js'
import { cardLabel } from '../../src/render/cards.js'
import { humanCards } from '../../src/render/report-text.js'
import { turnView } from '../../src/server/services/views.js'
import { membership } from '../../src/server/services/membership.js'
import { DESKTOP, hasChromium, PHONE, startStack, type Stack } from './harness.js'
import { go, shownText, signIn, text } from './steps.js'

const DAY = 24 * 3600_000
const GM = 'gemma@example.org'
const BOB = 'bob@example.org'
const EVIL = '<script>window.__xss=1</script>Bob'

describe.skipIf(!hasChromium)('the web pages in Chromium', () => {
  let stack: Stack
  beforeAll(async () => { stack = await startStack() })
  afterAll(async () => { await stack?.close() })

  it('plays a turn from sign-in to the published report', { timeout: 180_000 }, async () => {
    const gmContext = await stack.context({ phone: false, javaScript: true })
    const gm = await gmContext.newPage()
    const dialogs: string[] = []
    // Only the GM console's "are you sure?" may ask anything, and the GM says yes; any other dialog is a bug.
    gm.on('dialog', (d) => { dialogs.push(d.message()); void (d.type() === 'confirm' ? d.accept() : d.dismiss()) })

    // --- The GM signs in through the mailed link.
    await gm.goto(`${stack.origin}/`)
    await stack.shot(gm, 'desktop-01-welcome')
    await signIn(stack, gm, GM)
    expect(gm.url()).toBe(`${stack.origin}/`)
    expect(await text(gm.locator('h1'))).toBe('My games')

    // --- Create a game: first without a name (refused, values kept), then properly.
    await go(gm, () => gm.getByRole('link', { name: 'Create a game' }).click())
    await gm.locator('#turnLengthHours').fill('96')
    await gm.locator('#gmPlays').check()
    await gm.locator('#gmName').fill('Gemma')
    await go(gm, () => gm.getByRole('button', { name: 'Create the game' }).click())
    expect(await text(gm.locator('#error-summary'))).toContain('Enter a name for the game')
    expect(await text(gm.locator('#name-error'))).toContain('Enter a name for the game')
    expect(await gm.locator('#turnLengthHours').inputValue()).toBe('96')
    expect(await gm.locator('#gmPlays').isChecked()).toBe(true)
    await stack.shot(gm, 'desktop-02-create-game-error')
    await gm.setViewportSize(PHONE)
    await stack.shot(gm, 'phone-create-game-error')
    await gm.setViewportSize(DESKTOP)
    await gm.locator('#name').fill('Friday race')
    await gm.locator('#seats').selectOption('2')
    await gm.locator('input[name=boardChoice][value=training-floor]').check()
    await go(gm, () => gm.getByRole('button', { name: 'Create the game' }).click())
    expect(await text(gm.locator('#done'))).toContain('The game is created')
    const gameUrl = gm.url().replace(/\?.*$/, '')
    const gameId = gameUrl.split('/games/')[1]!

    // --- Invite Bob by email.
    await gm.locator('#email').fill(BOB)
    await go(gm, () => gm.getByRole('button', { name: 'Send the invitation' }).click())
    expect(await text(gm.locator('#done'))).toContain('invitation is on its way')
    expect(await text(gm.locator('table.players'))).toContain(`invited: ${BOB}`)
    await stack.shot(gm, 'desktop-03-game-setup')

    // --- Bob, on a phone without JavaScript: opens the invitation, signs in, joins as "<script>…".
    const bobContext = await stack.context({ phone: true, javaScript: false })
    const bob = await bobContext.newPage()
    await bob.goto(await stack.mailLink(BOB, /Invitation/))
    expect(await text(bob.locator('h1'))).toBe('Join “Friday race”')
    await go(bob, () => bob.getByRole('link', { name: 'Sign in to join' }).click())
    await signIn(stack, bob, BOB)
    expect(bob.url()).toContain('/invites/') // back where the sign-in started
    await stack.shot(bob, 'phone-01-join')
    await bob.locator('#name').fill(EVIL)
    await go(bob, () => bob.getByRole('button', { name: 'Take my seat' }).click())
    expect(await text(bob.locator('#colour-error'))).toContain('Choose a colour')
    expect(await bob.locator('#name').inputValue()).toBe(EVIL)
    expect(await bob.locator('input[name=colour][value=red]').isDisabled()).toBe(true) // the GM's colour
    await bob.locator('input[name=colour][value=blue]').check()
    await go(bob, () => bob.getByRole('button', { name: 'Take my seat' }).click())
    expect(await text(bob.locator('#done'))).toContain('You have a seat')

    // --- The GM starts; the name is shown as text, never run.
    await gm.reload()
    expect(await text(gm.locator('table.players'))).toContain(EVIL)
    await go(gm, () => gm.getByRole('button', { name: 'Start the game' }).click())
    expect(await text(gm.locator('#done'))).toContain('The game has started')
    expect(await gm.evaluate('typeof window.__xss')).toBe('undefined')
    expect(dialogs).toEqual([])
    // The countdown ticks from the moment the page is shown (issue 13): 4 days, then 3 days 23:59:59 …
    expect(await text(gm.locator('.deadline'))).toMatch(/in (4 days|3 days 23:5\d:\d\d)/)
    await stack.shot(gm, 'desktop-04-game-running')

    // --- My games says what each game waits for; a day later the deadline is a day nearer.
    stack.clock.now += DAY
    await go(bob, () => bob.goto(`${stack.origin}/`))
    expect(await text(bob.locator('.game-item'))).toMatch(/Your program for turn 1 is due in 3 days/)
    await stack.shot(bob, 'phone-02-my-games')

    // --- The GM programs with the mouse: a tap on a card fills the next empty register.
    await go(gm, () => gm.getByRole('link', { name: 'My turn 1' }).click())
    const gmHand = await gm.locator('#hand .card-button').evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { card: string } }).dataset.card))
    expect(gmHand.length).toBe(9)
    for (let i = 0; i < 5; i++) await gm.locator('#hand .card-button').nth(i).click()
    for (let k = 1; k <= 5; k++) expect(await gm.locator(`#r${k}`).inputValue()).toBe(gmHand[k - 1])
    // A second tap on a used card takes it out again; dragging another card onto the register fills it.
    await gm.locator('#hand .card-button').nth(4).click()
    expect(await gm.locator('#r5').inputValue()).toBe('')
    await gm.locator('#hand .card-button').nth(5).dragTo(gm.locator('.register[data-register="5"]'))
    expect(await gm.locator('#r5').inputValue()).toBe(gmHand[5])
    expect(await gm.locator('#hand .card-button').nth(5).getAttribute('aria-pressed')).toBe('true')
    expect(await gm.locator('#hand .card-button').nth(4).getAttribute('aria-pressed')).toBe('false')
    await stack.shot(gm, 'desktop-05-my-turn-filled')
    await go(gm, () => gm.getByRole('button', { name: 'Store my program' }).click())
    const stored = await text(gm.locator('#stored'))
    expect(stored).toContain('Your program is stored')
    expect(stored).toContain('You can change it until')
    expect(stored).toContain(gmHand[0]!.split(':')[1]!)
    await stack.shot(gm, 'desktop-06-my-turn-stored')

    // --- Bob, no JavaScript: his own hand only, and a mistake first.
    await go(bob, () => bob.getByRole('link', { name: 'My turn' }).click())
    const bobHand = await bob.locator('#r1 option').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value).filter(Boolean))
    expect(bobHand.length).toBe(9)
    const bobPage = await bob.content()
    for (const card of gmHand) expect(bobPage).not.toContain(card as string) // the GM's cards stay secret
    await bob.locator('#r1').selectOption(bobHand[0]!)
    await bob.locator('#r2').selectOption(bobHand[0]!)
    await bob.locator('#r3').selectOption(bobHand[2]!)
    await bob.locator('#rebootNext').check()
    await go(bob, () => bob.getByRole('button', { name: 'Store my program' }).click())
    expect(await text(bob.locator('#r2-error'))).toContain('is already in register 1')
    expect(await text(bob.locator('#r4-error'))).toContain('Choose a card for register 4')
    expect(await bob.locator('#r1').inputValue()).toBe(bobHand[0])
    expect(await bob.locator('#r3').inputValue()).toBe(bobHand[2])
    expect(await bob.locator('#rebootNext').isChecked()).toBe(true)
    await stack.shot(bob, 'phone-03-my-turn-error')
    await stack.shot(bob, 'phone-03b-my-turn-error-screen', '#error-summary')
    await bob.locator('#r2').selectOption(bobHand[1]!)
    await bob.locator('#r4').selectOption(bobHand[3]!)
    await bob.locator('#r5').selectOption(bobHand[4]!)
    await bob.locator('#rebootNext').uncheck()
    await go(bob, () => bob.getByRole('button', { name: 'Store my program' }).click())
    expect(await text(bob.locator('#stored'))).toContain('Your program is stored')
    expect(await text(bob.locator('#stored'))).toContain('Reboot next turn: no')
    await stack.shot(bob, 'phone-04-my-turn-stored')

    // --- The GM console: both in; the GM plays, so the others' programs show only once the GM's
    // own is locked (A14), then every program is visible; close now.
    await go(gm, () => gm.goto(`${gameUrl}/gm`))
    expect(await gm.locator('table.players .yes').count()).toBe(2)
    expect(await gm.locator('table.programs').count()).toBe(0)
    await stack.shot(gm, 'desktop-06b-gm-console-lock', 'section[aria-labelledby="lock-heading"]')
    await gm.locator('#lock-confirm').check()
    await go(gm, () => gm.getByRole('button', { name: 'Lock my program' }).click())
    expect(await text(gm.locator('#done'))).toContain('Your program is locked')
    const programs = await text(gm.locator('table.programs'))
    expect(programs).toContain(cardLabel(bobHand[0]!)) // cards in words: "Move 2 (700)"
    await stack.shot(gm, 'desktop-07-gm-console-open')
    await gm.locator('#close-reason').fill('Everyone is in')
    await go(gm, () => gm.getByRole('button', { name: 'Close the turn now' }).click())
    expect(dialogs).toEqual(['Close the turn now? Players without a program get one dealt at random.'])
    expect(await text(gm.locator('#done'))).toContain('closed and resolved into a draft')
    // Publishing a draft twice is impossible, and a refused action says why beside its form:
    await gm.locator('#reopen-reason').fill('oops')
    await go(gm, () => gm.getByRole('button', { name: 'Reopen for a correction' }).click())
    expect(await text(gm.locator('#gm-reopen .alert'))).toContain('Choose the player whose program to reopen')
    expect(await gm.locator('#reopen-reason').inputValue()).toBe('oops')
    await stack.shot(gm, 'desktop-08-gm-console-draft')
    await gm.setViewportSize(PHONE)
    await stack.shot(gm, 'phone-gm-console-draft')
    await gm.setViewportSize(DESKTOP)

    // The draft is the GM's alone.
    await go(bob, () => bob.goto(`${gameUrl}/turns/1`))
    expect(await text(bob.locator('main'))).toContain('with the GM for review')
    await go(gm, () => gm.getByRole('link', { name: 'Preview the draft report' }).click())
    expect(await text(gm.locator('h1'))).toContain('draft')
    await go(gm, () => gm.goto(`${gameUrl}/gm`))
    await go(gm, () => gm.getByRole('button', { name: 'Publish turn 1' }).click())
    expect(await text(gm.locator('#done'))).toContain('published')

    // --- The report, as Bob reads it on his phone: stage 1's table shows where each robot went.
    const services = stack.app.services
    const m = membership(services, gameId, { user: services.users.byEmail(BOB)! })
    const result = turnView(services, m, services.turns.byNumber(gameId, 1)!).result!
    await go(bob, () => bob.goto(`${gameUrl}/turns/1`))
    expect(await text(bob.locator('h1'))).toBe('Turn 1')
    const stage1 = bob.locator('#stage-1 table.report')
    for (const robot of result.stages[0]!.robots) {
      const moves = await shownText(stage1.locator(`tr[data-row="MOVES"] td[data-player="${robot.player}"]`))
      const expected = result.tables[0]!.rows.find((r) => r.label === 'MOVES')!.cells[result.tables[0]!.players.indexOf(robot.player)]!.join(' ')
      expect(moves).toBe(expected.replace(/\s+/g, ' ').trim())
      const before = result.start.robots.find((r) => r.player === robot.player)!
      if (robot.at && (robot.at.row !== before.at?.row || robot.at.col !== before.at?.col)) {
        // Where the robot ended the stage is in its column: a move, a push, a conveyor…
        const column = await shownText(stage1.locator(`td[data-player="${robot.player}"]`))
        expect(column).toContain(formatSquare(robot.at))
      }
      const cards = await shownText(stage1.locator(`tr[data-row="CARDS"] td[data-player="${robot.player}"]`))
      expect(cards).toBe(result.tables[0]!.rows.find((r) => r.label === 'CARDS')!.cells[result.tables[0]!.players.indexOf(robot.player)]!.map(humanCards).join(' '))
    }
    expect(await text(stage1.locator('thead'))).toContain(EVIL)
    expect(await bob.locator('#end table.report').count()).toBe(1)
    const picture = await bob.locator('#stage-1 img').first().evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)
    expect(picture).toBeGreaterThan(100)
    await stack.shot(bob, 'phone-05-turn-report')
    await stack.shot(bob, 'phone-05b-turn-report-stage-1-table', '#stage-1 .stage-table')
    await go(gm, () => gm.goto(`${gameUrl}/turns/1`))
    await stack.shot(gm, 'desktop-09-turn-report')

    // --- Step through with the arrow keys (JavaScript) and with the links (no JavaScript).
    await go(gm, () => gm.getByRole('link', { name: 'Step through ▶' }).click())
    expect(await text(gm.locator('h1'))).toBe('Turn 1: Stage 1')
    await go(gm, () => gm.keyboard.press('ArrowRight'))
    expect(gm.url()).toMatch(/\/turns\/1\/replay\/2$/)
    expect(await text(gm.locator('h1'))).toBe('Turn 1: Stage 2')
    await stack.shot(gm, 'desktop-10-replay-stage-2')
    await go(gm, () => gm.keyboard.press('ArrowLeft'))
    expect(await text(gm.locator('h1'))).toBe('Turn 1: Stage 1')
    await go(bob, () => bob.goto(`${gameUrl}/turns/1/replay/5`))
    await go(bob, () => bob.getByRole('link', { name: 'Next →' }).click())
    expect(await text(bob.locator('h1'))).toBe('Turn 1: End of turn')
    await stack.shot(bob, 'phone-06-replay-end')

    // --- Turn 2 is open; the game page lists turn 1 in the history.
    await go(bob, () => bob.goto(gameUrl))
    expect(await text(bob.locator('.turn-list'))).toContain('Turn 1')
    expect(await text(bob.locator('.deadline'))).toContain('Turn 2')
    await stack.shot(bob, 'phone-07-game-page')

    // --- A spectator with the public link sees the published turn.
    const watcher = await (await stack.context({ phone: true })).newPage()
    const publicToken = services.games.byId(gameId)!.public_token
    await watcher.goto(`${stack.origin}/watch/${publicToken}`)
    await stack.shot(watcher, 'phone-08-spectator-game')
    expect(await text(watcher.locator('.turn-list'))).toContain('Turn 1')
    await go(watcher, () => watcher.getByRole('link', { name: 'Turn 1', exact: true }).click())
    expect(await watcher.locator('#stage-1 table.report').count()).toBe(1)
    await stack.shot(watcher, 'phone-09-spectator-report')

    // --- The legend, on both.
    await go(gm, () => gm.goto(`${stack.origin}/legend`))
    expect(await gm.locator('.legend li').count()).toBeGreaterThan(20)
    await stack.shot(gm, 'desktop-11-legend')
    await go(bob, () => bob.goto(`${stack.origin}/legend`))
    await stack.shot(bob, 'phone-10-legend')
  })
})
