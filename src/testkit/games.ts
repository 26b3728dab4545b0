// Games made in-process through the server's own services (createGame, startGame, submitProgram,
// closeTurn), on the app's ServiceContext: used by the benchmarks, the 10,000-game seed and the
// demo. Seats are filled through the games repository (the invitation's token only exists in the
// invitation mail; the join path itself is exercised by test/server).
import { fillMissingOrders } from '../engine/program.js'
import { formatCard } from '../engine/deck.js'
import type { GameRow } from '../server/repositories/games.js'
import type { UserRow } from '../server/repositories/users.js'
import type { ServiceContext } from '../server/services/context.js'
import { dealtState } from '../server/services/deal.js'
import { createGame, startGame } from '../server/services/games.js'
import { membership } from '../server/services/membership.js'
import { closeTurn, submitProgram } from '../server/services/turns.js'

export const COLOURS = ['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'black', 'white'] as const
export const NAMES = ['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'] as const

export function user(ctx: ServiceContext, email: string, name?: string): UserRow {
  const row = ctx.users.findOrCreate(email.toLowerCase(), ctx.now())
  if (name && row.name !== name) ctx.users.rename(row.id, name)
  return ctx.users.byId(row.id)!
}

export interface NewGameOptions {
  name?: string
  board?: string
  turnLengthHours?: number
  reviewWindowHours?: number
  closeEarly?: boolean
}

/** A game created by `gm` with `players` seated (names and colours from the lists above), not started. */
export function seatedGame(ctx: ServiceContext, gm: UserRow, players: readonly UserRow[], options: NewGameOptions = {}): GameRow {
  const game = createGame(ctx, gm.id, {
    name: options.name ?? 'Bench game', board: options.board ?? 'conveyor-works', seats: players.length,
    turnLengthHours: options.turnLengthHours ?? 120, reviewWindowHours: options.reviewWindowHours ?? 0,
    closeEarly: options.closeEarly ?? false, gmPlays: false,
  })
  ctx.write(() => {
    const seats = ctx.games.seats(game.id)
    players.forEach((p, i) => ctx.games.join(seats[i]!.id, p.id, NAMES[i % NAMES.length]!, COLOURS[i % COLOURS.length]!, ctx.now()))
  })
  return ctx.games.byId(game.id)!
}

export function start(ctx: ServiceContext, game: GameRow, gm: UserRow): void {
  startGame(ctx, membership(ctx, game.id, { user: gm }), 'bench')
}

/** A legal program for a player of the game's open turn (cards drawn from the hand as R9 would), as the API's body. */
export function legalProgram(ctx: ServiceContext, gameId: string, playerId: string): { turn: number; cards: string[] } | null {
  const turn = ctx.turns.current(gameId)
  if (!turn || turn.status !== 'open') return null
  const [orders] = fillMissingOrders(dealtState(turn), playerId)
  return { turn: turn.number, cards: orders.cards.map(formatCard) }
}

/** Every seated player submits a legal program through submitProgram. */
export function submitAll(ctx: ServiceContext, gameId: string): number {
  let n = 0
  for (const seat of ctx.games.seats(gameId)) {
    if (seat.user_id === null) continue
    const program = legalProgram(ctx, gameId, seat.player_id)
    if (!program) continue
    const u = ctx.users.byId(seat.user_id)!
    submitProgram(ctx, { user: u }, gameId, program.turn, { cards: program.cards, rebootNext: false })
    n++
  }
  return n
}

/** Submits every program and closes the open turn (published at once when the review window is 0). */
export function playTurn(ctx: ServiceContext, gameId: string): boolean {
  submitAll(ctx, gameId)
  const turn = ctx.turns.current(gameId)
  return turn !== undefined && turn.status === 'open' && closeTurn(ctx, turn.id)
}
