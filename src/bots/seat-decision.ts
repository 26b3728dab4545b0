// One seat's decision, as the server asks for it: the seat's bot, from that seat's own view of the
// dealt turn, with the seed the game, turn and seat give (decisionSeed), so a replay, the server's
// worker thread and a test in the main thread all agree on the program.
import type { Board, GameState, TurnOrders } from '../engine/types.js'
import { BOTS, type BotLevel } from './index.js'
import { decisionSeed } from './match.js'
import { seatViewOf } from './seat-view.js'

/** Orders for `player` in `dealt` from the `level` bot; `gameSeed` is the game's own seed. */
export function seatOrders(board: Board, dealt: GameState, player: string, level: BotLevel, gameSeed: number): TurnOrders {
  const seat = dealt.robots.findIndex((r) => r.player === player)
  return BOTS[level](seatViewOf(board, dealt, player), decisionSeed(gameSeed, dealt.turn, seat))
}
