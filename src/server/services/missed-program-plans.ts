// The missed-program bot's programs planned ahead (A15, issue 15). The close used to compute the
// game's bot's program for each seat that missed its program inside its own transaction: up to
// ~150 ms a seat for a strong bot, every request of every player held meanwhile. A seat's bot
// program is the bots' pure function of the turn as dealt and the seat (src/bots/seat-decision.ts),
// so it is planned ahead, as bot seats' programs are (bot-plans.ts):
//
// 1. the transaction that deals a turn of a game with a missed-program bot asks for its fallbacks
//    (planFallbacksSoon, from bot-seats.ts afterDeal) and commits without them;
// 2. once it has committed, the bot's program for each seat no bot holds whose robot must play and
//    that has no program yet is computed in the worker thread (plugins/bot-planner.ts);
// 3. they are stored (migration 050) in one transaction that checks first that the turn is still
//    the open turn planned for, with the same dealt state; a stale plan is dropped;
// 4. the close (bot-seats.ts missedProgramFill) plays a seat's fallback if the seat sent no program.
//    Otherwise (the plan pending or failed, no planner in scripts and tools) it decides there. Either
//    way the same program: the bot decides from the turn as dealt (A15: what every player sees, so
//    not the standing choices others sent with their programs, R28, R31), which cannot change while
//    the turn is open, with the game's seed.
//
// Fallbacks are as secret as programs: only the close reads them, they count as no submission, and
// a turn's fallbacks go when it is published; the report says the server filled the program, as
// before. No request waits for them (plansSettled for a game): nothing a request answers needs them.
// Plans lost to a crash or a stop are planned again by the clockwork (bot-plans.ts planWaitingTurns,
// planDueTurns).
import type { BotLevel } from '../../bots/index.js'
import { needsProgram } from '../../engine/turn.js'
import type { GameState, TurnOrders } from '../../engine/types.js'
import type { BotJob } from '../plugins/bot-plan-jobs.js'
import type { FallbackRow } from '../repositories/bots.js'
import type { TurnRow } from '../repositories/turns.js'
import type { BotPlanning } from './bot-plans.js'
import type { ServiceContext } from './context.js'

/** The bot that plays a missed program in this game, or null when R9's random fill does (no setting, or the random bot, which is R9 itself). */
export function missedProgramBot(ctx: ServiceContext, gameId: string): BotLevel | null {
  const level = ctx.bots.settings(gameId)?.missed_program_bot as BotLevel | null | undefined
  return level && level !== 'random' ? level : null
}

/** For the close: the stored fallback of a seat that sent no program, or null when the caller must decide. */
export function storedFallback(ctx: ServiceContext, turnId: number): (player: string) => TurnOrders | null {
  let rows: Map<string, string> | null = null
  return (player) => {
    rows ??= new Map(ctx.bots.fallbacks(turnId).map((row) => [row.player_id, row.orders_json]))
    const orders = rows.get(player)
    return orders === undefined ? null : JSON.parse(orders) as TurnOrders
  }
}

/** Asks for the fallbacks of `turn`, planned once the caller's transaction has committed. Without a planner, nothing: the close decides. */
export function planFallbacksSoon(ctx: ServiceContext, turn: Pick<TurnRow, 'id'>): void {
  const planning = ctx.botPlanning
  if (planning) void scheduleFallbacks(ctx, planning, turn.id)
}

/** Plans the fallbacks of a turn (once at a time); settles when they are stored or dropped. */
export function scheduleFallbacks(ctx: ServiceContext, planning: BotPlanning, turnId: number): Promise<void> {
  const running = planning.fallbacks.get(turnId)
  if (running) return running
  const done = (async () => {
    // A microtask later: the synchronous transaction that asked has committed (or rolled back).
    await null
    await planFallbacks(ctx, planning, turnId)
  })()
    .catch((err: unknown) => planning.log.error({ err, turnId }, 'missed-program plans could not be stored'))
    .finally(() => planning.fallbacks.delete(turnId))
  planning.fallbacks.set(turnId, done)
  return done
}

/** The seats a fallback is planned for: no bot in them, a robot that must play, no program and no fallback yet. */
function seatsToCover(ctx: ServiceContext, turn: TurnRow, dealt: GameState): string[] {
  const covered = new Set([...ctx.turns.submitters(turn.id), ...ctx.bots.fallbacks(turn.id).map((row) => row.player_id)])
  return ctx.games.seats(turn.game_id).filter((seat) => {
    const robot = dealt.robots.find((r) => r.player === seat.player_id)
    return !seat.bot && !covered.has(seat.player_id) && robot !== undefined && needsProgram(robot)
  }).map((seat) => seat.player_id)
}

async function planFallbacks(ctx: ServiceContext, planning: BotPlanning, turnId: number): Promise<void> {
  const turn = ctx.turns.byId(turnId)
  const game = turn && ctx.games.byId(turn.game_id)
  if (!turn || turn.status !== 'open' || !game || (game.status !== 'running' && game.status !== 'paused')) return
  const level = missedProgramBot(ctx, game.id)
  if (!level) return
  const dealt = JSON.parse(turn.dealt_state_json) as GameState
  const jobs: BotJob[] = seatsToCover(ctx, turn, dealt).map((player) => ({ gameId: game.id, boardJson: game.board_json, gameSeed: game.seed, dealt, player, level }))
  if (jobs.length === 0) return
  let orders: TurnOrders[]
  try {
    orders = await planning.planner.plan(jobs)
  } catch (err) {
    // Nothing is lost: the close decides these programs itself (and a stopping server plans them at the next start).
    if (!planning.planner.stopped) planning.log.warn({ err, turnId }, 'missed-program plans failed: the close decides those programs itself')
    return
  }
  await planning.hooks.beforeFallbacksStored?.(turnId)
  if (!ctx.db.open) return
  const stored = ctx.write(() => {
    const now = ctx.turns.byId(turnId)
    if (now?.status !== 'open' || now.dealt_state_json !== turn.dealt_state_json) return false
    jobs.forEach((job, i) => ctx.bots.putFallback(turnId, { player_id: job.player, orders_json: JSON.stringify(orders[i]) }))
    return true
  })
  if (!stored) planning.log.warn({ turnId, dropped: jobs.length }, 'stale missed-program plans dropped: the turn closed or changed while they were planned')
}
