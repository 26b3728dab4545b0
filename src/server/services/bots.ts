// Bots at the table (issue 15), the GM's and players' actions: a GM seats a bot in a free seat
// (also mid-game, for a robot whose player left), and a person starts a practice game against bots
// alone. The parts the game's own services call are in bot-seats.ts.
import { botSeatName, type BotLevel } from '../../bots/index.js'
import { conflict, notFound } from '../errors.js'
import { checkPracticeAllowance } from './bot-limits.js'
import { placeBot, playOpenTurn } from './bot-seats.js'
import type { Membership, ServiceContext } from './context.js'
import { createGame, startGame } from './games.js'
import { requireGm } from './membership.js'
import { addSeat } from './seats.js'
import type { GameRow } from '../repositories/games.js'

/**
 * GM: a bot takes a free seat, before the start or during the game (a robot whose player left).
 * If the seat's robot has a turn open without a program, the bot plays it at once.
 */
export function seatBotByGm(ctx: ServiceContext, m: Membership, seatNo: number, level: BotLevel, reason: string): { seat: number; name: string } {
  requireGm(m)
  return ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    if (game.status === 'finished' || game.status === 'abandoned') throw conflict(`the game is ${game.status}`)
    const seat = ctx.games.seats(game.id).find((s) => s.seat_no === seatNo)
    if (!seat) throw notFound(`no seat ${seatNo}`)
    placeBot(ctx, game, seat, level)
    ctx.games.logAction(game.id, ctx.now(), 'seat-bot', reason, { seat: seatNo, bot: level })
    playOpenTurn(ctx, game, seat, level)
    return { seat: seatNo, name: botSeatName(level) }
  })
}

/** GM: a new seat in a running game, played by a bot; its robot enters at the next deal (R25), as a newcomer's would. */
export function openSeatForBot(ctx: ServiceContext, m: Membership, level: BotLevel, reason: string): { seat: number; name: string } {
  requireGm(m)
  return ctx.write(() => {
    const { game, seat } = addSeat(ctx, m.game.id)
    placeBot(ctx, game, seat, level)
    ctx.games.logAction(game.id, ctx.now(), 'seat-bot', reason, { seat: seat.seat_no, bot: level, newSeat: true })
    return { seat: seat.seat_no, name: botSeatName(level) }
  })
}

/** A person against bots alone: created, seated and started at once, with no mail (see isPractice). */
export function createPracticeGame(ctx: ServiceContext, userId: number, input: { board: string; bots: BotLevel[]; name?: string }): GameRow {
  const user = ctx.users.byId(userId)!
  return ctx.write(() => {
    checkPracticeAllowance(ctx, userId)
    const game = createGame(ctx, userId, {
      name: input.name ?? `Practice on ${input.board}`, board: input.board, seats: 1 + input.bots.length,
      turnLengthHours: 24 * 30, reviewWindowHours: 0, closeEarly: true, gmPlays: true, gmName: user.name, gmColour: 'blue',
      bots: input.bots,
    })
    // Before the start, so the first hand is not mailed either.
    ctx.bots.setSettings(game.id, null, true)
    const seats = ctx.games.seats(game.id)
    startGame(ctx, { game, seats, isGm: true, seat: seats[0] }, 'practice')
    return ctx.games.byId(game.id)!
  })
}
