// Placings when a game ends without a winner for everyone (issue 12, A16, A17): at a turn limit,
// when the GM ends the game, and below the winner(s) of R34. Pure: the board, the robots and when
// each player went out in, the ranked list out.
import { squareIndex } from './board.js'
import { DIRECTIONS, type Board, type RobotState, type Square } from './types.js'

export interface PlacingInput {
  board: Board
  /** The robots after the last turn played, in seat order. */
  robots: readonly RobotState[]
  /** R34's winners: they rank first whatever else is true. */
  winners: readonly string[]
  /** For each player who is out: the number of the turn after which they went out. */
  outAfterTurn: Readonly<Record<string, number>>
}

export interface Placing {
  /** 1 for the best; players who tie share a place and the next place is skipped (1, 1, 3). */
  place: number
  player: string
  winner: boolean
  flags: number
  /** Steps to the next flag (A16); null when the player is out, has every flag, or no path exists. */
  distance: number | null
  hp: number
  robotsLeft: number
  out: boolean
  outAfterTurn: number | null
}

/**
 * Ranks every robot: winners; then players still in by flags touched (more first), distance to
 * their next flag (fewer steps first), HP, robots left; then players who are out, the last to go
 * out first (A17). Ties share a place.
 */
export function placings(input: PlacingInput): Placing[] {
  const winners = new Set(input.winners)
  const rows = input.robots.map((robot): Placing => {
    const out = robot.robotsLeft <= 0
    return {
      place: 0, player: robot.player, winner: winners.has(robot.player), flags: robot.flags,
      distance: out ? null : distanceToNextFlag(input.board, robot),
      hp: out ? 0 : robot.hp, robotsLeft: Math.max(0, robot.robotsLeft), out,
      outAfterTurn: out ? input.outAfterTurn[robot.player] ?? 0 : null,
    }
  })
  const key = (p: Placing): number[] => [
    p.winner ? 0 : 1,
    p.out ? 1 : 0,
    p.out ? -(p.outAfterTurn ?? 0) : -p.flags,
    p.out ? 0 : p.distance ?? Number.MAX_SAFE_INTEGER,
    p.out ? 0 : -p.hp,
    p.out ? 0 : -p.robotsLeft,
  ]
  const compare = (a: Placing, b: Placing) => {
    const ka = key(a)
    const kb = key(b)
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!
    return 0
  }
  // Seat order breaks no tie: it only keeps the listing stable among players who share a place.
  const sorted = rows.map((row, seat) => ({ row, seat })).sort((a, b) => compare(a.row, b.row) || a.seat - b.seat).map((x) => x.row)
  sorted.forEach((row, i) => { row.place = i > 0 && compare(sorted[i - 1]!, row) === 0 ? sorted[i - 1]!.place : i + 1 })
  return sorted
}

/**
 * A16: the fewest single steps from the robot's square (its checkpoint, or the start, while it is
 * off the board) to the flag it must touch next, between squares that share a side with no wall
 * between them, ignoring robots and every floor element. Null when it has touched every flag or
 * walls leave no path.
 */
export function distanceToNextFlag(board: Board, robot: RobotState): number | null {
  const flag = board.elements.find((e) => e.type === 'flag' && e.number === robot.flags + 1)
  if (!flag) return null
  const from: Square = robot.at ?? robot.checkpoint ?? board.start.at
  const target = squareIndex(board, flag.at)
  const distances = new Int32Array(board.rows * board.cols).fill(-1)
  const start = squareIndex(board, from)
  distances[start] = 0
  const queue = [start]
  for (let head = 0; head < queue.length; head++) {
    const at = queue[head]!
    if (at === target) return distances[at]!
    for (const dir of DIRECTIONS) {
      const next = board.steps[dir][at]!
      if (next < 0 || distances[next] !== -1) continue
      distances[next] = distances[at]! + 1
      queue.push(next)
    }
  }
  return null
}
