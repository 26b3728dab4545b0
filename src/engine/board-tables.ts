// Lookup tables a turn reads that the compiled board does not hold, worked out once per board the
// first time a turn is resolved on it and kept in a WeakMap keyed by the board object (so they go
// when the board goes, and boards built by hand, as in the tests, get theirs too). Only a cache:
// what the rules decide never depends on whether the tables were there before.
import { squareIndex } from './board.js'
import type { Board } from './types.js'

export interface BoardTables {
  /**
   * For each square, bit s set when a pusher on that square acts in stage s (R20). Most stages
   * have no robot on an acting pusher, and one look per robot tells so.
   */
  readonly pusherStages: Uint8Array
  /** For each square, bit s set when its crusher acts in stage s (R22). */
  readonly crusherStages: Uint8Array
  /** A grid of the board's size holding no robot, copied for each turn's grid of real robots. */
  readonly noRobots: readonly null[]
}

const cache = new WeakMap<Board, BoardTables>()

export function tablesOf(board: Board): BoardTables {
  let tables = cache.get(board)
  if (tables === undefined) {
    tables = build(board)
    cache.set(board, tables)
  }
  return tables
}

function build(board: Board): BoardTables {
  const pusherStages = new Uint8Array(board.squares.length)
  for (const pusher of board.pushers) {
    for (const stage of pusher.stages) pusherStages[squareIndex(board, pusher.at)]! |= 1 << stage
  }
  const crusherStages = new Uint8Array(board.squares.length)
  for (const element of board.elements) {
    if (element.type !== 'crusher') continue
    for (const stage of element.stages) crusherStages[squareIndex(board, element.at)]! |= 1 << stage
  }
  return { pusherStages, crusherStages, noRobots: new Array<null>(board.squares.length).fill(null) }
}
