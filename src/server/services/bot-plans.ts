// Bot seats' programs planned off the event loop (issue 15). Computing a strong bot's program takes
// up to ~150 ms, and a practice turn against seven of them held every other request of every player
// for 0.2–1.1 s when it was done inside the transaction that dealt the turn. Now:
//
// 1. the transaction that deals a turn (or seats a bot mid-turn) asks for the turn's plans
//    (planBotsSoon) and commits without them;
// 2. once it has committed, the turn's bot seats still without a program are read, and their
//    programs computed in the worker thread (plugins/bot-planner.ts) from that dealt state: the
//    bots' own pure function, so the same seed gives the same programs as before;
// 3. they are stored in one transaction that checks first that the turn is still the one planned
//    for (open, the same dealt state) and each seat still held by that bot without a program; a
//    stale plan is dropped. A practice turn whose last program this was closes there and then.
//
// What cannot go wrong: a turn that comes due while a plan is pending never closes without the
// bot's program; the close computes it itself (bot-seats.ts playMissingBots), exactly as the worker
// would, and the late plan is then dropped as stale. A plan that fails (the bot throws, its worker
// died twice) is logged, and the seat counts as nobody's for the turn: it holds up no close-early
// turn, and R9 fills its program when the turn closes. Plans lost to a crash or a restart are
// planned again by the clockwork (planWaitingTurns, from server.ts's tick).
//
// Without a planner (scripts and tools that build a context of their own), bots plan in the
// transaction that deals, as before (bot-seats.ts).
//
// The game's missed-program bot (A15) plans in the same worker: a fallback program for each
// person's seat, planned after the deal and played by the close for a seat that sent none
// (missed-program-plans.ts). No request waits for those; the clockwork plans them again too.
import type { BotLevel } from '../../bots/index.js'
import { formatCard } from '../../engine/deck.js'
import { needsProgram } from '../../engine/turn.js'
import type { GameState, RobotState, TurnOrders } from '../../engine/types.js'
import type { BotJob } from '../plugins/bot-plan-jobs.js'
import type { BotPlanner } from '../plugins/bot-planner.js'
import type { TurnRow } from '../repositories/turns.js'
import type { ServiceContext } from './context.js'
import { missedProgramBot, scheduleFallbacks } from './missed-program-plans.js'
import { failedPlanKey, markIfEveryProgramIn } from './programs-in.js'

/** Test-only hooks into the planning of a turn. */
export interface BotPlanHooks {
  /** Awaited after the worker has answered and before the plans are stored (tests hold a plan pending with it). */
  beforeStore?(turnId: number): Promise<void> | null | undefined
  /** The same for the missed-program bot's fallbacks (missed-program-plans.ts). */
  beforeFallbacksStored?(turnId: number): Promise<void> | null | undefined
}

interface Log {
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

export interface BotPlanning {
  planner: BotPlanner
  log: Log
  /** Closes a turn (services/turns.ts closeTurn), given by app.ts so that this file depends on no turn service. */
  closeTurn(turnId: number): void
  hooks: BotPlanHooks
  /** Turns being planned, with their game: what a request that dealt a turn waits for (plansSettled). */
  inFlight: Map<number, { gameId: string; again: boolean; done: Promise<void> }>
  /** `turnId:player` of bot seats whose plan failed: R9 fills them at the close (programs-in.ts, playMissingBots). */
  failed: Set<string>
  /** Turns whose missed-program fallbacks are being planned (missed-program-plans.ts): no request waits for them. */
  fallbacks: Map<number, Promise<void>>
}

export function botPlanning(planner: BotPlanner, log: Log, closeTurn: (turnId: number) => void, hooks: BotPlanHooks = {}): BotPlanning {
  return { planner, log, closeTurn, hooks, inFlight: new Map(), failed: new Set(), fallbacks: new Map() }
}

/** Stores a bot's orders as its seat's program, with the robot's standing choices as dealt (R28, R31). */
export function insertBotProgram(ctx: ServiceContext, turnId: number, robot: RobotState, orders: TurnOrders): void {
  ctx.turns.addSubmission({
    turn_id: turnId, player_id: robot.player, user_id: null, cards_json: JSON.stringify(orders.cards.map(formatCard)),
    reboot_next: orders.rebootNext ? 1 : 0, sacrifice_at: robot.sacrificeAt, double_wrench: robot.doubleWrench,
    facing: orders.facing ?? null, submitted_at: ctx.now(),
  })
}

/** The bot seats of an open turn whose robot must play and has no program yet, with their robots. */
export function botSeatsToPlay(ctx: ServiceContext, turn: TurnRow, dealt: GameState): { robot: RobotState; level: BotLevel }[] {
  const submitted = new Set(ctx.turns.submitters(turn.id))
  const out: { robot: RobotState; level: BotLevel }[] = []
  for (const seat of ctx.games.seats(turn.game_id)) {
    if (!seat.bot || seat.user_id !== null || submitted.has(seat.player_id)) continue
    const robot = dealt.robots.find((r) => r.player === seat.player_id)
    if (robot && needsProgram(robot)) out.push({ robot, level: seat.bot as BotLevel })
  }
  return out
}

/**
 * Asks for the bot seats' programs of `turn`, planned once the caller's transaction has committed
 * (a turn rolled back with it is simply not found). False when the context has no planner: the
 * caller then plans in its own transaction.
 */
export function planBotsSoon(ctx: ServiceContext, turn: Pick<TurnRow, 'id' | 'game_id'>): boolean {
  const planning = ctx.botPlanning
  if (!planning) return false
  schedule(ctx, planning, turn.id, turn.game_id)
  return true
}

function schedule(ctx: ServiceContext, planning: BotPlanning, turnId: number, gameId: string): Promise<void> {
  const running = planning.inFlight.get(turnId)
  if (running) {
    // A bot seated while this turn's plans were under way: plan again once they are stored.
    running.again = true
    return running.done
  }
  const entry = { gameId, again: false, done: Promise.resolve() }
  entry.done = (async () => {
    // A microtask later: the synchronous transaction that asked has committed (or rolled back).
    await null
    do {
      entry.again = false
      await planOnce(ctx, planning, turnId)
    } while (entry.again)
  })()
    .catch((err: unknown) => planning.log.error({ err, turnId }, 'bot plans could not be stored'))
    .finally(() => planning.inFlight.delete(turnId))
  planning.inFlight.set(turnId, entry)
  return entry.done
}

async function planOnce(ctx: ServiceContext, planning: BotPlanning, turnId: number): Promise<void> {
  // One synchronous read on the app's only connection: one state of the database.
  const turn = ctx.turns.byId(turnId)
  const game = turn && ctx.games.byId(turn.game_id)
  if (!turn || turn.status !== 'open' || !game || (game.status !== 'running' && game.status !== 'paused')) return
  const dealt = JSON.parse(turn.dealt_state_json) as GameState
  const seats = botSeatsToPlay(ctx, turn, dealt).filter(({ robot }) => !planning.failed.has(failedPlanKey(turnId, robot.player)))
  if (seats.length === 0) return
  const jobs: BotJob[] = seats.map(({ robot, level }) => ({ gameId: game.id, boardJson: game.board_json, gameSeed: game.seed, dealt, player: robot.player, level }))
  let orders: TurnOrders[]
  try {
    orders = await planning.planner.plan(jobs)
  } catch (err) {
    // The server is stopping: the plans are made again at the next start (planWaitingTurns).
    if (planning.planner.stopped) return
    planning.log.error({ err, turnId, players: jobs.map((j) => j.player) }, 'bot plans failed: R9 fills those seats when the turn closes')
    if (!ctx.db.open) return
    for (const job of jobs) planning.failed.add(failedPlanKey(turnId, job.player))
    // The seats count as nobody's now: a close-early turn waits for them no longer.
    if (ctx.write(() => turnComplete(ctx, turnId, turn.dealt_state_json, dealt))) planning.closeTurn(turnId)
    return
  }
  await planning.hooks.beforeStore?.(turnId)
  if (!ctx.db.open) return
  const { dropped, closeNow } = ctx.write(() => storePlans(ctx, turnId, turn.dealt_state_json, jobs, orders))
  if (dropped > 0) planning.log.warn({ turnId, dropped }, 'stale bot plans dropped: the turn or the seat changed while they were planned')
  if (closeNow) planning.closeTurn(turnId)
}

/** Inside a write transaction: the plans of a turn still open as dealt, each for a seat its bot still holds without a program. */
function storePlans(ctx: ServiceContext, turnId: number, dealtJson: string, jobs: readonly BotJob[], orders: readonly TurnOrders[]): { dropped: number; closeNow: boolean } {
  const turn = ctx.turns.byId(turnId)
  if (!turn || turn.status !== 'open' || turn.dealt_state_json !== dealtJson) return { dropped: jobs.length, closeNow: false }
  const dealt = jobs[0]!.dealt
  const still = new Map(botSeatsToPlay(ctx, turn, dealt).map((s) => [s.robot.player, s]))
  let dropped = 0
  jobs.forEach((job, i) => {
    const seat = still.get(job.player)
    if (seat?.level === job.level) insertBotProgram(ctx, turnId, seat.robot, orders[i]!)
    else dropped++
  })
  return { dropped, closeNow: turnComplete(ctx, turnId, dealtJson, dealt) }
}

/** Marks the turn complete if it is (programs-in.ts); whether it is a practice turn to close now. */
function turnComplete(ctx: ServiceContext, turnId: number, dealtJson: string, dealt: GameState): boolean {
  const turn = ctx.turns.byId(turnId)
  if (!turn || turn.status !== 'open' || turn.dealt_state_json !== dealtJson) return false
  markIfEveryProgramIn(ctx, turn.game_id, turnId, dealt)
  return ctx.bots.settings(turn.game_id)?.practice === 1 && ctx.turns.byId(turnId)!.programs_in === 1
}

/** Whether a plan for a turn of `gameId` is under way (what plansSettled would wait for), without waiting. */
export function plansPending(ctx: ServiceContext, gameId: string): boolean {
  for (const entry of ctx.botPlanning?.inFlight.values() ?? []) if (entry.gameId === gameId) return true
  return false
}

/**
 * Waits until no plan of the game (of any game without `gameId`, the missed-program bot's
 * fallbacks too) is under way; a practice turn closed by its bots' plans deals the next, planned
 * in turn. A request that dealt a turn answers once its bots are in, as before.
 */
export async function plansSettled(ctx: ServiceContext, gameId?: string): Promise<void> {
  const planning = ctx.botPlanning
  if (!planning) return
  for (;;) {
    const running = [...planning.inFlight.values()].filter((entry) => gameId === undefined || entry.gameId === gameId).map((entry) => entry.done)
    if (gameId === undefined) running.push(...planning.fallbacks.values())
    if (running.length === 0) return
    await Promise.all(running)
  }
}

/** At start-up: plans the bot seats and fallbacks of open turns still without them (plans lost to a crash or a stop). */
export function planWaitingTurns(ctx: ServiceContext): Promise<void> {
  const planning = ctx.botPlanning
  if (!planning) return Promise.resolve()
  return Promise.all([
    ...ctx.bots.openTurnsWaitingForBots().map((turn) => schedule(ctx, planning, turn.id, turn.game_id)),
    ...ctx.bots.openTurnsWaitingForFallbacks().map((turn) => scheduleFallbacks(ctx, planning, turn.id)),
  ]).then(() => undefined)
}

/**
 * Before the clockwork closes the turns that are due: their bot seats' plans and missed-program
 * fallbacks, so the close finds them in and need not compute them on the event loop (a fair GM
 * waits for a bot's program; it is the server that was slow, not the bot).
 */
export function planDueTurns(ctx: ServiceContext, limit: number): Promise<void> {
  const planning = ctx.botPlanning
  if (!planning) return Promise.resolve()
  const due = ctx.turns.openDue(ctx.now(), limit).flatMap((id) => ctx.turns.byId(id) ?? [])
  return Promise.all(due.flatMap((turn) => [
    ...(botSeatsToPlay(ctx, turn, JSON.parse(turn.dealt_state_json) as GameState).length > 0 ? [schedule(ctx, planning, turn.id, turn.game_id)] : []),
    ...(missedProgramBot(ctx, turn.game_id) ? [scheduleFallbacks(ctx, planning, turn.id)] : []),
  ])).then(() => undefined)
}
