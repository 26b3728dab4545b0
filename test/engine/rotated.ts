// A board, a rules case and a game's robots turned a quarter turn clockwise, for the property that
// turning the board turns the game and changes nothing else (board-rotation.test.ts). Row 1 is the
// south edge and column 1 the west edge (FORMAT.md section 1): the square at row r, column c of a
// board with `cols` columns goes to row cols + 1 - c, column r, and north becomes east.
import { formatSquare, parseSquare, turnRight } from '../../src/engine/geometry.js'
import type { BoardState, Direction, RobotSnapshot, RobotState, Square } from '../../src/engine/types.js'

type Json = Record<string, unknown>

/** Where a square of a board with `cols` columns goes. */
export function turnedSquare(square: Square, cols: number): Square {
  return { row: cols + 1 - square.col, col: square.row }
}

const turnedName = (name: string, cols: number) => formatSquare(turnedSquare(parseSquare(name)!, cols))

/** A record keyed by square names (a board state's group), keyed by the turned squares. */
const turnedKeys = <T>(group: Record<string, T>, cols: number) =>
  Object.fromEntries(Object.entries(group).map(([name, value]) => [turnedName(name, cols), value]))

/** A board file (FORMAT.md section 1) turned: every square, side and direction. */
export function turnedBoard<B extends { rows: number; cols: number; start: { at: string; facing: string }; elements: Json[] }>(board: B): B {
  const at = (name: unknown) => turnedName(name as string, board.cols)
  const dir = (d: unknown) => turnRight(d as Direction)
  const elements = board.elements.map((element) => {
    const out: Json = { ...element, at: at(element['at']) }
    for (const field of ['side', 'dir'] as const) if (field in element) out[field] = dir(element[field])
    if (Array.isArray(element['targets'])) out['targets'] = element['targets'].map(at)
    return out
  })
  return { ...board, rows: board.cols, cols: board.rows, start: { at: at(board.start.at), facing: dir(board.start.facing) }, elements }
}

/** A rules case (FORMAT.md section 2) turned: its board, its board state and its robots. */
export function turnedCase<C extends { board: { rows: number; cols: number; start: { at: string; facing: string }; elements: Json[] }; boardState?: Record<string, Record<string, string>>; robots: Json[] }>(kase: C): C {
  const cols = kase.board.cols
  const boardState = Object.fromEntries(Object.entries(kase.boardState ?? {}).map(([group, states]) => [group, turnedKeys(states, cols)]))
  const robots = kase.robots.map((robot) => ({
    ...robot,
    at: turnedName(robot['at'] as string, cols),
    ...('facing' in robot ? { facing: turnRight(robot['facing'] as Direction) } : {}),
    ...(typeof robot['checkpoint'] === 'string' ? { checkpoint: turnedName(robot['checkpoint'], cols) } : {}),
    ...(Array.isArray(robot['stations']) ? { stations: robot['stations'].map((name: string) => turnedName(name, cols)) } : {}),
  }))
  return { ...kase, board: turnedBoard(kase.board), boardState, robots }
}

/** A robot at one moment, turned with the board it stands on. */
export function turnedSnapshot<R extends RobotSnapshot>(robot: R, cols: number): R {
  return { ...robot, at: robot.at && turnedSquare(robot.at, cols), facing: turnRight(robot.facing) }
}

/** A robot's whole state, turned: its square, facing, reinstatement square and stations (R6). */
export function turnedRobot(robot: RobotState, cols: number): RobotState {
  return {
    ...turnedSnapshot(robot, cols),
    checkpoint: robot.checkpoint && turnedSquare(robot.checkpoint, cols),
    stations: robot.stations.map((square) => turnedSquare(square, cols)),
  }
}

/** The state of switches, drawbridges and teleporters, keyed by the turned squares. */
export function turnedBoardState(state: BoardState, cols: number): BoardState {
  return { switches: turnedKeys(state.switches, cols), drawbridges: turnedKeys(state.drawbridges, cols), teleporters: turnedKeys(state.teleporters, cols) }
}
