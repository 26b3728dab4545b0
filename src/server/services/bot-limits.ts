// How many bot games one person may run at a time. Built-in bots plan in one worker thread
// (plugins/bot-planner.ts): a practice turn with seven strong bots costs it about a second of CPU,
// and a series of bots plays itself from the clockwork, turn after turn. Without a bound one
// account could start thousands, and every other game's bots would wait behind theirs.
import { rateLimited } from '../errors.js'
import type { ServiceContext } from './context.js'

export const MAX_RUNNING_PRACTICE_GAMES = 3
export const MAX_RUNNING_SERIES = 2

/** Refuses (429) a new practice game to a person already running the most; inside the creating transaction. */
export function checkPracticeAllowance(ctx: ServiceContext, userId: number): void {
  if (ctx.bots.runningPracticeGames(userId) >= MAX_RUNNING_PRACTICE_GAMES) {
    throw rateLimited(`you are playing ${MAX_RUNNING_PRACTICE_GAMES} practice games, the most at a time: finish or abandon one to start another`)
  }
}

/** Refuses (429) a new series to a person already running the most; inside the creating transaction. */
export function checkSeriesAllowance(ctx: ServiceContext, userId: number): void {
  if (ctx.bots.runningSeriesOf(userId) >= MAX_RUNNING_SERIES) {
    throw rateLimited(`you are running ${MAX_RUNNING_SERIES} series, the most at a time: wait for one to end to start another`)
  }
}
