// Bots on the web pages, in Chromium (issue 15 "Where bots play", issue 12 "Seats that change"):
// the new-game page seats bots and chooses the missed-program bot and what a gone player's robot
// does; the GM console changes that choice, removes a player whose robot the bot then plays (its
// programs in the published report), and opens a seat for a bot later; a player withdraws from the
// game page; a person starts a practice game from their home page. Each step asserts on what is
// shown, what is stored and what is mailed (the loopback SMTP server). Screenshots: bots-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { greedyChoice, mailsOf } from '../gm/helpers.js'
import { setUpGame, signIn, type Client } from '../server/helpers.js'
import { hasChromium, startStack, type Stack } from './harness.js'
import { pageFor } from './people.js'
import { go, text } from './steps.js'

describe.skipIf(!hasChromium)('bots on the web pages', () => {
  let stack: Stack
  let gm: Client
  let gmPage: Page
  beforeAll(async () => {
    stack = await startStack()
    gm = await signIn(stack.app, 'gm@example.org', 'Gemma')
    gmPage = await pageFor(stack, gm)
  })
  afterAll(async () => { await stack?.close() })

  it('the new-game page seats bots, names the missed-program bot and the bot for a gone player\'s robot', { timeout: 120_000 }, async () => {
    const page = gmPage
    await go(page, () => page.goto(`${stack.origin}/games/new`))
    await page.locator('#name').fill('Bots night')
    await page.locator('#seats').selectOption('2')
    await page.locator('#bot1').selectOption('greedy')
    await page.locator('#bot2').selectOption('strong')
    await page.locator('#bot3').selectOption('random')
    await page.locator('#missedProgramBot').selectOption('greedy')
    await page.locator('#goneRobot-bot').check()
    await page.locator('#goneRobotBot').selectOption('strong')
    // Three bots do not fit in two seats: refused, naming the field, every choice kept.
    await go(page, () => page.getByRole('button', { name: 'Create the game' }).click())
    expect(await text(page.locator('#error-summary'))).toContain('3 bots do not fit in 2 free seats')
    expect(await page.locator('#bot3').inputValue()).toBe('random')
    expect(await page.locator('#goneRobot-bot').isChecked()).toBe(true)
    expect(await page.locator('#goneRobotBot').inputValue()).toBe('strong')
    await stack.shot(page, 'bots-01-new-game-refused')
    await page.locator('#seats').selectOption('4')
    await page.locator('#bot3').selectOption('')
    await go(page, () => page.getByRole('button', { name: 'Create the game' }).click())
    expect(await text(page.locator('#done'))).toContain('The game is created')
    const players = await text(page.locator('table.players'))
    expect(players).toContain('Bot (greedy)')
    expect(players).toContain('Bot (strong)')
    await stack.shot(page, 'bots-02-game-with-bots')

    const gameId = new URL(page.url()).pathname.split('/')[2]!
    const stored = stack.app.services.games.byId(gameId)!
    expect([stored.gone_robot, stored.gone_robot_bot]).toEqual(['bot', 'strong'])
    expect(stack.app.services.bots.settings(gameId)).toEqual({ missed_program_bot: 'greedy', practice: 0 })
    expect(stack.app.services.games.seats(gameId).map((s) => [s.seat_no, s.bot ?? null, s.name])).toEqual([
      [1, 'greedy', 'Bot (greedy)'], [2, 'strong', 'Bot (strong)'], [3, null, null], [4, null, null],
    ])
  })

  it('the console: the gone-robot choice changed with a reason, a removed player\'s robot played by the bot, a seat opened for a bot', { timeout: 180_000 }, async () => {
    const set = await setUpGame(stack.app, [
      { email: 'ann@example.org', name: 'Ann', colour: 'red' },
      { email: 'bob@example.org', name: 'Bob', colour: 'blue' },
      { email: 'cid@example.org', name: 'Cid', colour: 'green' },
    ], { name: 'Console bots', turnLengthHours: 24, reviewWindowHours: 24, closeEarly: false })
    const gameId = set.gameId
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: 'go' })).status).toBe(200)
    const page = gmPage
    const url = (path = '') => `${stack.origin}/games/${gameId}${path}`
    await go(page, () => page.goto(url('/gm')))

    // The choice: from R9's random programs to the greedy bot, with a reason for the action log.
    await page.locator('#settings-goneRobot-bot').check()
    await page.locator('#settings-goneRobotBot').selectOption('greedy')
    await page.locator('#settings-reason').fill('a bot plays better than random cards')
    await go(page, () => page.getByRole('button', { name: 'Save the settings' }).click())
    expect(await text(page.locator('#done'))).toContain('settings are saved')
    expect(await page.locator('#settings-goneRobot-bot').isChecked()).toBe(true)
    expect(await text(page.locator('#remove-heading + p'))).toContain('played by the built-in bot Bot (greedy)')
    expect(stack.app.services.games.byId(gameId)!.gone_robot_bot).toBe('greedy')
    const logged = stack.app.services.games.actions(gameId).at(-1)!
    expect([logged.action, logged.reason, JSON.parse(logged.detail_json)]).toEqual(['settings', 'a bot plays better than random cards', { goneRobot: 'bot', goneRobotBot: 'greedy' }])

    // The GM removes Bob: the greedy bot takes his robot over at once (A20).
    await page.locator('#remove-seat').selectOption({ label: 'Bob' })
    await page.locator('#remove-confirm').check()
    await page.locator('#remove-reason').fill('no answer for two weeks')
    await go(page, () => page.getByRole('button', { name: 'Remove the player' }).click())
    expect(await text(page.locator('#done'))).toContain('The player is removed')
    const row = await text(page.locator('table.players tr[data-player="P2"]'))
    expect(row).toContain('Bot (greedy) for Bob')
    expect(row).toContain('✔ in') // the bot played the open turn at once
    await stack.shot(page, 'bots-03-console-bot-for-bob')
    const left = mailsOf(stack.app, gameId, 'seat-left')
    expect(left.map((m) => m.recipient).sort()).toEqual(['ann@example.org', 'bob@example.org', 'cid@example.org', 'gm@example.org'])
    expect(left[0]!.body).toContain('Bob was removed from the game by the GM: no answer for two weeks')
    expect(await stack.mailLink('ann@example.org', /Bob left the game/)).toBe(url()) // delivered over SMTP
    // Bob's own mail says it to him, and links to his games: this game's page is no longer his.
    expect(await stack.mailLink('bob@example.org', /the GM removed you from the game/)).toBe(`${stack.origin}/`)

    // Two turns later the published reports show the bot's programs: legal, and what greedy chooses from Bob's seat.
    for (const n of [1, 2]) {
      await publishTurn(page, url, n)
      const registers = (await set.players[0]!.call('GET', `/api/v1/games/${gameId}/turns/${n}`)).json.result.registers.P2 as string[]
      expect(registers).toEqual(greedyChoice(stack.app, gameId, n, 'P2'))
      const dealt = JSON.parse(stack.app.services.turns.byNumber(gameId, n)!.dealt_state_json)
      for (const card of registers) expect(dealt.hands.P2).toContainEqual(expect.objectContaining({ priority: Number(card.split(':')[1]) }))
    }
    const ann = await pageFor(stack, set.players[0]!)
    await go(ann, () => ann.goto(url('/turns/2')))
    const report = await text(ann.locator('main'))
    expect(report).toContain('Bot (greedy) for Bob')
    const second = greedyChoice(stack.app, gameId, 2, 'P2')
    expect(report).toContain(`(${second[0]!.split(':')[1]})`)
    await stack.shot(ann, 'bots-04-report-with-bot')

    // A seat opened for a bot in the running game: its robot enters at the next turn (R25).
    await go(page, () => page.goto(url('/gm')))
    await page.locator('#seat-bot-seat').selectOption('new')
    await page.locator('#seat-bot-bot').selectOption('random')
    await page.locator('#seat-bot-reason').fill('a fourth robot for the crowd')
    // Clicked twice while the first post is on its way (held back here until the second click has
    // happened, as a slow server would hold it): the form goes once (views/static/app.js), so one
    // seat is opened, not two. Without the guard the page sends the second post too, and a server
    // that got both opened two seats. Held on the test's word, not for a time: with fixed delays (the
    // post held 400 ms, the clicks 150 ms apart) a slow machine could answer before the second click.
    const posts: string[] = []
    page.on('request', (request) => { if (request.method() === 'POST' && request.url().endsWith('/gm/seat-bot')) posts.push(request.url()) })
    let firstArrived!: () => void
    const arrived = new Promise<void>((resolve) => { firstArrived = resolve })
    let release!: () => void
    const released = new Promise<void>((resolve) => { release = resolve })
    await page.route('**/gm/seat-bot', async (route) => {
      firstArrived()
      await released
      await route.continue().catch(() => {}) // a post the page gave up for a later one is gone
    })
    const seatTheBot = page.getByRole('button', { name: 'Seat the bot' })
    // Both clicks from inside the page, the second once the first post has reached the route, so it
    // lands on this page, not on the next. While a navigation is pending Playwright reaches no script
    // of the page, so the page asks: a fetch the test answers once the post has arrived.
    await page.route('**/first-post-arrived', async (route) => { await arrived; await route.fulfill({ body: 'yes' }) })
    await go(page, async () => {
      await seatTheBot.evaluate(async (button: HTMLButtonElement) => {
        button.click()
        await fetch('/first-post-arrived')
        button.click()
      })
      release()
    })
    await page.unroute('**/first-post-arrived')
    await page.unroute('**/gm/seat-bot')
    expect(posts).toHaveLength(1)
    expect(await text(page.locator('#done'))).toContain('The bot has its seat')
    expect(await text(page.locator('table.players tr[data-player="P4"]'))).toContain('Bot (random)')
    expect(stack.app.services.games.seats(gameId).map((s) => s.player_id)).toEqual(['P1', 'P2', 'P3', 'P4'])
    await stack.shot(page, 'bots-05-console-seat-bot')
    await publishTurn(page, url, 3)
    const robots = (await gm.call('GET', `/api/v1/games/${gameId}`)).json.robots
    expect(robots.find((r: { player: string }) => r.player === 'P4')).toMatchObject({ mode: 'virtual', robotsLeft: 3, hp: 10, placedAfterTurn: 3 })
    expect((await gm.call('GET', `/api/v1/games/${gameId}`)).json.currentTurn.submitted.find((s: { player: string }) => s.player === 'P4').submitted).toBe(true)

    // Ann withdraws from the game page: a confirmation is asked first; the bot plays her robot too.
    await go(ann, () => ann.goto(url()))
    await ann.locator('#withdraw-reason').fill('moving house')
    await go(ann, () => ann.getByRole('button', { name: 'Leave the game' }).click())
    expect(await text(ann.locator('[role=alert]').first())).toContain('Tick the box to confirm that you leave the game')
    expect(stack.app.services.games.seats(gameId).find((s) => s.seat_no === 1)!.user_id).not.toBeNull()
    await ann.locator('#withdraw-confirm').check()
    await ann.locator('#withdraw-reason').fill('moving house')
    await Promise.all([ann.waitForURL(/done=withdrawn/), ann.getByRole('button', { name: 'Leave the game' }).click()])
    expect(await text(ann.locator('#done'))).toContain('You have left the game')
    expect(await text(ann.locator('main'))).not.toContain('Console bots')
    await stack.shot(ann, 'bots-06-withdrawn-home')
    const seat = stack.app.services.games.seats(gameId).find((s) => s.seat_no === 1)!
    expect([seat.user_id, seat.bot, seat.name]).toEqual([null, 'greedy', 'Bot (greedy) for Ann'])
    expect(stack.app.services.games.actions(gameId).at(-1)).toMatchObject({ action: 'withdraw', reason: 'moving house' })
    const withdrawn = mailsOf(stack.app, gameId, 'seat-left').filter((m) => m.body.includes('Ann withdrew'))
    expect(withdrawn.map((m) => m.recipient).sort()).toEqual(['cid@example.org', 'gm@example.org'])
    // Ann's own mail is in the second person.
    expect(mailsOf(stack.app, gameId, 'seat-left').filter((m) => m.recipient === 'ann@example.org').at(-1)!.body).toContain('You withdrew from the game')
    expect(withdrawn[0]!.body).toContain('Ann withdrew from the game: moving house')
    expect(await stack.mailLink('cid@example.org', /Ann left the game/)).toBe(url())
  })

  it('a practice game from the home page: against bots alone, each turn played as soon as the program is in, no mail', { timeout: 120_000 }, async () => {
    const solo = await signIn(stack.app, 'solo@example.org', 'Solo')
    const page = await pageFor(stack, solo, { phone: true })
    await go(page, () => page.goto(`${stack.origin}/`))
    await page.locator('#bot1').selectOption('')
    await go(page, () => page.getByRole('button', { name: 'Start a practice game' }).click())
    expect(await text(page.locator('#error-summary'))).toContain('Choose at least one bot to play against')
    await page.locator('#practiceBoard').selectOption('training-floor')
    await page.locator('#bot1').selectOption('greedy')
    await page.locator('#bot2').selectOption('strong')
    await stack.shot(page, 'bots-07-practice-form-phone', '#practice')
    const mailBefore = stack.app.services.outbox.all().length
    await go(page, () => page.getByRole('button', { name: 'Start a practice game' }).click())
    expect(new URL(page.url()).pathname).toMatch(/^\/games\/[\w-]+\/turns\/1\/submit$/)
    const gameId = new URL(page.url()).pathname.split('/')[2]!
    expect(stack.app.services.bots.settings(gameId)!.practice).toBe(1)
    expect(stack.app.services.games.seats(gameId).map((s) => s.name)).toEqual(['Solo', 'Bot (greedy)', 'Bot (strong)'])
    for (let i = 0; i < 5; i++) await page.locator('#hand .card-button').nth(i).click()
    await go(page, () => page.getByRole('button', { name: 'Store my program' }).click())
    // No clock moved and no clockwork ran: storing the program played the turn.
    expect(stack.app.services.turns.byNumber(gameId, 1)!.status).toBe('published')
    await go(page, () => page.goto(`${stack.origin}/games/${gameId}/turns/1`))
    const report = await text(page.locator('main'))
    expect(report).toContain('Bot (greedy)')
    expect(report).toContain('Bot (strong)')
    await stack.shot(page, 'bots-08-practice-turn-1-phone')
    expect(stack.app.services.outbox.all().length).toBe(mailBefore)
  })

  /** Closes turn n at its deadline and publishes it from the console. */
  async function publishTurn(page: Page, url: (path?: string) => string, n: number): Promise<void> {
    const turn = stack.app.services.turns.byNumber(new URL(url()).pathname.split('/')[2]!, n)!
    stack.clock.now = turn.deadline + 1000
    stack.app.runDueWork()
    await go(page, () => page.goto(url('/gm')))
    await go(page, () => page.getByRole('button', { name: `Publish turn ${n}` }).click())
    expect(await text(page.locator('#done'))).toContain('published')
  }
})
