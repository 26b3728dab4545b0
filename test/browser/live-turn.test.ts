// Live, continued (issue 13): the stream sends heartbeats (comments that keep a proxy from
// closing an idle stream; the interval is shortened here, 15 s in production), a browser that
// reconnects with Last-Event-ID is told at once what it missed, and the turn pages follow the
// game in Chromium: another player's submission shows as "submitted" (nothing more), the tab
// title carries the badge while the program is due, and the GM closing and publishing the turn
// reach the pages without a reload by hand. Nothing waits a fixed time: each step waits for what
// it expects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardLabel } from '../../src/render/cards.js'
import { PLAYERS, setUpGame, type Client } from '../server/helpers.js'
import { hasChromium, startStack, type Stack } from './harness.js'
import { go, pageFor, text } from './people.js'
import { messages, openStream, waitUntil } from './streams.js'

const HEARTBEAT_MS = 200

describe.skipIf(!hasChromium)('live turn pages in Chromium', () => {
  let stack: Stack
  let gameId: string
  let gm: Client
  let ann: Client
  let bob: Client
  let cidClient: Client
  const id = (name: string) => stack.app.services.games.seats(gameId).find((s) => s.name === name)!.player_id
  const handOf = async (who: Client) => (await who.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me.hand as string[]
  beforeAll(async () => {
    stack = await startStack({ liveHeartbeatMs: HEARTBEAT_MS })
    const set = await setUpGame(stack.app, PLAYERS.slice(0, 3))
    ;({ gameId, gm } = set)
    ;[ann, bob, cidClient] = set.players as [Client, Client, Client]
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: '' })).status).toBe(200)
  })
  afterAll(async () => { await stack?.close() })

  it('sends heartbeat comments on an idle stream', async () => {
    const stream = openStream(stack, `/games/${gameId}/live`, { cookie: ann.headers.cookie! })
    // The first message, then nothing happens in the game: only heartbeats arrive, again and again.
    await waitUntil(() => messages(stream.text()).filter((m) => m.comment).length >= 2)
    const all = messages(stream.text())
    expect(all[0]!.event).toBe('update')
    expect(all[0]!.data!.kind).toBe('hello')
    const beats = all.filter((m) => m.comment)
    expect(beats.length).toBeGreaterThanOrEqual(2)
    expect(stream.text()).toMatch(/\n\n: ?heartbeat\n\n/) // a comment line: EventSource ignores it, a proxy sees traffic
    expect(all.filter((m) => m.event === 'update')).toHaveLength(1) // heartbeats are not updates
    stream.close()
  })

  it('tells a browser that reconnects with Last-Event-ID what it missed while away', async () => {
    const first = openStream(stack, `/games/${gameId}/live`, { cookie: ann.headers.cookie! })
    await waitUntil(() => messages(first.text()).some((m) => m.event === 'update'))
    const seen = messages(first.text()).find((m) => m.event === 'update')!
    expect((seen.data!.submitted as unknown[])).toEqual([])
    first.close() // Ann's connection drops …
    const cid = stack.app.services.games.seats(gameId).find((s) => s.name === 'Cid')!
    const cards = (await handOf(cidClient)).slice(0, 5)
    expect((await cidClient.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards })).status).toBe(201)
    // … and comes back, saying what it saw last: it is told at once that Cid has submitted since.
    const again = openStream(stack, `/games/${gameId}/live`, { cookie: ann.headers.cookie!, 'last-event-id': seen.id! })
    await waitUntil(() => messages(again.text()).some((m) => m.event === 'update'))
    const caught = messages(again.text()).find((m) => m.event === 'update')!
    expect(caught.id).not.toBe(seen.id)
    expect(caught.data!.kind).toBe('catch-up')
    expect(caught.data!.submitted).toEqual([{ player: cid.player_id, name: 'Cid' }])
    for (const card of cards) { expect(again.text()).not.toContain(card); expect(again.text()).not.toContain(cardLabel(card)) }
    // Coming back with the newest id is no catch-up: nothing was missed.
    const current = openStream(stack, `/games/${gameId}/live`, { cookie: ann.headers.cookie!, 'last-event-id': caught.id! })
    await waitUntil(() => messages(current.text()).some((m) => m.event === 'update'))
    expect(messages(current.text()).find((m) => m.event === 'update')!.data!.kind).toBe('hello')
    again.close(); current.close()
  })

  it('keeps the turn pages current: a submission, the badge, the GM closing and publishing', { timeout: 120_000 }, async () => {
    // Ann has her turn open (the program form: her program is due, so the title has the badge);
    // the GM, who does not play, has the turn page.
    const annPage = await pageFor(stack, ann)
    await annPage.goto(`${stack.origin}/games/${gameId}/turns/1`)
    expect(annPage.url()).toMatch(/\/turns\/1\/submit$/)
    await annPage.waitForFunction(() => document.body.getAttribute('data-live-state') === 'hello')
    expect(await annPage.title()).toMatch(/^\(1\) /)
    const gmPage = await pageFor(stack, gm)
    await gmPage.goto(`${stack.origin}/games/${gameId}/turns/1`)
    await gmPage.waitForFunction(() => document.body.getAttribute('data-live-state') === 'hello')
    expect(await text(gmPage.locator(`li.submission[data-player="${id('Bob')}"] .state`))).toBe('no program yet')
    expect(await gmPage.title()).not.toMatch(/^\(\d+\)/) // nothing waits for the GM while programs come in

    // Bob submits in his own browser.
    const bobPage = await pageFor(stack, bob, { phone: true })
    const bobHand = await handOf(bob)
    await bobPage.goto(`${stack.origin}/games/${gameId}/turns/1/submit`)
    for (let k = 1; k <= 5; k++) await bobPage.locator(`#r${k}`).selectOption(bobHand[k - 1]!)
    await go(bobPage, () => bobPage.locator('#store-program').click())

    // Ann's form says Bob submitted — only that — and keeps the badge: her own program is still due.
    await annPage.locator('#live-note:not([hidden])').waitFor()
    expect(await text(annPage.locator('#live-note'))).toBe('Bob submitted a program for turn 1.')
    expect(await annPage.title()).toMatch(/^\(1\) /)
    const annHtml = await annPage.content()
    for (const card of bobHand.slice(0, 5)) if (!(await handOf(ann)).includes(card)) expect(annHtml).not.toContain(card)
    await stack.shot(annPage, 'live-turn-desktop-1-form-told-bob-submitted')
    // The GM's turn page marks Bob's program in, without a reload.
    await gmPage.locator(`li.submission[data-player="${id('Bob')}"] .state`).filter({ hasText: 'program in' }).waitFor()
    expect(await gmPage.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1)
    await stack.shot(gmPage, 'live-turn-desktop-2-gm-sees-bob-in')

    // The GM closes the turn from the console: the GM's turn page reloads by itself to the draft
    // for review; Ann's form, being filled in, is not reloaded under her hands but told, with a link.
    const console_ = await pageFor(stack, gm)
    console_.on('dialog', (dialog) => { void dialog.accept() })
    await console_.goto(`${stack.origin}/games/${gameId}/gm`)
    const gmReload = gmPage.waitForEvent('load')
    await go(console_, () => console_.getByRole('button', { name: 'Close the turn now' }).click())
    await gmReload
    expect(await text(gmPage.locator('main'))).toContain('draft — not published')
    await annPage.waitForFunction(() => /Turn 1 is closed/.test(document.getElementById('live-note')!.textContent ?? ''))
    expect(await annPage.locator('#live-note a').textContent()).toBe('Show it')
    await stack.shot(annPage, 'live-turn-desktop-3-form-told-closed')
    // Ann opens the turn page: with the GM for review, and nothing waits for her (no badge).
    await go(annPage, () => annPage.goto(`${stack.origin}/games/${gameId}/turns/1`))
    expect(await text(annPage.locator('main'))).toContain('This turn is closed and with the GM for review.')
    await annPage.waitForFunction(() => document.body.getAttribute('data-live-state') === 'hello')
    expect(await annPage.title()).not.toMatch(/^\(\d+\)/)

    // The GM publishes: Ann's turn page becomes the report by itself.
    const published = annPage.waitForEvent('load')
    await go(console_, () => console_.getByRole('button', { name: 'Publish turn 1' }).click())
    await published
    await annPage.locator('.story-panel').waitFor()
    expect(await text(annPage.locator('.story-panel'))).toContain('Ann (you)')
    await stack.shot(annPage, 'live-turn-desktop-4-published')
  })
})
