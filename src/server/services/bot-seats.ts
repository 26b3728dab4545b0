// Bot seats (issue 15), the part the game's own services call: bots placed in seats at creation,
// their programs asked for when a turn is dealt (planned in a worker thread, bot-plans.ts; the
// webhook deliveries are queued in that transaction too), a bot for missed programs instead of R9
// (its programs planned ahead in the same worker, missed-program-plans.ts), and whether a game is
// a practice game. Of the services it imports only those two and programs-in.ts, none of which
// imports deal.ts, games.ts or turns.ts, so those depend on it one way.
// A bot plays from its seat's own view (src/bots/seat-view.ts: its hand, never another's).
import { botSeatName, type BotLevel } from '../../bots/index.js'
import { seatOrders } from '../../bots/seat-decision.js'
import { fillMissingOrders } from '../../engine/program.js'
import { isOnFloor } from '../../engine/context.js'
import { needsProgram } from '../../engine/turn.js'
import type { GameState, TurnOrders } from '../../engine/types.js'
import { badRequest, conflict } from '../errors.js'
import type { GameRow, SeatRow } from '../repositories/games.js'
import type { TurnRow } from '../repositories/turns.js'
import type { ServiceContext } from './context.js'
import { botSeatsToPlay, insertBotProgram, planBotsSoon } from './bot-plans.js'
import { missedProgramBot, planFallbacksSoon, storedFallback } from './missed-program-plans.js'
import { failedPlanKey, markIfEveryProgramIn } from './programs-in.js'

/** Colours bots take, the first one free at the table. */
const BOT_COLOURS = ['grey', 'silver', 'teal', 'olive', 'maroon', 'navy', 'purple', 'orange', 'brown']

function freeColour(seats: readonly SeatRow[]): string {
  const taken = new Set(seats.map((s) => s.colour))
  return BOT_COLOURS.find((c) => !taken.has(c)) ?? 'grey'
}

/** The bot that plays a seat, or null for a person's seat. */
export function seatBot(seat: SeatRow): BotLevel | null {
  return (seat.bot ?? null) as BotLevel | null
}

/**
 * Seats a bot in a free seat (one no person holds), inside the caller's transaction. A bot taking
 * over a robot whose player is gone keeps the robot's colour and says whose robot it plays.
 */
export function placeBot(ctx: ServiceContext, game: GameRow, seat: SeatRow, level: BotLevel, looks?: { name: string; colour: string | null }): void {
  if (seat.user_id !== null || seat.bot) throw conflict(`seat ${seat.seat_no} is taken`, 'seat')
  const name = looks?.name ?? botSeatName(level)
  const colour = looks?.colour ?? freeColour(ctx.games.seats(game.id))
  if (!ctx.bots.seatBot(seat.id, level, name, colour, ctx.now())) throw conflict(`seat ${seat.seat_no} was just taken`, 'seat')
}

/**
 * The bot of a seat plays the open turn at once if the seat's robot has no program in it yet
 * (a bot seated mid-turn), and the turn is marked complete when that was the last program.
 */
export function playOpenTurn(ctx: ServiceContext, game: GameRow, seat: SeatRow, level: BotLevel): void {
  const turn = ctx.turns.current(game.id)
  if (turn?.status !== 'open') return
  const dealt = JSON.parse(turn.dealt_state_json) as GameState
  if (!planBotsSoon(ctx, turn) && !ctx.turns.submitters(turn.id).includes(seat.player_id)) submitBotProgram(ctx, game, turn, dealt, seat.player_id, level)
  markIfEveryProgramIn(ctx, game.id, turn.id, dealt)
}

/**
 * When a game is created (inside createGame's transaction): bots in the first free seats (after
 * the GM's, if the GM plays), and the missed-program setting.
 */
export function setUpBots(ctx: ServiceContext, gameId: string, bots: readonly BotLevel[] = [], missedProgramBot: BotLevel | null = null): void {
  const game = ctx.games.byId(gameId)!
  const free = ctx.games.seats(gameId).filter((s) => s.user_id === null)
  if (bots.length > free.length) throw badRequest(`${bots.length} bots do not fit in ${free.length} free seats`, 'bots')
  bots.forEach((level, i) => placeBot(ctx, game, free[i]!, level))
  ctx.bots.setSettings(gameId, missedProgramBot, false)
}

/** Orders for `player` from a bot seeing that seat only; the seed follows the game, turn and seat, so a replay agrees. */
function botDecision(ctx: ServiceContext, game: GameRow, dealt: GameState, player: string, level: BotLevel): TurnOrders {
  return seatOrders(ctx.board(game), dealt, player, level, game.seed)
}

/** The bot's program for its seat, computed here, in the caller's transaction (no planner, or a close that cannot wait). */
function submitBotProgram(ctx: ServiceContext, game: GameRow, turn: TurnRow, dealt: GameState, player: string, level: BotLevel): void {
  const robot = dealt.robots.find((r) => r.player === player)
  if (!robot || !needsProgram(robot)) return
  insertBotProgram(ctx, turn.id, robot, botDecision(ctx, game, dealt, player, level))
}

/**
 * Called by closeTurn before it resolves: a bot seat whose program is not in yet (its plan still in
 * the worker when the turn came due) gets it now, the very program the worker would have stored,
 * so a turn never closes without a bot's program because the worker was slow. A seat whose plan
 * failed is left to R9's fill, as is one whose bot throws here.
 */
export function playMissingBots(ctx: ServiceContext, game: GameRow, turn: TurnRow, dealt: GameState): void {
  for (const { robot, level } of botSeatsToPlay(ctx, turn, dealt)) {
    if (ctx.botPlanning?.failed.has(failedPlanKey(turn.id, robot.player))) continue
    try {
      insertBotProgram(ctx, turn.id, robot, botDecision(ctx, game, dealt, robot.player, level))
    } catch (err) {
      ctx.botPlanning?.log.error({ err, turnId: turn.id, player: robot.player }, 'a bot failed to plan at the close: R9 fills its program')
    }
  }
}

/**
 * Called by openTurn, in the transaction that deals the turn: the bot seats' programs and the
 * missed-program bot's fallbacks are asked for (planned once it has committed, bot-plans.ts,
 * missed-program-plans.ts), and the webhooks of players whose robot plays are queued (never sent
 * here: a slow bot server must not hold up a turn).
 */
export function afterDeal(ctx: ServiceContext, game: GameRow, turn: TurnRow, dealt: GameState): void {
  if (missedProgramBot(ctx, game.id)) planFallbacksSoon(ctx, turn)
  const bots = ctx.games.seats(game.id).filter((seat) => seatBot(seat))
  if (bots.length > 0 && !planBotsSoon(ctx, turn)) {
    for (const seat of bots) submitBotProgram(ctx, game, turn, dealt, seat.player_id, seatBot(seat)!)
    markIfEveryProgramIn(ctx, game.id, turn.id, dealt)
  }
  // The bot protocol (services/webhooks.ts sends them): a delivery for each webhook whose player's
  // robot is on the floor. A rebooting one plays no cards, but its player may declare another
  // reboot with the empty submission (R33) and change standing choices: a bot needs the turn too.
  for (const hook of ctx.bots.webhooksOf(game.id)) {
    const robot = dealt.robots.find((r) => r.player === hook.player_id)
    if (robot && isOnFloor(robot)) ctx.bots.queueDelivery(game.id, hook.player_id, turn.number, ctx.now())
  }
}

/** What fills a missed program: R9's random fill, or a bot if the game's setting names one. */
export type MissedProgramFill = (state: GameState, player: string) => [TurnOrders, GameState]

/**
 * For turn `turnId`: R9's fill, or the bot's program for the seat, planned ahead when it could be
 * (missed-program-plans.ts: the same decision from the same view), decided here when not.
 */
export function missedProgramFill(ctx: ServiceContext, game: GameRow, turnId: number): MissedProgramFill {
  const level = missedProgramBot(ctx, game.id)
  // The random bot is R9 itself: the game's own generator fills, as without the setting.
  if (!level) return fillMissingOrders
  const planned = storedFallback(ctx, turnId)
  // As R9: the fill declares no reboot (A15).
  return (state, player) => [{ ...(planned(player) ?? botDecision(ctx, game, state, player, level)), rebootNext: false, filledByServer: true }, state]
}

/** Whether the game is a practice game (no mail; turns close as soon as the person's program is in). */
export function isPractice(ctx: ServiceContext, gameId: string | null | undefined): boolean {
  return gameId ? ctx.bots.settings(gameId)?.practice === 1 : false
}
