// What a bot may know: exactly what a human in its seat could see while the turn is open (its own
// hand, every robot's visible state, the board and its mechanisms). Built from a game state by
// dropping the other hands, the generator and the option deck's order, so a bot cannot peek.
import type { Board, BoardState, Card, GameState, RobotState } from '../engine/types.js'
import { seedRandom } from '../engine/random.js'

export interface SeatView {
  board: Board
  /** The turn being programmed. */
  turn: number
  /** The engine's id of the bot's seat (its robot's `player`). */
  player: string
  /** The bot's own hand for this turn (R7); empty while rebooting. */
  hand: Card[]
  /**
   * Every robot as the players see it, in seat order. A player's reboot declaration is secret
   * until the turn is published, so `rebootNext` is false on every robot here.
   */
  robots: RobotState[]
  boardState: BoardState
}

/** The seat view of `player` in a dealt game state. */
export function seatViewOf(board: Board, state: GameState, player: string): SeatView {
  if (!state.robots.some((r) => r.player === player)) throw new Error(`seatViewOf: no robot for ${player}`)
  return {
    board,
    turn: state.turn,
    player,
    hand: [...(state.hands[player] ?? [])],
    robots: state.robots.map((robot) => ({ ...robot, rebootNext: false })),
    boardState: state.board,
  }
}

export function ownRobot(view: SeatView): RobotState {
  const robot = view.robots.find((r) => r.player === view.player)
  if (!robot) throw new Error(`seat view: no robot for ${view.player}`)
  return robot
}

/**
 * A game state a bot can simulate on: its own hand and nothing else secret. The option deck is
 * unknown to players, so it is empty (a double wrench then repairs, R31); nothing in a turn's
 * resolution draws at random, so the generator is a fixed placeholder.
 */
export function planningState(view: SeatView): GameState {
  return {
    turn: view.turn,
    robots: view.robots,
    board: view.boardState,
    optionDeck: [],
    hands: { [view.player]: view.hand },
    rng: seedRandom(0),
    gameOver: false,
    winners: [],
  }
}
