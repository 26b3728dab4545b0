// Distance fields: how far each square (or square and facing) is from a flag, ignoring robots.
// Worked out once per board, flag and drawbridge state and kept with the board, like the
// engine's rays: walls never move, and only a lowered drawbridge changes which squares are safe.
import { stepsTowards } from '../engine/board.js'
import { opposite, turnLeft, turnRight } from '../engine/geometry.js'
import { DIRECTIONS, type Board, type BoardState, type Direction, type Square } from '../engine/types.js'

/** Larger than any real distance: the square cannot reach the flag. */
export const UNREACHABLE = 1_000_000

const squareFields = new WeakMap<Board, Map<string, Int32Array>>()
const cardFields = new WeakMap<Board, Map<string, Int32Array>>()

/** The square of flag `number`, or null when the board has no such flag. */
export function flagSquare(board: Board, number: number): Square | null {
  for (const element of board.elements) if (element.type === 'flag' && element.number === number) return element.at
  return null
}

/** Squares a robot dies on entering (R14, R15): pits, and drawbridges not yet lowered. */
function deadly(board: Board, state: BoardState, index: number): boolean {
  const type = board.floorTypes[index] ?? null
  if (type === 'pit') return true
  return type === 'drawbridge' && state.drawbridges[board.keys[index]!] !== 'lowered'
}

function bridgeKey(board: Board, state: BoardState): string {
  let key = ''
  for (const [square, value] of Object.entries(state.drawbridges)) if (value === 'lowered') key += `${square};`
  return key
}

function cached(cache: WeakMap<Board, Map<string, Int32Array>>, board: Board, key: string, make: () => Int32Array): Int32Array {
  let fields = cache.get(board)
  if (!fields) cache.set(board, (fields = new Map()))
  let field = fields.get(key)
  if (!field) fields.set(key, (field = make()))
  return field
}

/**
 * Single steps from each square (by board index) to flag `number`, through no wall and over no
 * pit or raised drawbridge; UNREACHABLE where there is no way. Robots are ignored.
 */
export function squareDistances(board: Board, state: BoardState, number: number): Int32Array {
  return cached(squareFields, board, `${number}|${bridgeKey(board, state)}`, () => {
    const field = new Int32Array(board.squares.length).fill(UNREACHABLE)
    const target = flagSquare(board, number)
    if (!target) return field
    const first = (target.row - 1) * board.cols + (target.col - 1)
    field[first] = 0
    const queue = [first]
    for (let head = 0; head < queue.length; head++) {
      const at = queue[head]!
      for (const dir of DIRECTIONS) {
        // Walls block both squares alike (R4), so the step back from a neighbour is the step there.
        const next = stepsTowards(board, dir)[at]!
        if (next < 0 || field[next] !== UNREACHABLE || deadly(board, state, next)) continue
        field[next] = field[at]! + 1
        queue.push(next)
      }
    }
    return field
  })
}

/** Where a robot at `index` facing `facing` ends after moving `steps` squares towards `dir`, or -1 if it dies. */
function slide(board: Board, state: BoardState, index: number, dir: Direction, steps: number): number {
  let at = index
  for (let i = 0; i < steps; i++) {
    const next = stepsTowards(board, dir)[at]!
    if (next < 0) return at
    if (deadly(board, state, next)) return -1
    at = next
  }
  return at
}

const TURNS = [(d: Direction) => turnLeft(d), (d: Direction) => turnRight(d), (d: Direction) => opposite(d)]

/**
 * Cards needed from each square and facing, at `index * 4 + direction`, to stand on flag
 * `number`, playing base cards (FWD1-3, RVS1, the turns) on an empty board with no mechanism
 * moving the robot. A finer measure than squares: it counts the turns a robot must make.
 */
export function cardDistances(board: Board, state: BoardState, number: number): Int32Array {
  return cached(cardFields, board, `${number}|${bridgeKey(board, state)}`, () => {
    const size = board.squares.length * 4
    const field = new Int32Array(size).fill(UNREACHABLE)
    const target = flagSquare(board, number)
    if (!target) return field
    // The moves are worked out forwards, then walked backwards from the flag (breadth first).
    const into: number[][] = Array.from({ length: size }, () => [])
    for (let index = 0; index < board.squares.length; index++) {
      if (deadly(board, state, index)) continue
      DIRECTIONS.forEach((facing, f) => {
        const from = index * 4 + f
        for (const [dir, steps] of [[facing, 1], [facing, 2], [facing, 3], [opposite(facing), 1]] as const) {
          const to = slide(board, state, index, dir, steps)
          if (to >= 0 && to !== index) into[to * 4 + f]!.push(from)
        }
        for (const turn of TURNS) into[index * 4 + DIRECTIONS.indexOf(turn(facing))]!.push(from)
      })
    }
    const first = (target.row - 1) * board.cols + (target.col - 1)
    const queue: number[] = []
    for (let f = 0; f < 4; f++) { field[first * 4 + f] = 0; queue.push(first * 4 + f) }
    for (let head = 0; head < queue.length; head++) {
      const at = queue[head]!
      for (const from of into[at]!) {
        if (field[from] !== UNREACHABLE) continue
        field[from] = field[at]! + 1
        queue.push(from)
      }
    }
    return field
  })
}
