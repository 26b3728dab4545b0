// Placings at the end of a game, also one stopped before anyone won: winners first (R34), then by
// flags touched, distance to the next flag along the board ignoring robots, HP, and robots left.
// Players equal on all of these share a place (1, 2, 2, 4). Pure: the GM's end-of-game code and
// the tournaments rank the same way.
import { squareIndex } from '../engine/board.js'
import type { Board, GameState, RobotState } from '../engine/types.js'
import { squareDistances, UNREACHABLE } from './distance.js'

export interface Placing {
  player: string
  /** 1 for the best; equal players share the better place. */
  place: number
  won: boolean
  flags: number
  /** Single steps from the robot's square to its next flag, ignoring robots; null when it has no square or no way. */
  distance: number | null
  hp: number
  robotsLeft: number
}

function distanceToNextFlag(board: Board, state: GameState, robot: RobotState): number | null {
  if (robot.flags >= board.flagCount) return 0
  if (robot.at === null || robot.mode === 'destroyed') return null
  const steps = squareDistances(board, state.board, robot.flags + 1)[squareIndex(board, robot.at)]!
  return steps >= UNREACHABLE ? null : steps
}

/** The order of two placings: negative when `a` places better. */
function compare(a: Placing, b: Placing): number {
  return Number(b.won) - Number(a.won)
    || b.flags - a.flags
    || (a.distance ?? UNREACHABLE) - (b.distance ?? UNREACHABLE)
    || b.hp - a.hp
    || b.robotsLeft - a.robotsLeft
}

/** Every player's placing, best first (seat order among equals). */
export function placings(board: Board, state: GameState): Placing[] {
  const rows = state.robots.map((robot): Placing => ({
    player: robot.player,
    place: 0,
    won: state.winners.includes(robot.player),
    flags: robot.flags,
    distance: distanceToNextFlag(board, state, robot),
    // A robot that is out has nothing left to count.
    hp: robot.robotsLeft > 0 && robot.mode !== 'destroyed' ? robot.hp : 0,
    robotsLeft: robot.robotsLeft,
  }))
  const sorted = rows.slice().sort(compare)
  sorted.forEach((row, i) => {
    row.place = i > 0 && compare(sorted[i - 1]!, row) === 0 ? sorted[i - 1]!.place : i + 1
  })
  return sorted
}
