// Rays: the squares a beam can cross from a square towards a direction, up to the first wall or
// the board's edge (R23, R26). Walls never move, so each ray is worked out once, the first time
// a beam needs it, and kept with the compiled board (the board lasers' beams in a WeakMap); only a
// raised drawbridge, which depends on the turn's board state, can stop a beam sooner (A5), and the
// ray lists where those could be.
import { directionIndex } from './geometry.js'
import { squareIndex, stepsTowards } from './board.js'
import { isRaisedDrawbridge } from './floor.js'
import type { Board, BoardState, Direction, LaserElement, Ray, Square } from './types.js'

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
  return makeRay(indices, indices.map((index) => board.squares[index]!), drawbridges)
}

function makeRay(indices: number[], squares: Square[], drawbridges: number[]): Ray {
  return { indices, squares, drawbridges, prefixes: new Array<Square[] | undefined>(squares.length).fill(undefined) }
}

/**
 * The first `count` squares of a ray, as a beam that stops there lists them in its event: the
 * ray's own list when the beam crossed all of it, else a prefix made the first time a beam stopped
 * there and kept with the ray. Events are read, never changed, so beams share these lists; every
 * robot fires every stage, and a list made per beam was most of a hit's cost.
 */
export function firstSquares(ray: Ray, count: number): Square[] {
  if (count === ray.squares.length) return ray.squares
  return ray.prefixes[count] ?? (ray.prefixes[count] = ray.squares.slice(0, count))
}

/**
 * A board's laser beams (R23), worked out once per board: its lasers in the order they fire, and
 * for each the path of its beam as a ray that starts on the turret's own square; and `reach`, 1 on every
 * square some beam could cross while no drawbridge is raised. A drawbridge on the turret's own
 * square is one of the ray's drawbridges like any other: raised, it stops the beam before it
 * crosses anything (R15: raised drawbridges stop all lasers; A23). Kept in a WeakMap keyed by the
 * board, like board-tables.ts.
 */
export interface BoardBeams {
  /**
   * The board's lasers by their turret's square, then direction, colour and strength: not the
   * order of the board file, which must change nothing (all beams fire at once, R23, A25), yet
   * decides the order in which a robot struck by several beams takes them, and so the HP each of
   * its damage events tells (fireBoardLasers).
   */
  readonly lasers: readonly LaserElement[]
  /** The path of each beam, in the order of `lasers`. */
  readonly paths: readonly Ray[]
  readonly reach: Uint8Array
}

const beamsByBoard = new WeakMap<Board, BoardBeams>()

export function boardBeams(board: Board): BoardBeams {
  let beams = beamsByBoard.get(board)
  if (beams === undefined) {
    const reach = new Uint8Array(board.squares.length)
    const lasers = board.lasers.slice().sort((a, b) => squareIndex(board, a.at) - squareIndex(board, b.at) ||
      directionIndex(a.dir) - directionIndex(b.dir) || Number(a.colour > b.colour) - Number(a.colour < b.colour) || a.strength - b.strength)
    const paths = lasers.map((laser) => {
      const first = squareIndex(board, laser.at)
      const ray = rayFrom(board, laser.dir, first)
      const indices = [first, ...ray.indices]
      for (const index of indices) reach[index] = 1
      const own = board.floorTypes[first] === 'drawbridge' ? [0] : []
      return makeRay(indices, [board.squares[first]!, ...ray.squares], [...own, ...ray.drawbridges.map((at) => at + 1)])
    })
    beams = { lasers, paths, reach }
    beamsByBoard.set(board, beams)
  }
  return beams
}
