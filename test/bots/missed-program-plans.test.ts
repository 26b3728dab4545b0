// The missed-program bot (A15) plans ahead, in the worker: after a turn is dealt, a fallback
// program for each person's seat is planned and stored, and the close uses it for a seat with no
// program instead of computing it on the event loop. A fallback is as secret as a program, counts
// as no submission, and the turn closes with the very program the close would have computed (with
// the plan pending or without it: the bot decides from the turn as dealt). Real app, real SQLite file,
// real worker thread; live streams read over loopback HTTP.
import { afterEach, describe, expect, it } from 'vitest'
import { seatOrders } from '../../src/bots/seat-decision.js'
import { cardLabel } from '../../src/render/cards.js'
import { formatCard } from '../../src/engine/deck.js'
import type { GameState, TurnOrders } from '../../src/engine/types.js'
import { resolveFromSubmissions } from '../../src/server/services/resolve.js'
import { latestPrograms } from '../../src/server/services/turns.js'
import { messages, openStream, waitUntil } from '../browser/streams.js'
import { firstCards } from '../mail/helpers.js'
import { client, HOUR, PLAYERS, setUpGame, tempDir, testApp, type Client, type TestApp } from '../server/helpers.js'

let t: TestApp
afterEach(async () => { await t?.close() })

/** The stored fallbacks of turn `number`, by player: what the close would use. */
function fallbacks(gameId: string, number: number): Record<string, string[]> {
  const turn = t.app.services.turns.byNumber(gameId, number)!
  const rows = t.app.services.db.prepare('SELECT player_id, orders_json FROM missed_program_fallbacks WHERE turn_id = ? ORDER BY player_id')
    .all(turn.id) as { player_id: string; orders_json: string }[]
  return Object.fromEntries(rows.map((row) => [row.player_id, (JSON.parse(row.orders_json) as TurnOrders).cards.map(formatCard)]))
}

/** What the game's missed-program bot chooses for `player` in turn `number` as dealt, in this thread. */
function botChoice(gameId: string, number: number, player: string, level: 'greedy' | 'strong'): string[] {
  const s = t.app.services
  const game = s.games.byId(gameId)!
  const dealt = JSON.parse(s.turns.byNumber(gameId, number)!.dealt_state_json) as GameState
  return seatOrders(s.board(game), dealt, player, level, game.seed).cards.map(formatCard)
}

async function missedBotGame(level: 'greedy' | 'strong', game: Record<string, unknown> = {}) {
  const set = await setUpGame(t.app, PLAYERS.slice(0, 2), { missedProgramBot: level, reviewWindowHours: 24, ...game })
  const started = await set.gm.call('POST', `/api/v1/games/${set.gameId}/start`)
  expect(started.status, started.text).toBe(200)
  return set
}

/** Moves the clock to the turn's deadline and lets the clockwork close it (and any other turn due). */
function closeAtDeadline(gameId: string, number: number): void {
  t.clock.now = Math.max(t.clock.now, t.app.services.turns.byNumber(gameId, number)!.deadline)
  t.app.runDueWork()
  expect(t.app.services.turns.byNumber(gameId, number)!.status).toBe('draft')
}

const resultOf = (gameId: string, number: number) => JSON.parse(t.app.services.turns.byNumber(gameId, number)!.result_json!)
const filled = (result: any, player: string) => result.start.events.some((e: any) => e.kind === 'program-filled' && e.player === player)

describe('a fallback is never shown before publication', () => {
  it('to another player, to the GM who plays (even locked), to a spectator: not in the API, pages, live streams or mail', async () => {
    t = await testApp()
    const origin = await t.app.listen({ host: '127.0.0.1', port: 0 })
    const { gm, gameId, players } = await missedBotGame('greedy', { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow' })
    const [ann] = players as [Client, Client]
    const publicToken = (await gm.call('GET', `/api/v1/games/${gameId}`)).json.publicToken as string
    const spectator = client(t.app, 'spectator')
    const streams = [
      openStream({ origin }, `/games/${gameId}/live`, { cookie: ann.headers.cookie! }),
      openStream({ origin }, `/games/${gameId}/live`, { cookie: gm.headers.cookie! }),
      openStream({ origin }, `/watch/${publicToken}/live`),
    ]
    try {
      await waitUntil(() => streams.every((s) => messages(s.text()).some((m) => m.data !== null)))
      await t.app.botsPlanned()
      // Planned for every person's seat (the GM's too), as the bot chooses.
      const planned = fallbacks(gameId, 1)
      expect(Object.keys(planned)).toEqual(['P1', 'P2', 'P3'])
      for (const [player, cards] of Object.entries(planned)) expect(cards).toEqual(botChoice(gameId, 1, player, 'greedy'))

      // Ann sends her program; the GM sends and locks theirs, and so sees the programs that are in. Bob misses.
      expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await firstCards(ann, gameId, 1) })).status).toBe(201)
      expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await firstCards(gm, gameId, 1) })).status).toBe(201)
      expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/lock`, { confirm: true })).status).toBe(200)
      // A fallback is no submission: Bob counts as not in, and the turn does not close early.
      const view = (await ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
      expect(view.submitted.find((s: any) => s.player === 'P3').submitted).toBe(false)
      expect(t.app.runDueWork().closed).toBe(0)
      expect(Object.keys((await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.programs).sort()).toEqual(['P1', 'P2'])

      /** Bob's fallback, and the other seats' fallbacks the viewer has not seen as programs, in every form a card is written. */
      const secret = (viewer: string | null) => Object.entries(planned)
        .filter(([player]) => player !== viewer && !(viewer === 'P1' && player === 'P2'))
        .flatMap(([, cards]) => cards.flatMap((card) => [card, cardLabel(card)]))
      const read = async (c: Client) => {
        const cookie = c.headers.cookie ? { cookie: c.headers.cookie } : {}
        const bodies: string[] = []
        for (const url of [`/api/v1/games/${gameId}`, `/api/v1/games/${gameId}/history`, `/api/v1/games/${gameId}/turns/1`,
          `/api/v1/games/${gameId}/turns/1/submissions`, `/api/v1/public/${publicToken}`, `/api/v1/public/${publicToken}/turns/1`, '/api/v1/me']) {
          bodies.push((await c.call('GET', url)).text)
        }
        for (const url of [`/games/${gameId}`, `/games/${gameId}/turns/1`, `/games/${gameId}/turns/1/submit`, `/games/${gameId}/gm`, `/watch/${publicToken}`, `/watch/${publicToken}/turns/1`]) {
          bodies.push((await t.app.inject({ method: 'GET', url, headers: cookie })).body)
        }
        return bodies
      }
      const expectUnseen = (bodies: string[], hidden: string[], who: string) => {
        expect(hidden.length).toBeGreaterThan(0)
        for (const body of bodies) for (const card of hidden) expect(body, `${who} sees ${card}`).not.toContain(card)
      }
      // The same answers do show each their own hand: what is looked for would be found.
      const dealt = JSON.parse(t.app.services.turns.byNumber(gameId, 1)!.dealt_state_json) as GameState
      const annSees = await read(ann)
      expect(annSees.join('\n')).toContain(cardLabel(dealt.hands.P2!.at(-1)!))
      expectUnseen(annSees, secret('P2'), 'Ann')
      expectUnseen(await read(gm), secret('P1'), 'the GM')
      expectUnseen(await read(spectator), secret(null), 'a spectator')
      // The live streams (Ann's, the GM's, a spectator's) and every mail to anyone but Bob.
      const [annLive, gmLive, watchLive] = streams.map((s) => messages(s.text()).map((m) => JSON.stringify(m.data ?? '')).join('\n'))
      expectUnseen([annLive!], secret('P2'), 'Ann live')
      expectUnseen([gmLive!], secret('P1'), 'the GM live')
      expectUnseen([watchLive!], secret(null), 'the spectators\' live')
      const mail = t.app.services.outbox.all().filter((m) => m.recipient !== PLAYERS[1]!.email).map((m) => JSON.stringify(m))
      expectUnseen(mail, planned.P3!.flatMap((card) => [card, cardLabel(card)]), 'a mail')

      // The close plays Bob's fallback; the draft is the GM's alone; once published it says the server filled Bob's program.
      closeAtDeadline(gameId, 1)
      expectUnseen(await read(ann), secret('P2'), 'Ann in review')
      expectUnseen(await read(spectator), secret(null), 'a spectator in review')
      t.clock.now += 25 * HOUR
      expect(t.app.runDueWork().published).toBe(1)
      const published = (await spectator.call('GET', `/api/v1/public/${publicToken}/turns/1`)).json
      expect(published.result.registers.P3).toEqual(planned.P3)
      expect(filled(resultOf(gameId, 1), 'P3')).toBe(true)
      expect([filled(resultOf(gameId, 1), 'P1'), filled(resultOf(gameId, 1), 'P2')]).toEqual([false, false])
      // Published: the turn's fallbacks are not kept.
      expect(fallbacks(gameId, 1)).toEqual({})
    } finally {
      for (const stream of streams) stream.close()
    }
  }, 60_000)
})

describe('the close and the stored fallback', () => {
  it('closing with the stored fallbacks gives the very draft that computing them at the close gives, byte for byte', async () => {
    t = await testApp()
    const { gm, gameId } = await missedBotGame('strong')
    await t.app.botsPlanned()
    expect(Object.keys(fallbacks(gameId, 1))).toEqual(['P1', 'P2'])
    closeAtDeadline(gameId, 1)
    const withFallbacks = t.app.services.turns.byNumber(gameId, 1)!.result_json
    // Nothing stored: re-resolving computes the bot's programs on the spot, as before fallbacks were planned.
    t.app.services.db.prepare('DELETE FROM missed_program_fallbacks').run()
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/resolve`, { reason: 'compare' })).status).toBe(200)
    expect(t.app.services.turns.byNumber(gameId, 1)!.result_json).toBe(withFallbacks)
    const result = resultOf(gameId, 1)
    for (const player of ['P1', 'P2']) {
      expect(result.registers[player].map(formatCard)).toEqual(botChoice(gameId, 1, player, 'strong'))
      expect(filled(result, player)).toBe(true)
    }
  }, 60_000)

  it('takes the stored fallback, not a program computed again (a stored row changed by hand shows which)', async () => {
    t = await testApp()
    const { gameId, players } = await missedBotGame('greedy')
    await t.app.botsPlanned()
    const other = await firstCards(players[1]!, gameId, 1)
    expect(other).not.toEqual(fallbacks(gameId, 1).P2)
    setStoredCards(gameId, 1, 'P2', other)
    closeAtDeadline(gameId, 1)
    expect(resultOf(gameId, 1).registers.P2.map(formatCard)).toEqual(other)
    expect(filled(resultOf(gameId, 1), 'P2')).toBe(true)
  }, 60_000)

  it('decides from the turn as dealt, not from the standing choices others sent (A15): the stored fallback is played', async () => {
    t = await testApp()
    const { gameId, players } = await missedBotGame('greedy')
    const [ann, bob] = players as [Client, Client]
    await t.app.botsPlanned()
    const dealt = JSON.parse(t.app.services.turns.byNumber(gameId, 1)!.dealt_state_json) as GameState
    const sacrificeAt = dealt.robots[0]!.sacrificeAt === 3 ? 4 : 3
    expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await firstCards(ann, gameId, 1), sacrificeAt, doubleWrench: 'option' })).status).toBe(201)
    // A close that decides for itself is handed no more than the turn as dealt: Ann's new choices are secret until published.
    const s = t.app.services
    const game = s.games.byId(gameId)!
    const seen: GameState[] = []
    resolveFromSubmissions(s.board(game), dealt, latestPrograms(s, s.turns.byNumber(gameId, 1)!.id), (state, player) => {
      seen.push(state)
      return [{ ...seatOrders(s.board(game), state, player, 'greedy', game.seed), rebootNext: false, filledByServer: true }, state]
    })
    expect(seen.map((state) => ({ ...state, rng: dealt.rng }))).toEqual([dealt])
    // So the fallback planned before Ann's choices is still the bot's program, and the close plays it.
    const other = await firstCards(bob, gameId, 1)
    setStoredCards(gameId, 1, 'P2', other)
    closeAtDeadline(gameId, 1)
    expect(resultOf(gameId, 1).registers.P2.map(formatCard)).toEqual(other)
  }, 60_000)
})

/** Replaces the stored fallback's cards by hand, so that a test can tell it was played. */
function setStoredCards(gameId: string, number: number, player: string, cards: string[]): void {
  const turn = t.app.services.turns.byNumber(gameId, number)!
  const row = t.app.services.db.prepare('SELECT orders_json FROM missed_program_fallbacks WHERE turn_id = ? AND player_id = ?').get(turn.id, player) as { orders_json: string }
  const orders = JSON.parse(row.orders_json) as { cards: unknown[] }
  const dealt = JSON.parse(turn.dealt_state_json) as GameState
  orders.cards = cards.map((text) => dealt.hands[player]!.find((card) => formatCard(card) === text))
  t.app.services.db.prepare('UPDATE missed_program_fallbacks SET orders_json = ? WHERE turn_id = ? AND player_id = ?').run(JSON.stringify(orders), turn.id, player)
}

/** A plan held before it is stored: `atStore` once the worker has answered, stored after `release()`. */
function heldPlan() {
  let reached = () => {}
  const atStore = new Promise<void>((resolve) => { reached = resolve })
  let release = () => {}
  const held = new Promise<void>((resolve) => { release = resolve })
  return { atStore, release: () => release(), hold: () => { reached(); return held } }
}

describe('a fallback plan that is pending, or lost', () => {
  it('a close while the plan is pending gives the same draft as a close with it stored; the late plan is dropped', async () => {
    let heldGame: string | null = null
    const plan = heldPlan()
    const lines: string[] = []
    t = await testApp({
      logger: { level: 'warn', stream: { write: (line: string) => { lines.push(line) } } },
      botPlanHooks: { beforeFallbacksStored: (turnId) => (t.app.services.turns.byId(turnId)?.game_id === heldGame ? plan.hold() : undefined) },
    })
    // Two games dealt from the same seed (testApp's): one with its fallbacks stored, one whose plan is held.
    const stored = (await missedBotGame('strong')).gameId
    await t.app.botsPlanned()
    expect(Object.keys(fallbacks(stored, 1))).toEqual(['P1', 'P2'])
    const pendingGm = await setUpGame(t.app, PLAYERS.slice(0, 2), { missedProgramBot: 'strong', reviewWindowHours: 24 })
    const pending = pendingGm.gameId
    heldGame = pending
    expect((await pendingGm.gm.call('POST', `/api/v1/games/${pending}/start`)).status).toBe(200)
    await plan.atStore
    expect(fallbacks(pending, 1)).toEqual({})
    expect(t.app.services.turns.byNumber(stored, 1)!.dealt_state_json).toBe(t.app.services.turns.byNumber(pending, 1)!.dealt_state_json)
    closeAtDeadline(pending, 1)
    closeAtDeadline(stored, 1)
    expect(t.app.services.turns.byNumber(pending, 1)!.result_json).toBe(t.app.services.turns.byNumber(stored, 1)!.result_json)
    plan.release()
    await t.app.botsPlanned()
    expect(fallbacks(pending, 1)).toEqual({})
    expect(lines.some((line) => line.includes('stale missed-program plans dropped'))).toBe(true)
  }, 60_000)

  it('plans lost to a stop are planned again at the next start, and before a due turn closes', async () => {
    const dir = tempDir()
    const plan = heldPlan()
    t = await testApp({ dir, botPlanHooks: { beforeFallbacksStored: plan.hold } })
    const { gameId } = await missedBotGame('greedy')
    await plan.atStore
    await t.app.close() // the database closes with the plans not stored
    plan.release()

    t = await testApp({ dir })
    expect(fallbacks(gameId, 1)).toEqual({})
    await t.app.planWaitingBots()
    expect(fallbacks(gameId, 1)).toEqual({ P1: botChoice(gameId, 1, 'P1', 'greedy'), P2: botChoice(gameId, 1, 'P2', 'greedy') })
    // Lost again (as if that start had failed to plan): the clockwork plans a due turn's fallbacks before it closes it.
    t.app.services.db.prepare('DELETE FROM missed_program_fallbacks').run()
    t.clock.now = t.app.services.turns.byNumber(gameId, 1)!.deadline
    await t.app.planDueBots()
    expect(Object.keys(fallbacks(gameId, 1))).toEqual(['P1', 'P2'])
  }, 60_000)
})
