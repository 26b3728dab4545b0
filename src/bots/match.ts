// Whole games between bots, one per seat: for `botwars simulate --bots`, `botwars tournament` and
// the tests. Pure like the engine: the same board, bots and seed play the same game.
import { dealHands } from '../engine/deck.js'
import { newGame } from '../engine/game.js'
import { PLAYER_NAMES, summariseTurn } from '../engine/simulation.js'
import { placings, type Placing } from '../engine/placings.js'
import { needsProgram, resolveTurn } from '../engine/turn.js'
import type { Board, GameState, TurnOrders } from '../engine/types.js'
import { BOTS, type BotLevel } from './index.js'
import { seatViewOf } from './seat-view.js'

export interface BotGame {
  state: GameState
  turnsPlayed: number
  placings: Placing[]
}

/** A seed for one bot's decision, different for every game, turn and seat. */
export function decisionSeed(gameSeed: number, turn: number, seat: number): number {
  return Math.imul(gameSeed ^ 0x5bd1e995, 31) + turn * 1009 + seat * 7919 | 0
}

/** Deals the turn and asks each seat's bot for its orders, each seeing only its own seat (R7). */
export function botOrders(board: Board, state: GameState, bots: readonly BotLevel[], seed: number): [Record<string, TurnOrders>, GameState] {
  const dealt = dealHands(state)
  const orders: Record<string, TurnOrders> = {}
  dealt.robots.forEach((robot, seat) => {
    orders[robot.player] = needsProgram(robot)
      ? BOTS[bots[seat]!](seatViewOf(board, dealt, robot.player), decisionSeed(seed, state.turn, seat))
      : { cards: [], rebootNext: false }
  })
  return [orders, dealt]
}

export function playBotGame(board: Board, bots: readonly BotLevel[], seed: number, maxTurns: number, onTurn?: (line: string) => void): BotGame {
  let state = newGame(board, PLAYER_NAMES.slice(0, bots.length), seed)
  let turnsPlayed = 0
  // When each player went out (their last robot lost): the placings rank them by it (A17), as the server does.
  const outAfterTurn: Record<string, number> = {}
  while (!state.gameOver && turnsPlayed < maxTurns) {
    const [orders, dealt] = botOrders(board, state, bots, seed)
    const result = resolveTurn(board, dealt, orders)
    state = result.state
    turnsPlayed++
    for (const robot of state.robots) if (robot.robotsLeft <= 0) outAfterTurn[robot.player] ??= state.turn - 1
    onTurn?.(summariseTurn(result.turn, state))
  }
  return { state, turnsPlayed, placings: placings({ board, robots: state.robots, winners: state.winners, outAfterTurn }) }
}
