// New messages pushed live (issue 12 "Questions and press", issue 13 "Live"). Written first, the
// hostile part: a private thread's message reaches no other viewer's stream, not even as a changed
// event id — not another player's, not a spectator's. Then in Chromium: a message sent in one
// browser context appears on another person's game page and turn page without a reload, and the
// half-written message in that page's own form is kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLAYERS, setUpGame, type Client } from '../server/helpers.js'
import { hasChromium, startStack, type Stack } from './harness.js'
import { go, pageFor, text } from './people.js'
import { openStream, waitUntil } from './streams.js'

/** The `update` events a stream carried, as [id, data] pairs. */
const updates = (raw: string) => raw.split('\n\n').filter((block) => block.includes('event: update')).map((block) => {
  const id = /^id: (.*)$/m.exec(block)?.[1] ?? ''
  const data = /^data: (.*)$/m.exec(block)?.[1] ?? '{}'
  return [id, JSON.parse(data) as { kind: string; message: string; messages?: string }] as const
})

describe.skipIf(!hasChromium)('new messages pushed live', () => {
  let stack: Stack
  let gameId: string
  let gm: Client
  let ann: Client
  let bob: Client
  let publicToken: string
  beforeAll(async () => {
    stack = await startStack()
    const set = await setUpGame(stack.app, PLAYERS.slice(0, 2), { turnLengthHours: 24, reviewWindowHours: 24, closeEarly: false })
    ;({ gameId, gm } = set)
    ;[ann, bob] = set.players as [Client, Client]
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: '' })).status).toBe(200)
    publicToken = stack.app.services.games.byId(gameId)!.public_token
  })
  afterAll(async () => { await stack?.close() })

  it('a private message reaches only its thread\'s streams: another player and a spectator hear nothing, not even a new event id', { timeout: 120_000 }, async () => {
    const gmStream = openStream(stack, `/games/${gameId}/live`, { cookie: gm.headers.cookie! })
    const bobStream = openStream(stack, `/games/${gameId}/live`, { cookie: bob.headers.cookie! })
    const spectator = openStream(stack, `/watch/${publicToken}/live`)
    await waitUntil(() => [gmStream, bobStream, spectator].every((s) => updates(s.text()).length === 1))
    const bobBefore = bobStream.text()
    const spectatorBefore = spectator.text()

    expect((await ann.call('POST', `/api/v1/games/${gameId}/messages`, { to: 'gm', body: 'Psst: may I declare a reboot now?' })).status).toBe(201)
    // The GM's stream hears of it: the hub has seen the message and told whom it concerns.
    await waitUntil(() => updates(gmStream.text()).some(([, d]) => d.kind === 'message'))
    expect(updates(gmStream.text()).at(-1)![1].message).toBe('New message.')
    expect(gmStream.text()).not.toContain('Psst') // "new message" only: never the text
    // Give the hub a few more polls: still nothing for the others.
    await new Promise((r) => setTimeout(r, 1_000))
    expect(bobStream.text()).toBe(bobBefore)
    expect(spectator.text()).toBe(spectatorBefore)

    // A reconnecting stream sends back the last id it saw: Bob's is still current (no catch-up), the GM's is not.
    const [bobId] = updates(bobBefore)[0]!
    const again = openStream(stack, `/games/${gameId}/live`, { cookie: bob.headers.cookie!, 'last-event-id': bobId })
    await waitUntil(() => updates(again.text()).length === 1)
    expect(updates(again.text())[0]![1].kind).toBe('hello')
    again.close()

    // A public message is news for every member's stream, still without its text; spectators do not see the threads.
    expect((await ann.call('POST', `/api/v1/games/${gameId}/messages`, { to: 'all', body: 'Good luck, all' })).status).toBe(201)
    await waitUntil(() => updates(bobStream.text()).some(([, d]) => d.kind === 'message'))
    expect(bobStream.text()).not.toContain('Good luck')
    await new Promise((r) => setTimeout(r, 500))
    expect(spectator.text()).toBe(spectatorBefore)
    for (const s of [gmStream, bobStream, spectator]) s.close()
  })

  it('a message sent in one browser appears on another person\'s game and turn pages without a reload', { timeout: 120_000 }, async () => {
    // Turn 1 published, so its report (the turn page, with the threads) exists.
    stack.clock.now = stack.app.services.turns.current(gameId)!.deadline + 1000
    stack.app.runDueWork()
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'ok' })).status).toBe(200)
    const annPage = await pageFor(stack, ann)
    const bobGame = await pageFor(stack, bob)
    const bobTurn = await pageFor(stack, bob, { phone: true })
    await go(bobGame, () => bobGame.goto(`${stack.origin}/games/${gameId}`))
    // Bob has begun a message of his own: the update must keep it.
    await bobGame.locator('#message-body').fill('half a thought')
    await go(bobTurn, () => bobTurn.goto(`${stack.origin}/games/${gameId}/turns/1`))
    await go(annPage, () => annPage.goto(`${stack.origin}/games/${gameId}`))
    for (const page of [bobGame, bobTurn]) await page.evaluate(() => { (window as unknown as { notReloaded: boolean }).notReloaded = true })

    await annPage.locator('#message-body').fill('Who goes for the flag first?')
    await go(annPage, () => annPage.getByRole('button', { name: 'Send' }).click())
    for (const page of [bobGame, bobTurn]) {
      await page.locator('#messages .message', { hasText: 'Who goes for the flag first?' }).waitFor({ timeout: 15_000 })
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true)
      expect(await text(page.locator('#live-note'))).toContain('New message')
    }
    expect(await bobGame.locator('#message-body').inputValue()).toBe('half a thought')
    await stack.shot(bobGame, 'live-messages-01-game-page', '#messages')
    await stack.shot(bobTurn, 'live-messages-02-turn-page-phone', '#messages')
    await stack.shot(bobTurn, 'live-messages-03-turn-page-note-phone', '#live-note')
    // Ann's private question to the GM never shows on Bob's pages.
    expect(await text(bobGame.locator('#messages'))).not.toContain('Psst')
  })
})
