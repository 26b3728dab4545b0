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
import { apart, catchGlides } from './glides.js'
import { hasChromium, startStack, type Stack } from './harness.js'
import { pageFor } from './people.js'

/** Turns first, so the robots stay on their belts in stage 1. */
const TURNS_FIRST = ['RT90', 'LF90', 'UTRN']
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

    // Caught the moment the conveyor step's first robot is sent (glides.ts), whatever frames the browser skips.
    const caught = await catchGlides(page, { players, stage, beat })
    await page.getByRole('button', { name: '▶ Play' }).click()
    const glides = await caught()
    await stack.shot(page, 'replay-desktop-1-conveyor-together', '#watch')
    // Both were sent in that one moment, and half-way through, each is on its way: it has left
    // where it stood and not yet come where the belt takes it.
    expect(glides.filter((g) => !g.moved).map((g) => g.player), 'robots not gliding when the conveyor step began').toEqual([])
    for (const { from, mid, to } of glides) {
      expect(apart(from!, mid!)).toBeGreaterThan(2)
      expect(apart(mid!, to!)).toBeGreaterThan(2)
    }

    // The stage ends where the engine put them.
    await page.waitForFunction((k) => Number(document.getElementById('watch')!.getAttribute('data-played')) >= k, stage, { timeout: 20_000 })
    await page.getByRole('button', { name: /Pause|Play/ }).click()
  })
})
