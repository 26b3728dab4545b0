// The server's bots plan in a worker thread (services/bot-plans.ts, plugins/bot-planner.ts), so a
// practice turn against strong bots never holds up anybody else's request; and their programs are
// still exactly the bots' choice, stored only while the turn they were planned for is open, with a
// worker that dies replaced and a turn that comes due while a plan is pending closed with the bot's
// program all the same. Real app, real SQLite file, real worker thread, loopback HTTP.
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { seatOrders } from '../../src/bots/seat-decision.js'
import { formatCard } from '../../src/engine/deck.js'
import type { GameState } from '../../src/engine/types.js'
import { startBotPlanner } from '../../src/server/plugins/bot-planner.js'
import { createPracticeGame } from '../../src/server/services/bots.js'
import { DAY, signIn, tempDir, testApp, type TestApp } from '../server/helpers.js'

/** The app's log lines at warn and above, to see what was logged. */
function logged() {
  const lines: string[] = []
  return { lines, logger: { level: 'warn', stream: { write: (line: string) => { lines.push(line) } } } }
}

/** Lets the event loop turn until `done()` (no clock: the worker answers when it answers). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve))
}

async function practiceAgainst(bots: ('greedy' | 'strong')[]): Promise<string> {
  if (!t.app.services.users.byEmail('solo@example.org')) await signIn(t.app, 'solo@example.org', 'Solo')
  const user = t.app.services.users.byEmail('solo@example.org')
  // Through the service, so no request waits for the plans: the test looks while they are under way.
  return createPracticeGame(t.app.services, user!.id, { board: 'training-floor', bots }).id
}

let t: TestApp
afterEach(async () => { await t?.close() })

/** What the seat's bot chooses for turn `number` as dealt: the bots' own pure function, in this thread. */
function botChoice(gameId: string, number: number, player: string): string[] {
  const s = t.app.services
  const game = s.games.byId(gameId)!
  const dealt = JSON.parse(s.turns.byNumber(gameId, number)!.dealt_state_json) as GameState
  const level = s.games.seats(gameId).find((seat) => seat.player_id === player)!.bot as 'strong'
  return seatOrders(s.board(game), dealt, player, level, game.seed).cards.map(formatCard)
}

function botSubmissions(gameId: string, number: number) {
  const s = t.app.services
  const turn = s.turns.byNumber(gameId, number)!
  const bots = new Set(s.games.seats(gameId).filter((seat) => seat.bot).map((seat) => seat.player_id))
  return s.turns.latestSubmissions(turn.id).filter((row) => bots.has(row.player_id))
}

/** The first cards of the hand, a legal program for a robot with nothing fused. */
function firstCards(gameId: string, number: number, player: string): string[] {
  const dealt = JSON.parse(t.app.services.turns.byNumber(gameId, number)!.dealt_state_json) as GameState
  return dealt.hands[player]!.slice(0, 5).map(formatCard)
}

describe('bots plan in a worker thread', () => {
  it('answers another request while a practice turn against 7 strong bots is being planned', async () => {
    const order: string[] = []
    let port = 0
    let getAnswered: Promise<void> | null = null
    t = await testApp({
      // The GET is sent from inside the transaction that closes the practice turn: from then on the
      // server deals the next turn and its 7 strong bots plan. It can only be answered once the
      // event loop is free; before this change that was after the submission's own answer.
      crashPoint: (name) => {
        if (name !== 'close-turn' || getAnswered) return
        getAnswered = fetch(`http://127.0.0.1:${port}/api/v1/boards`).then(async (res) => {
          await res.text()
          order.push(`get ${res.status}`)
        })
      },
      // The worker's plans are held until the GET is answered, so the order does not depend on how
      // fast the worker is (the plans are computed in the worker meanwhile).
      botPlanHooks: { beforeStore: () => getAnswered ?? undefined },
    })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.app.server.address() as AddressInfo).port
    const me = await signIn(t.app, 'solo@example.org', 'Solo')
    const started = await me.call('POST', '/api/v1/practice', { board: 'grand-factory', bots: Array(7).fill('strong') })
    expect(started.status, started.text).toBe(201)
    const gameId = started.json.id
    expect(botSubmissions(gameId, 1)).toHaveLength(7)

    const res = await fetch(`http://127.0.0.1:${port}/api/v1/games/${gameId}/turns/1/submission`, {
      method: 'POST', headers: { ...me.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ cards: firstCards(gameId, 1, 'P1') }),
    })
    await res.text()
    order.push(`post ${res.status}`)
    await getAnswered
    expect(order).toEqual(['get 200', 'post 201'])
    // The submission's answer waited for the next turn's bots: they are in, as the bots chose.
    expect(t.app.services.turns.byNumber(gameId, 1)!.status).toBe('published')
    const planned = botSubmissions(gameId, 2)
    expect(planned).toHaveLength(7)
    for (const row of planned) expect(JSON.parse(row.cards_json)).toEqual(botChoice(gameId, 2, row.player_id))
  }, 120_000)
})

describe('a bot plan that comes too late or fails', () => {
  it('a turn that comes due while its bot\'s plan is pending closes with the bot\'s program; the late plan is dropped', async () => {
    let reached = () => {}
    const atStore = new Promise<void>((resolve) => { reached = resolve })
    let release = () => {}
    const held = new Promise<void>((resolve) => { release = resolve })
    let firstTurn: number | null = null
    const log = logged()
    t = await testApp({
      logger: log.logger,
      botPlanHooks: { beforeStore: (turnId) => { firstTurn ??= turnId; if (turnId !== firstTurn) return undefined; reached(); return held } },
    })
    const gameId = await practiceAgainst(['greedy'])
    await atStore // the worker has answered; the plan waits to be stored
    expect(botSubmissions(gameId, 1)).toHaveLength(0)
    t.clock.now += 31 * DAY
    expect(t.app.runDueWork().closed).toBe(1)
    const result = JSON.parse(t.app.services.turns.byNumber(gameId, 1)!.result_json!)
    expect(result.registers.P2.map(formatCard)).toEqual(botChoice(gameId, 1, 'P2'))
    expect(result.start.events.some((e: any) => e.kind === 'program-filled' && e.player === 'P2')).toBe(false)
    release()
    await t.app.botsPlanned()
    // The late plan found turn 1 closed: dropped, never a second program; turn 2's bot planned as usual.
    expect(botSubmissions(gameId, 1)).toHaveLength(1)
    expect(log.lines.some((line) => line.includes('stale bot plans dropped'))).toBe(true)
    expect(botSubmissions(gameId, 2).map((row) => JSON.parse(row.cards_json))).toEqual([botChoice(gameId, 2, 'P2')])
  }, 120_000)

  it('a worker that dies while planning is replaced and the plans come from the new one, the same', async () => {
    const log = logged()
    t = await testApp({ logger: log.logger })
    const planner = t.app.services.botPlanning!.planner
    const gameId = await practiceAgainst(['strong', 'strong', 'strong'])
    await until(() => planner.inHand > 0)
    await planner.killWorker()
    await t.app.botsPlanned()
    expect(planner.stats.restarts).toBe(1)
    expect(log.lines.some((line) => line.includes("the bot planner's worker stopped"))).toBe(true)
    const rows = botSubmissions(gameId, 1)
    expect(rows.map((row) => row.player_id).sort()).toEqual(['P2', 'P3', 'P4'])
    for (const row of rows) expect(JSON.parse(row.cards_json)).toEqual(botChoice(gameId, 1, row.player_id))
  }, 120_000)

  it('a plan whose worker dies twice fails: logged, and the turn closes by the rules, R9 filling that seat', async () => {
    const log = logged()
    t = await testApp({ logger: log.logger })
    const planner = t.app.services.botPlanning!.planner
    const me = await signIn(t.app, 'solo@example.org', 'Solo')
    const gameId = await practiceAgainst(['strong'])
    await until(() => planner.inHand > 0)
    await planner.killWorker()
    await until(() => planner.stats.restarts === 1)
    await planner.killWorker()
    await t.app.botsPlanned()
    expect(log.lines.some((line) => line.includes('bot plans failed'))).toBe(true)
    expect(botSubmissions(gameId, 1)).toHaveLength(0)
    // The person's program is the last one the turn waits for: it closes at once, as practice turns do.
    const sent = await me.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: firstCards(gameId, 1, 'P1') })
    expect(sent.status, sent.text).toBe(201)
    const turn = t.app.services.turns.byNumber(gameId, 1)!
    expect(turn.status).toBe('published')
    const result = JSON.parse(turn.result_json!)
    expect(result.start.events.some((e: any) => e.kind === 'program-filled' && e.player === 'P2')).toBe(true)
    // The next turn's bot plans on a new worker.
    expect(botSubmissions(gameId, 2)).toHaveLength(1)
  }, 120_000)

  it('a bot that throws fails its plan alone: the worker goes on with the next', async () => {
    const warnings: string[] = []
    const planner = startBotPlanner((message) => warnings.push(message))
    try {
      t = await testApp()
      const gameId = await practiceAgainst(['greedy'])
      await t.app.botsPlanned()
      const s = t.app.services
      const game = s.games.byId(gameId)!
      const dealt = JSON.parse(s.turns.byNumber(gameId, 1)!.dealt_state_json) as GameState
      const job = { gameId, boardJson: game.board_json, gameSeed: game.seed, dealt, player: 'P2', level: 'greedy' as const }
      await expect(planner.plan([{ ...job, player: 'nobody' }])).rejects.toThrow(/a bot failed to plan: seatViewOf: no robot for nobody/)
      const [orders] = await planner.plan([job])
      expect(orders!.cards.map(formatCard)).toEqual(botChoice(gameId, 1, 'P2'))
      expect(planner.stats.restarts).toBe(0)
      expect(warnings).toEqual([])
    } finally {
      await planner.stop()
    }
  }, 120_000)
})

describe('stopping with plans under way', () => {
  it('closes without storing them, and the next start plans them again', async () => {
    const dir = tempDir()
    let reached = () => {}
    const atStore = new Promise<void>((resolve) => { reached = resolve })
    let release = () => {}
    const held = new Promise<void>((resolve) => { release = resolve })
    const log = logged()
    t = await testApp({ dir, logger: log.logger, botPlanHooks: { beforeStore: () => { reached(); return held } } })
    const gameId = await practiceAgainst(['greedy', 'strong'])
    await atStore
    await t.app.close() // the database closes with the plans not stored
    release()
    await new Promise((resolve) => setImmediate(resolve))
    expect(log.lines.filter((line) => /"level":50/.test(line))).toEqual([])

    t = await testApp({ dir })
    expect(botSubmissions(gameId, 1)).toHaveLength(0)
    await t.app.planWaitingBots()
    const rows = botSubmissions(gameId, 1)
    expect(rows.map((row) => row.player_id).sort()).toEqual(['P2', 'P3'])
    for (const row of rows) expect(JSON.parse(row.cards_json)).toEqual(botChoice(gameId, 1, row.player_id))
  }, 120_000)
})
