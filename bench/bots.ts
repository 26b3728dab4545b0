// Bot benchmarks: how long the greedy bot takes to decide with a full hand (9 cards) on the
// busiest 12×12 board, in positions from seeded 4-player greedy games: median and p99 of each
// decision's CPU time (one core) and wall time. Figures, never assertions.
import { greedyOrders } from '../src/bots/greedy-bot.js'
import { botOrders } from '../src/bots/match.js'
import { seatViewOf, type SeatView } from '../src/bots/seat-view.js'
import { dealHands } from '../src/engine/deck.js'
import { newGame } from '../src/engine/game.js'
import { PLAYER_NAMES } from '../src/engine/simulation.js'
import { needsProgram, resolveTurn } from '../src/engine/turn.js'
import type { Board } from '../src/engine/types.js'

/** Seat views with a full hand, from seeded greedy games. */
function fullHandViews(board: Board, wanted: number): SeatView[] {
  const views: SeatView[] = []
  for (let seed = 1; views.length < wanted; seed++) {
    let state = newGame(board, PLAYER_NAMES.slice(0, 4), seed)
    for (let turn = 0; turn < 30 && !state.gameOver && views.length < wanted; turn++) {
      const dealt = dealHands(state)
      for (const robot of dealt.robots) {
        if (needsProgram(robot) && dealt.hands[robot.player]!.length === 9) views.push(seatViewOf(board, dealt, robot.player))
      }
      const [orders, next] = botOrders(board, state, ['greedy', 'greedy', 'greedy', 'greedy'], seed)
      state = resolveTurn(board, next, orders).state
    }
  }
  return views.slice(0, wanted)
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!

export interface BotFigures {
  board: string
  decisions: number
  cpuMedianMs: number
  cpuP99Ms: number
  wallMedianMs: number
  wallP99Ms: number
  slowestWallMs: number
}

export function benchGreedy(board: Board, decisions = 300): BotFigures {
  const views = fullHandViews(board, decisions)
  for (const view of views.slice(0, 30)) greedyOrders(view) // warm-up
  const cpu: number[] = []
  const wall: number[] = []
  for (const view of views) {
    const cpuBefore = process.cpuUsage()
    const started = process.hrtime.bigint()
    greedyOrders(view)
    wall.push(Number(process.hrtime.bigint() - started) / 1e6)
    const used = process.cpuUsage(cpuBefore)
    cpu.push((used.user + used.system) / 1e3)
  }
  cpu.sort((a, b) => a - b)
  wall.sort((a, b) => a - b)
  const ms = (value: number) => Math.round(value * 10) / 10
  return {
    board: board.name, decisions: views.length,
    cpuMedianMs: ms(percentile(cpu, 0.5)), cpuP99Ms: ms(percentile(cpu, 0.99)),
    wallMedianMs: ms(percentile(wall, 0.5)), wallP99Ms: ms(percentile(wall, 0.99)), slowestWallMs: ms(wall[wall.length - 1]!),
  }
}
