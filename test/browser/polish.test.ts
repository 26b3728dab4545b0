// Polish from the walkthrough (issue 13), in Chromium: a display name chosen once; a refused card
// explained in plain words about a register; the player's form saying who reopened it and why;
// the GM console's destructive actions asking first and looking different.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dealtState } from '../../src/server/services/deal.js'
import { PLAYERS, setUpGame, signIn, type Client } from '../server/helpers.js'
import { hasChromium, startStack, type Stack } from './harness.js'
import { go, pageFor, text } from './people.js'

describe.skipIf(!hasChromium)('polish in Chromium', () => {
  let stack: Stack
  let gameId: string
  let gm: Client
  let ann: Client
  let bob: Client
  beforeAll(async () => {
    stack = await startStack()
    const set = await setUpGame(stack.app, PLAYERS.slice(0, 2), { closeEarly: false })
    ;({ gameId, gm } = set)
    ;[ann, bob] = set.players as [Client, Client]
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: '' })).status).toBe(200)
  })
  afterAll(async () => { await stack?.close() })

  it('asks a new person once for the name others see', { timeout: 120_000 }, async () => {
    const nora = await signIn(stack.app, 'nora.k@example.org')
    const page = await pageFor(stack, nora, { phone: true })
    await page.goto(`${stack.origin}/`)
    expect(await text(page.locator('.name-ask'))).toContain('now you appear as “nora.k”')
    await go(page, () => page.getByRole('button', { name: 'Save my name' }).click())
    expect(await text(page.locator('#displayName-error'))).toMatch(/^Enter the name others see\.?$/)
    await stack.shot(page, 'polish-phone-1-name-refused')
    await page.locator('#displayName').fill('Nora')
    await go(page, () => page.getByRole('button', { name: 'Save my name' }).click())
    expect(await text(page.locator('#done'))).toContain('others see you as “Nora”')
    expect(await page.locator('.name-ask').count()).toBe(0)
    expect(await page.locator('.who').textContent()).toContain('Nora')
    await page.reload()
    expect(await page.locator('.name-ask').count()).toBe(0)
  })

  it('says in plain words which register holds a card that is not yours', { timeout: 120_000 }, async () => {
    const page = await pageFor(stack, ann)
    await page.goto(`${stack.origin}/games/${gameId}/turns/1/submit`)
    const annId = stack.app.services.games.seats(gameId).find((s) => s.name === 'Ann')!.player_id
    const hand = dealtState(stack.app.services.turns.current(gameId)!).hands[annId]!.map((c) => `${c.kind}:${c.priority}`)
    for (let k = 1; k <= 5; k++) await page.locator(`#r${k}`).selectOption(hand[k - 1]!)
    // An out-of-date page offers a card that is no longer (or never was) in the hand.
    await page.locator('#r3').evaluate((select) => {
      const s = select as unknown as { add(o: unknown): void; value: string; ownerDocument: { createElement(t: string): { value: string; textContent: string } } }
      const option = s.ownerDocument.createElement('option')
      option.value = 'UTRN:999'
      option.textContent = 'U-turn (999)'
      s.add(option)
      s.value = 'UTRN:999'
    })
    await go(page, () => page.locator('#store-program').click())
    const shown = await text(page.locator('main'))
    expect(shown).not.toMatch(/cards\[\d\]|is not a card like|[A-Z]{4}:\d+/i)
    expect(await text(page.locator('#r3-error'))).toMatch(/^Register 3: /)
    await stack.shot(page, 'polish-desktop-1-plain-error', '.registers')
  })

  it('tells the player who reopened the program and why; the GM console asks before destructive actions', { timeout: 120_000 }, async () => {
    for (const player of [ann, bob]) {
      const mine = (await player.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
      expect((await player.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: (mine.me.hand as string[]).slice(0, 5) })).status).toBe(201)
    }
    const console = await pageFor(stack, gm)
    const asked: string[] = []
    let answer = false
    console.on('dialog', (d) => { asked.push(d.message()); void (answer ? d.accept() : d.dismiss()) })
    await console.goto(`${stack.origin}/games/${gameId}/gm`)
    const close = console.getByRole('button', { name: 'Close the turn now' })
    expect(await close.getAttribute('class')).toBe('danger')
    await close.click()
    expect(asked).toEqual(['Close the turn now? Players without a program get one dealt at random.'])
    expect(stack.app.services.turns.current(gameId)!.status).toBe('open') // "no" keeps it open
    answer = true
    await go(console, () => close.click())
    expect(stack.app.services.turns.current(gameId)!.status).toBe('draft')
    expect(await console.getByRole('button', { name: 'Publish turn 1' }).getAttribute('class')).toBe('primary')
    await stack.shot(console, 'polish-desktop-2-gm-console')

    const annId = stack.app.services.games.seats(gameId).find((s) => s.name === 'Ann')!.player_id
    const reopened = await gm.call('POST', `/api/v1/games/${gameId}/turns/1/reopen`, { player: annId, reason: 'Register 2 looks like a slip' })
    expect(reopened.status).toBe(200)
    const page = await pageFor(stack, ann, { phone: true })
    await page.goto(`${stack.origin}/games/${gameId}/turns/1/submit`)
    const note = await text(page.locator('.reopened'))
    expect(note).toContain('Your program was reopened')
    expect(note).toContain('Gemma (the GM) reopened your program for turn 1')
    expect(note).toContain('“Register 2 looks like a slip”')
    await stack.shot(page, 'polish-phone-2-reopened')
  })
})
