// The animated replay moves robots together where the rules move them together (issue 13): in a
// conveyor step every robot on a belt glides at once (R18, R19), not one after another. Caught in
// Chromium the moment the step begins: both robots are sent together, and half-way through their
// glides both are on their way. Card moves keep their priority order (R5), so one card's robot glides at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { membership } from '../../src/server/services/membership.js'
import { dealtState } from '../../src/server/services/deal.js'
import { turnView } from '../../src/server/services/views.js'
import { beatOf } from '../../src/server/pages/turns.js'
import { PLAYERS, setUpGame, type Client } from '../server/helpers.js'
import { hasChromium, startStack, type Stack } from './harness.js'
import { pageFor } from './people.js'

/** Turns first, so the robots stay on their belts in stage 1. */
const TURNS_FIRST = ['RT90', 'LF90', 'UTRN']
/** A robot's glide as caught in the page: its computed place at the glide's start, middle and end. */
type Glide = { p: string; moved: boolean; from?: number[]; mid?: number[]; to?: number[] }
const rank = (card: string) => { const i = TURNS_FIRST.indexOf(card.split(':')[0]!); return i < 0 ? TURNS_FIRST.length : i }

describe.skipIf(!hasChromium)('the animated replay in Chromium', () => {
  let stack: Stack
  let gameId: string
  let ann: Client
  let players: string[]
  beforeAll(async () => {
    stack = await startStack()
    const set = await setUpGame(stack.app, PLAYERS.slice(0, 2), { board: 'conveyor-works' })
    gameId = set.gameId
    ann = set.players[0]!
    expect((await set.gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: '' })).status).toBe(200)
    // Both robots on express belts (conveyor-works: r11c9 runs west, r9c5 east), real, facing north.
    const turn = stack.app.services.turns.current(gameId)!
    const dealt = dealtState(turn)
    const spots = [{ row: 11, col: 9 }, { row: 9, col: 5 }]
    dealt.robots = dealt.robots.map((r, i) => ({ ...r, at: spots[i]!, facing: 'N', mode: 'real' }))
    players = dealt.robots.map((r) => r.player)
    stack.app.db.prepare('UPDATE turns SET dealt_state_json = ? WHERE id = ?').run(JSON.stringify(dealt), turn.id)
    for (const player of set.players) {
      const mine = (await player.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
      const cards = [...(mine.me.hand as string[])].sort((a, b) => rank(a) - rank(b)).slice(0, 5)
      expect((await player.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards })).status).toBe(201)
    }
    await stack.app.runDueWork()
    expect((await set.gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: '' })).status).toBe(200)
  })
  afterAll(async () => { await stack?.close() })

  it('glides every robot on a belt at once in a conveyor step', { timeout: 120_000 }, async () => {
    const services = stack.app.services
    const m = membership(services, gameId, { user: services.users.byEmail(PLAYERS[0]!.email)! })
    const result = turnView(services, m, services.turns.byNumber(gameId, 1)!).result!
    // The first stage where both robots ride a belt in the same conveyor step.
    const together = result.stages.map((s, i) => {
      const byBeat = new Map<string, Set<string>>()
      for (const e of s.events) {
        if (e.kind !== 'moved' || e.cause !== 'conveyor') continue
        const beat = beatOf(e.time)
        byBeat.set(beat, (byBeat.get(beat) ?? new Set()).add(e.player))
      }
      const beat = [...byBeat].find(([, who]) => players.every((p) => who.has(p)))?.[0]
      return beat ? { stage: i + 1, beat } : null
    }).find(Boolean)
    expect(together, 'a stage where both robots ride belts in one step').toBeTruthy()
    const { stage, beat } = together!

    const page = await pageFor(stack, ann)
    await page.goto(`${stack.origin}/games/${gameId}/turns/1`)
    await page.locator('#watch .anim-board svg').waitFor()
    for (let k = 1; k < stage; k++) await page.getByRole('button', { name: 'Next stage ▶' }).click()
    await page.waitForFunction((k) => document.getElementById('watch')!.getAttribute('data-stage') === String(k)
      && document.querySelector('#watch .anim-board svg title')?.textContent === `Turn 1: before stage ${k}`, stage)

    // The moment the conveyor step's first robot is sent on its way, caught in the page itself: a
    // MutationObserver's callback runs in the same turn of the event loop as the style changes it
    // reports, before the browser can paint a frame, so no sampling of a running clock can miss it
    // (a loaded machine skips frames for longer than a glide lasts). In that callback every robot of
    // the step must already have its glide: set in the same turn, they start on the same frame; a
    // robot sent after the first one's glide would have none yet. Each glide is paused, looked at
    // from its start, its middle and its end, and let run on as it was.
    await page.evaluate(({ ps, beat, stage }) => {
      const store = window as unknown as { glides?: Glide[] }
      const watch = document.getElementById('watch')!
      const robotOf = (p: string) => document.querySelector(`#watch g.robot[data-player="${p}"]`)!
      const at = (g: Element) => { const m = new DOMMatrix(getComputedStyle(g).transform); return [m.e, m.f] }
      new MutationObserver((records, observer) => {
        if (watch.getAttribute('data-stage') !== String(stage) || watch.getAttribute('data-beat') !== beat) return
        const styled = new Set(records.filter((r) => r.attributeName === 'style').map((r) => r.target))
        if (!ps.some((p) => styled.has(robotOf(p)))) return // the step has begun; no robot sent yet
        observer.disconnect()
        store.glides = ps.map((p) => {
          const g = robotOf(p)
          const glide = g.getAnimations().find((a) => a instanceof CSSTransition && a.transitionProperty === 'transform')
          if (!styled.has(g) || !glide) return { p, moved: false }
          const was = glide.currentTime
          const length = Number(glide.effect!.getTiming().duration)
          glide.pause()
          const seen = [0, length / 2, length].map((t) => { glide.currentTime = t; return at(g) })
          glide.currentTime = was ?? 0
          glide.play()
          return { p, moved: true, from: seen[0], mid: seen[1], to: seen[2] }
        })
      }).observe(watch, { subtree: true, attributes: true, attributeFilter: ['style', 'data-beat'] })
    }, { ps: players, beat, stage })
    await page.getByRole('button', { name: '▶ Play' }).click()
    const glides = await (await page.waitForFunction(() => (window as unknown as { glides?: Glide[] }).glides, undefined, { timeout: 20_000 })).jsonValue() as Glide[]
    await stack.shot(page, 'replay-desktop-1-conveyor-together', '#watch')
    // Both were sent in that one moment, and half-way through, each is on its way: it has left
    // where it stood and not yet come where the belt takes it.
    expect(glides.filter((g) => !g.moved).map((g) => g.p), 'robots not gliding when the conveyor step began').toEqual([])
    const apart = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!)
    for (const { from, mid, to } of glides) {
      expect(apart(from!, mid!)).toBeGreaterThan(2)
      expect(apart(mid!, to!)).toBeGreaterThan(2)
    }

    // The stage ends where the engine put them.
    await page.waitForFunction((k) => Number(document.getElementById('watch')!.getAttribute('data-played')) >= k, stage, { timeout: 20_000 })
    await page.getByRole('button', { name: /Pause|Play/ }).click()
  })
})
