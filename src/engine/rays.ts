// Rays: the squares a beam can cross from a square towards a direction, up to the first wall or
// the board's edge (R23, R26). Walls never move, so each ray is worked out once, the first time
// a beam needs it, and kept with the compiled board; only a raised drawbridge, which depends on
// the turn's board state, can stop a beam sooner (A5), and the ray lists where those could be.
import { directionIndex } from './geometry.js'
import { stepsTowards } from './board.js'
import { isRaisedDrawbridge } from './floor.js'
import type { Board, BoardState, Direction, Ray } from './types.js'

/** The ray from the square at `index` towards `dir`: it starts with the square one step away. */
export function rayFrom(board: Board, dir: Direction, index: number): Ray {
  const slot = directionIndex(dir) * board.squares.length + index
  return board.rays[slot] ?? (board.rays[slot] = traceRay(board, dir, index))
}

/**
 * How many of a ray's squares a beam crosses before a raised drawbridge stops it (A5): all of
 * them on most rays, which cross no drawbridge.
 */
export function openLength(board: Board, state: BoardState, ray: Ray): number {
  const bridges = ray.drawbridges
  // Every robot fires every stage, and few rays cross a drawbridge: no loop is started for them.
  if (bridges.length === 0) return ray.squares.length
  for (let i = 0; i < bridges.length; i++) {
    if (isRaisedDrawbridge(board, state, ray.squares[bridges[i]!]!)) return bridges[i]!
  }
  return ray.squares.length
}

function traceRay(board: Board, dir: Direction, from: number): Ray {
  const steps = stepsTowards(board, dir)
  const indices: number[] = []
  const drawbridges: number[] = []
  for (let index = steps[from]!; index >= 0; index = steps[index]!) {
    if (board.floorTypes[index] === 'drawbridge') drawbridges.push(indices.length)
    indices.push(index)
  }
  // A beam that crosses the whole ray puts this very list in its event: events are read, never changed.
  return { indices, squares: indices.map((index) => board.squares[index]!), drawbridges }
}
