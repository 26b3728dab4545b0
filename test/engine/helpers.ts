// Small builders for engine tests: boards from element lists, robots and states in a few words.
import { compileBoard, parseBoard } from '../../src/engine/board.js'
import { parseCard } from '../../src/engine/deck.js'
import { newGame, newRobot } from '../../src/engine/game.js'
import { parseSquare } from '../../src/engine/geometry.js'
import type { Board, Card, GameState, RobotState, Square, TurnOrders } from '../../src/engine/types.js'

/** A board from FORMAT.md JSON; throws with the parse message when it is invalid. */
export function makeBoard(elements: unknown[] = [], options: { rows?: number; cols?: number; start?: string; facing?: string } = {}): Board {
  const parsed = parseBoard({
    name: 'test', rows: options.rows ?? 5, cols: options.cols ?? 5,
    start: { at: options.start ?? 'r1c1', facing: options.facing ?? 'N' }, elements,
  })
  if (!parsed.ok) throw new Error(parsed.error)
  return compileBoard(parsed.value)
}

export function sq(text: string): Square {
  const square = parseSquare(text)
  if (!square) throw new Error(`not a square: ${text}`)
  return square
}

export function card(text: string): Card {
  const parsed = parseCard(text)
  if (!parsed) throw new Error(`not a card: ${text}`)
  return parsed
}

export function cards(...texts: string[]): Card[] {
  return texts.map(card)
}

/** A real robot at `at` with the given changes. */
export function robot(player: string, board: Board, changes: Partial<RobotState> = {}): RobotState {
  return { ...newRobot(player, board), mode: 'real', ...changes }
}

/** A game state for turn `turn` with these robots (seat order as given). */
export function stateWith(board: Board, robots: RobotState[], changes: Partial<GameState> = {}): GameState {
  return { ...newGame(board, robots.map((r) => r.player), 7), robots, ...changes }
}

export function orders(cardsByPlayer: Record<string, string[]>, extra: Partial<TurnOrders> = {}): Record<string, TurnOrders> {
  return Object.fromEntries(Object.entries(cardsByPlayer).map(([player, list]) => [player, { cards: cards(...list), rebootNext: false, ...extra }]))
}
