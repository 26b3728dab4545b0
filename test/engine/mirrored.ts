// A board, a game state and a turn's orders seen in a mirror, west and east swapped, for the
// property that a mirrored board plays the mirrored game (board-mirror.test.ts). Turning a board
// (rotated.ts) keeps left and right; a mirror swaps them, so it also reaches what only one hand
// does: a gear's turn, a belt's curve, a sidestep, a turning card. Cards keep their priorities
// (R12 orders by priority alone) and swap their kinds: LF90 with RT90, SLF1 with SRT1.
import { formatSquare, parseSquare } from '../../src/engine/geometry.js'
import type { BoardState, Card, CardKind, Direction, GameState, RobotSnapshot, RobotState, Square, TurnOrders } from '../../src/engine/types.js'

type Json = Record<string, unknown>

const MIRRORED_DIRECTION: Record<Direction, Direction> = { N: 'N', S: 'S', E: 'W', W: 'E' }
const MIRRORED_KIND: Partial<Record<CardKind, CardKind>> = { LF90: 'RT90', RT90: 'LF90', SLF1: 'SRT1', SRT1: 'SLF1' }
const MIRRORED_GEAR: Record<string, string> = { left: 'right', right: 'left', uturn: 'uturn' }

export const mirroredDirection = (dir: Direction): Direction => MIRRORED_DIRECTION[dir]

/** Where a square of a board with `cols` columns goes: the same row, the column counted from the east. */
export function mirroredSquare(square: Square, cols: number): Square {
  return { row: square.row, col: cols + 1 - square.col }
}

const mirroredName = (name: string, cols: number) => formatSquare(mirroredSquare(parseSquare(name)!, cols))

const mirroredKeys = <T>(group: Record<string, T>, cols: number) =>
  Object.fromEntries(Object.entries(group).map(([name, value]) => [mirroredName(name, cols), value]))

/** A board file (FORMAT.md section 1) in the mirror: every square, side, direction and gear. */
export function mirroredBoard<B extends { cols: number; start: { at: string; facing: string }; elements: Json[] }>(board: B): B {
  const at = (name: unknown) => mirroredName(name as string, board.cols)
  const elements = board.elements.map((element) => {
    const out: Json = { ...element, at: at(element['at']) }
    for (const field of ['side', 'dir'] as const) if (field in element) out[field] = mirroredDirection(element[field] as Direction)
    if (element['type'] === 'gear') out['turn'] = MIRRORED_GEAR[element['turn'] as string]
    if (Array.isArray(element['targets'])) out['targets'] = element['targets'].map(at)
    return out
  })
  return { ...board, start: { at: at(board.start.at), facing: mirroredDirection(board.start.facing as Direction) }, elements }
}

export function mirroredCard(card: Card): Card {
  return { ...card, kind: MIRRORED_KIND[card.kind] ?? card.kind }
}

const mirroredCards = (cards: readonly (Card | null)[]) => cards.map((card) => card && mirroredCard(card))

export function mirroredOrders(orders: Readonly<Record<string, TurnOrders>>): Record<string, TurnOrders> {
  return Object.fromEntries(Object.entries(orders).map(([player, given]) => [player, {
    ...given, cards: given.cards.map(mirroredCard), ...(given.facing ? { facing: mirroredDirection(given.facing) } : {}),
  }]))
}

export function mirroredSnapshot<R extends RobotSnapshot>(robot: R, cols: number): R {
  return { ...robot, at: robot.at && mirroredSquare(robot.at, cols), facing: mirroredDirection(robot.facing) }
}

export function mirroredRobot(robot: RobotState, cols: number): RobotState {
  return {
    ...mirroredSnapshot(robot, cols),
    checkpoint: robot.checkpoint && mirroredSquare(robot.checkpoint, cols),
    stations: robot.stations.map((square) => mirroredSquare(square, cols)),
    fused: Object.fromEntries(Object.entries(robot.fused).map(([k, card]) => [k, card && mirroredCard(card)])),
  }
}

export function mirroredBoardState(state: BoardState, cols: number): BoardState {
  return { switches: mirroredKeys(state.switches, cols), drawbridges: mirroredKeys(state.drawbridges, cols), teleporters: mirroredKeys(state.teleporters, cols) }
}

export function mirroredState(state: GameState, cols: number): GameState {
  return {
    ...state,
    robots: state.robots.map((robot) => mirroredRobot(robot, cols)),
    board: mirroredBoardState(state.board, cols),
    hands: Object.fromEntries(Object.entries(state.hands).map(([player, hand]) => [player, hand.map(mirroredCard)])),
  }
}

export function mirroredRegisters(registers: Record<string, (Card | null)[]>): Record<string, (Card | null)[]> {
  return Object.fromEntries(Object.entries(registers).map(([player, cards]) => [player, mirroredCards(cards)]))
}
