// A whole game with random legal programs: for `botwars simulate`, the benchmarks and the tests
// that play seeded games on every board. Pure, like the rest of the engine.
import { byPlayer, forPlayer } from './by-player.js'
import { dealHands } from './deck.js'
import { formatSquare } from './geometry.js'
import { newGame } from './game.js'
import { fillMissingOrdersFor } from './program.js'
import { resolveTurn } from './turn.js'
import type { Board, GameState, TurnOrders } from './types.js'

export const PLAYER_NAMES = ['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'] as const

/** Deals and fills random programs for every robot that plays this turn (R7, R9). */
export function randomOrders(state: GameState): [Record<string, TurnOrders>, GameState] {
  const dealt = dealHands(state)
  const [filled, current] = fillMissingOrdersFor(dealt, () => true)
  const orders = byPlayer<TurnOrders>()
  for (const robot of current.robots) orders[robot.player] = { cards: forPlayer(filled, robot.player)?.cards ?? [], rebootNext: false }
  return [orders, current]
}

export function summariseTurn(turn: number, state: GameState): string {
  const robots = state.robots.map((r) =>
    `${r.player} ${r.at ? formatSquare(r.at) : '--'} ${r.hp}hp f${r.flags} x${r.robotsLeft}${r.mode === 'virtual' ? ' v' : ''}`)
  return `turn ${String(turn).padStart(3)}: ${robots.join(' | ')}`
}

export function simulateGame(board: Board, players: number, seed: number, maxTurns: number, onTurn?: (line: string) => void) {
  let state = newGame(board, PLAYER_NAMES.slice(0, players), seed)
  let turnsPlayed = 0
  while (!state.gameOver && turnsPlayed < maxTurns) {
    const [orders, dealt] = randomOrders(state)
    const result = resolveTurn(board, dealt, orders)
    state = result.state
    turnsPlayed++
    onTurn?.(summariseTurn(result.turn, state))
  }
  return { state, turnsPlayed }
}
