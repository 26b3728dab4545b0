// The turn as a story (issue 13), as people read it in Chromium: one line per player on the turn
// report and in the game's history, your own first and marked, your column first in the tables,
// cards in one human form, your robot ringed in the pictures, and the race chart on the game page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatSquare } from '../../src/engine/geometry.js'
import { membership } from '../../src/server/services/membership.js'
import { turnView } from '../../src/server/services/views.js'
import { beatOf } from '../../src/server/pages/turns.js'
import { PLAYERS, setUpGame, type Client } from '../server/helpers.js'
import { apart, catchGlides } from './glides.js'
import { hasChromium, startStack, type Stack } from './harness.js'
import { pageFor, text } from './people.js'

const CODE = /\b(FWD|RVS|LF90|RT90|UTRN|SLF|SRT|IDLE)\d?:\d+\b/

describe.skipIf(!hasChromium)('the turn as a story in Chromium', () => {
  let stack: Stack
  let gameId: string
  let ann: Client
  let annId: string
  beforeAll(async () => {
    stack = await startStack()
    const set = await setUpGame(stack.app, PLAYERS.slice(0, 3))
    gameId = set.gameId
    ann = set.players[1]! // the second seat (Bob): his column is not first in seat order, so "mine first" shows
    expect((await set.gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: '' })).status).toBe(200)
    for (const player of set.players) {
      const mine = (await player.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
      const cards = (mine.me.hand as string[]).slice(0, 5)
      expect((await player.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards })).status).toBe(201)
    }
    await stack.app.runDueWork()
    expect((await set.gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: '' })).status).toBe(200)
    annId = stack.app.services.games.seats(gameId).find((s) => s.user_id === stack.app.services.users.byEmail(PLAYERS[1]!.email)!.id)!.player_id
  })
  afterAll(async () => { await stack?.close() })

  it('tells the turn report as one line per player, mine first, with my column first and cards in words', { timeout: 120_000 }, async () => {
    const services = stack.app.services
    const m = membership(services, gameId, { user: services.users.byEmail(PLAYERS[1]!.email)! })
    const result = turnView(services, m, services.turns.byNumber(gameId, 1)!).result!
    const page = await pageFor(stack, ann)
    await page.goto(`${stack.origin}/games/${gameId}/turns/1`)
    const lines = page.locator('.story-panel .story li')
    expect(await lines.count()).toBe(3)
    const first = lines.first()
    expect(await first.getAttribute('data-player')).toBe(annId)
    expect(await first.getAttribute('class')).toBe('mine')
    const from = result.start.robots.find((r) => r.player === annId)!.at
    const to = result.end.robots.find((r) => r.player === annId)!.at
    const told = await text(first)
    expect(told.startsWith(`${PLAYERS[1]!.name} (you): `)).toBe(true)
    expect(told).toContain(from && to && formatSquare(from) === formatSquare(to) ? `stayed on ${formatSquare(to)}` : `${from ? formatSquare(from) : 'off the board'} → ${to ? formatSquare(to) : 'off the board'}`)
    // Names, never seat ids, and never a card code anywhere on the page people read.
    expect(await text(page.locator('.story-panel'))).not.toMatch(/\bp\d\b/)
    expect(await text(page.locator('main'))).not.toMatch(CODE)
    expect(await text(page.locator('#stage-1 tr[data-row="CARDS"]'))).toMatch(/\(\d+\)/)
    // My column first in every table.
    expect(await page.locator('#stage-1 thead th[data-player]').first().getAttribute('data-player')).toBe(annId)
    expect(await page.locator('#end thead th[data-player]').first().getAttribute('data-player')).toBe(annId)
    // My robot ringed in the pictures (the stage pictures are images: fetch one as the page does).
    const src = (await page.locator('#stage-1 img').first().getAttribute('src'))!
    const svg = await page.evaluate(async (url) => (await fetch(url)).text(), src)
    expect(svg).toContain(`class="robot mine" data-player="${annId}"`)
    await stack.shot(page, 'story-desktop-1-turn-report')
    await page.setViewportSize({ width: 390, height: 800 })
    await stack.shot(page, 'story-phone-1-turn-report', '.story-panel')
  })

  it('animates the turn stage by stage, with controls and keys, and holds still for reduced motion', { timeout: 120_000 }, async () => {
    const services = stack.app.services
    const m = membership(services, gameId, { user: services.users.byEmail(PLAYERS[1]!.email)! })
    const result = turnView(services, m, services.turns.byNumber(gameId, 1)!).result!
    const page = await pageFor(stack, ann)
    await page.goto(`${stack.origin}/games/${gameId}/turns/1`)
    const watch = page.locator('#watch')
    await watch.waitFor({ state: 'visible' })
    await page.locator('#watch .anim-board svg').waitFor()
    expect(await page.locator('#watch .anim-board svg title').first().textContent()).toBe('Turn 1: before stage 1')
    // Play: a robot that moves in stage 1 glides (its CSS transform is animated; caught the moment
    // it is sent, glides.ts), then stage 2's picture comes. That picture is held back, as on a slow
    // connection, until Pause is pressed: the player stops where its label is, on stage 2, and the
    // picture still comes (and no deadline of the test races stage 2's own glides).
    const mover = result.stages[0]!.events.find((e) => e.kind === 'moved')
    const caught = mover && 'player' in mover ? await catchGlides(page, { players: [mover.player], stage: 1, beat: beatOf(mover.time) }) : null
    let release = () => {}
    const held = new Promise<void>((go) => { release = go })
    await page.route('**/before-2.svg', async (route) => { await held; await route.continue() })
    await page.getByRole('button', { name: '▶ Play' }).click()
    if (caught) {
      const [glide] = await caught()
      expect(glide!.moved, 'the robot glides').toBe(true)
      expect(apart(glide!.from!, glide!.to!)).toBeGreaterThan(2)
    }
    await stack.shot(page, 'story-desktop-3-animating', '#watch')
    await page.waitForFunction(() => document.getElementById('watch')!.getAttribute('data-stage') === '2', undefined, { timeout: 20_000 })
    await page.getByRole('button', { name: '❚❚ Pause' }).click()
    release()
    await page.waitForFunction(() => document.querySelector('#watch .anim-board svg title')?.textContent === 'Turn 1: before stage 2', undefined, { timeout: 20_000 })
    await page.unroute('**/before-2.svg')
    expect(await text(page.locator('#watch .anim-stage'))).toMatch(/^Stage 2 of /)
    for (const robot of result.stages[0]!.robots) {
      if (!robot.at || robot.mode === 'destroyed') continue
      expect(await page.locator(`#watch g.robot[data-player="${robot.player}"]`).getAttribute('data-square')).toBe(formatSquare(robot.at))
    }
    // Previous / next stage, and the arrow keys while the controls have focus.
    await page.getByRole('button', { name: '◀ Previous stage' }).click()
    await page.waitForFunction(() => document.getElementById('watch')!.getAttribute('data-stage') === '1')
    await page.getByRole('button', { name: 'Next stage ▶' }).focus()
    await page.keyboard.press('ArrowRight')
    await page.waitForFunction(() => document.getElementById('watch')!.getAttribute('data-stage') === '2')
    expect(page.url()).toMatch(/\/turns\/1$/) // the key stepped the player, not the page

    // Reduced motion: nothing glides; the stages still follow each other.
    const still = await (await stack.context({})).newPage()
    await still.emulateMedia({ reducedMotion: 'reduce' })
    const cookie = (await page.context().cookies()).find((c) => c.name === 'botwars_session')!
    await still.context().addCookies([cookie])
    await still.goto(`${stack.origin}/games/${gameId}/turns/1`)
    await still.locator('#watch .anim-board svg').waitFor()
    await still.getByRole('button', { name: '▶ Play' }).click()
    await still.waitForFunction(() => Number(document.getElementById('watch')!.getAttribute('data-played')) >= 1) // it goes on by itself
    const transitions = await still.locator('#watch g.robot').evaluateAll((gs) => gs.map((g) => (g as unknown as { style: { transition: string } }).style.transition))
    expect(transitions.every((t) => t === '' || t === 'none')).toBe(true)
  })

  it('shows the story in the game history and the race chart, readable without JavaScript', { timeout: 120_000 }, async () => {
    const page = await pageFor(stack, ann, { javaScript: false })
    await page.goto(`${stack.origin}/games/${gameId}`)
    const turn1 = page.locator('.turn-list > li[data-turn="1"]')
    expect(await turn1.locator('.story li').count()).toBe(3)
    expect(await turn1.locator('.story li').first().getAttribute('data-player')).toBe(annId)
    const chart = page.locator('.race-chart')
    expect(await chart.locator('path.line').count()).toBe(6) // 3 players, flags and HP
    expect(await chart.locator(`path.line[data-player="${annId}"]`).first().getAttribute('stroke-width')).toBe('5')
    expect(await chart.locator('.key').first().textContent()).toMatch(/⚑/)
    await stack.shot(page, 'story-desktop-2-game-history', 'section[aria-labelledby="history-heading"]')
    // A spectator sees the same history, with nobody's line marked as theirs.
    const watcher = await (await stack.context({ phone: true })).newPage()
    await watcher.goto(`${stack.origin}/watch/${stack.app.services.games.byId(gameId)!.public_token}`)
    expect(await watcher.locator('.turn-list .story li').count()).toBe(3)
    expect(await watcher.locator('.turn-list .story li.mine').count()).toBe(0)
    expect(await watcher.locator('.race-chart path.line[stroke-width="5"]').count()).toBe(0)
    await stack.shot(watcher, 'story-phone-2-spectator-game')
  })
})
