// What the bot planner's worker thread runs (bot-worker.cjs loads it): each job is one seat's
// decision, the bots' own pure function (src/bots/seat-decision.ts) of the board, the dealt state
// and the seat, so the worker's programs are the very ones the main thread would compute.
import type { BotLevel } from '../../bots/index.js'
import { seatOrders } from '../../bots/seat-decision.js'
import type { GameState, TurnOrders } from '../../engine/types.js'
import { boardCache, boardDefinition } from '../services/board-cache.js'

/** One bot seat's program to plan: everything the decision depends on, and nothing more. */
export interface BotJob {
  gameId: string
  /** The game's stored board file (compiled boards are kept in the worker by this text). */
  boardJson: string
  gameSeed: number
  dealt: GameState
  player: string
  level: BotLevel
}

// The worker's own compiled boards (and the bots' distance fields hanging off them), bounded as the app's are.
const boards = boardCache()

export function planJobs(jobs: readonly BotJob[]): TurnOrders[] {
  return jobs.map((job) => {
    const game = { id: job.gameId, board_json: job.boardJson }
    return seatOrders(boards.get(game, () => boardDefinition(game)), job.dealt, job.player, job.level, job.gameSeed)
  })
}
