// Live pages (issue 13): the game page of another player updates by itself when someone submits
// (showing only "submitted"; how soon is the hub's poll, not a test's: tests wait on the page's
// state, with no deadline a loaded CI machine could miss), the tab title carries a badge while something waits for
// you, the turn closing reloads the pages that follow it, the countdown ticks in the reader's
// zone, and — written first — an event stream never carries a hand or a program: not a
// spectator's, not another player's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dealtState } from '../../src/server/services/deal.js'
import { cardLabel } from '../../src/render/cards.js'
import { PLAYERS, setUpGame, type Client } from '../server/helpers.js'
import { hasChromium, startStack, type Stack } from './harness.js'
import { go, pageFor, text } from './people.js'
import { openStream, waitUntil } from './streams.js'

describe.skipIf(!hasChromium)('live pages in Chromium', () => {
  let stack: Stack
  let gameId: string
  let gm: Client
  let ann: Client
  let bob: Client
  let publicToken: string
  beforeAll(async () => {
    stack = await startStack()
    const set = await setUpGame(stack.app, PLAYERS.slice(0, 2))
    ;({ gameId, gm } = set)
    ;[ann, bob] = set.players as [Client, Client]
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: '' })).status).toBe(200)
    publicToken = stack.app.services.games.byId(gameId)!.public_token
  })
  afterAll(async () => { await stack?.close() })

  it('never streams a hand or a program to a spectator or another player', { timeout: 120_000 }, async () => {
    const spectator = openStream(stack, `/watch/${publicToken}/live`)
    const other = openStream(stack, `/games/${gameId}/live`, { cookie: bob.headers.cookie! })
    const stranger = openStream(stack, `/games/${gameId}/live`)
    await waitUntil(() => spectator.text().includes('event: update') && other.text().includes('event: update'))
    expect(spectator.headers()['content-type']).toMatch(/^text\/event-stream/)
    expect(spectator.headers()['content-encoding']).toBeUndefined() // never buffered by compression
    await waitUntil(() => stranger.status() !== 0)
    expect(stranger.status()).toBe(404) // not signed in: no members' stream

    // Ann submits through her form; both streams hear of it.
    const turn = stack.app.services.turns.current(gameId)!
    const dealt = dealtState(turn)
    const annId = stack.app.services.games.seats(gameId).find((s) => s.name === 'Ann')!.player_id
    const hand = dealt.hands[annId]!.map((c) => `${c.kind}:${c.priority}`)
    const page = await pageFor(stack, ann)
    await page.goto(`${stack.origin}/games/${gameId}/turns/1/submit`)
    for (let k = 1; k <= 5; k++) await page.locator(`#r${k}`).selectOption(hand[k - 1]!)
    await go(page, () => page.locator('#store-program').click())
    await waitUntil(() => other.text().includes('submitted a program'))
    expect(other.text()).toContain('"kind":"submitted"')
    expect(other.text()).toContain('Ann submitted a program for turn 1.')
    for (const stream of [spectator, other]) {
      for (const card of hand) {
        expect(stream.text()).not.toContain(card)
        expect(stream.text()).not.toContain(cardLabel(card))
      }
      expect(stream.text()).not.toMatch(/"(cards|hand|hands|program|programs|registers)"/)
    }
    // The spectator's stream does not even say who has submitted, nor how many: its ids stay the same.
    expect(spectator.text()).not.toContain('Ann')
    const idOf = (body: string) => /id: (.+)/.exec(body)?.[1]?.trim()
    const later = openStream(stack, `/watch/${publicToken}/live`)
    await waitUntil(() => later.text().includes('event: update'))
    expect(idOf(later.text())).toBe(idOf(spectator.text()))
    later.close()
    spectator.close(); other.close(); stranger.close()
  })

  it('catches a reconnecting browser up (Last-Event-ID) and keeps the stream alive', async () => {
    const first = openStream(stack, `/games/${gameId}/live`, { cookie: bob.headers.cookie! })
    await waitUntil(() => /id: (.+)/.test(first.text()))
    const id = /id: (.+)/.exec(first.text())![1]!.trim()
    first.close()
    const same = openStream(stack, `/games/${gameId}/live`, { cookie: bob.headers.cookie!, 'last-event-id': id })
    await waitUntil(() => same.text().includes('"kind"'))
    expect(same.text()).toContain('"kind":"hello"')
    same.close()
    const old = openStream(stack, `/games/${gameId}/live`, { cookie: bob.headers.cookie!, 'last-event-id': 'running.0.open.0..0.0' })
    await waitUntil(() => old.text().includes('"kind"'))
    expect(old.text()).toContain('"kind":"catch-up"')
    old.close()
  })

  it('updates another player\'s game page after a submission without a reload, badges the title, ticks the countdown', { timeout: 120_000 }, async () => {
    const bobPage = await pageFor(stack, bob, { timezoneId: 'Europe/Paris' })
    await bobPage.goto(`${stack.origin}/games/${gameId}`)
    await bobPage.waitForFunction(() => document.body.getAttribute('data-live-state') === 'hello')
    expect(await bobPage.title()).toMatch(/^\(1\) /) // Bob's program is due
    const annId = stack.app.services.games.seats(gameId).find((s) => s.name === 'Ann')!.player_id
    const bobId = stack.app.services.games.seats(gameId).find((s) => s.name === 'Bob')!.player_id
    expect(await text(bobPage.locator(`tr[data-player="${annId}"] td.submitted`))).toContain('✔ in') // from the first test
    expect(await text(bobPage.locator(`tr[data-player="${bobId}"] td.submitted`))).toContain('not yet')

    // The deadline in Bob's zone, named, with UTC on hover; the countdown ticks.
    const due = bobPage.locator('.deadline time').first()
    expect(await text(due)).toMatch(/^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2}, \d\d:\d\d (CET|CEST|GMT\+1|GMT\+2)$/)
    expect(await due.getAttribute('title')).toMatch(/UTC.*Europe\/Paris/)
    const countdown = bobPage.locator('.deadline .countdown')
    const before = await text(countdown)
    expect(before).toMatch(/^in \d+ days? \d\d:\d\d:\d\d$/)
    await bobPage.waitForFunction((was) => document.querySelector('.deadline .countdown')!.textContent !== was, before)
    await stack.shot(bobPage, 'live-desktop-1-game-page')

    // Ann changes her program in her own browser: Bob's page says she submitted, and nothing more.
    const annPage = await pageFor(stack, ann, { phone: true })
    await annPage.goto(`${stack.origin}/games/${gameId}/turns/1/submit`)
    await annPage.locator('#r1').selectOption({ index: 6 })
    await go(annPage, () => annPage.locator('#store-program').click())
    await stack.shot(annPage, 'live-phone-1-stored')

    // Bob submits on his phone; his own title badge goes away on the game page.
    const bobPhone = await pageFor(stack, bob, { phone: true })
    const hand = dealtState(stack.app.services.turns.current(gameId)!).hands[bobId]!.map((c) => `${c.kind}:${c.priority}`)
    await bobPhone.goto(`${stack.origin}/games/${gameId}/turns/1/submit`)
    for (let k = 1; k <= 5; k++) await bobPhone.locator(`#r${k}`).selectOption(hand[k - 1]!)
    await go(bobPhone, () => bobPhone.locator('#store-program').click())
    await bobPage.locator(`tr[data-player="${bobId}"] td.submitted .yes`).waitFor()
    await bobPage.waitForFunction(() => !/^\(\d+\)/.test(document.title))
    expect(await text(bobPage.locator('#live-note'))).toBe('Bob submitted a program for turn 1.')
    await stack.shot(bobPage, 'live-desktop-2-after-submission')

    // Every program is in: the clockwork closes the turn, and the game page follows by itself to "under GM review".
    const reload = bobPage.waitForEvent('load')
    await stack.app.runDueWork()
    await reload
    expect(await text(bobPage.locator('.deadline'))).toContain('under GM review')
    await stack.shot(bobPage, 'live-desktop-3-closed')
  })

  it('refreshes by itself without JavaScript, slowly', async () => {
    const page = await pageFor(stack, bob, { javaScript: false })
    await page.goto(`${stack.origin}/games/${gameId}`)
    expect(await page.locator('noscript').first().innerHTML()).toContain('http-equiv="refresh"')
  })
})
