// Programs: checking a submission against the hand (R8) and filling a missing one (R9).
import { canUseCard, cardSetsFor, formatCard, unfusedRegisters } from './deck.js'
import { shuffled, withRandom } from './random.js'
import type { Card, GameState, RobotState, TurnOrders } from './types.js'
import { needsProgram } from './turn.js'

/**
 * R8: a program fills the unfused registers, in order, with distinct cards from the hand, exactly
 * one per register (none while rebooting, R33). Returns a message naming what is wrong, or null.
 */
export function programProblem(robot: RobotState, hand: readonly Card[] | null, cards: readonly Card[]): string | null {
  const wanted = needsProgram(robot) ? unfusedRegisters(robot).length : 0
  if (cards.length !== wanted) {
    return robot.rebooting
      ? 'a rebooting robot plays no cards (R33)'
      : `the program needs exactly ${wanted} card${wanted === 1 ? '' : 's'}, one per unfused register (R8), not ${cards.length}`
  }
  const seen = new Set<number>()
  const sets = cardSetsFor(robot.stations.length)
  for (const [i, card] of cards.entries()) {
    if (seen.has(card.priority)) return `card ${i + 1} (${formatCard(card)}) is used twice`
    seen.add(card.priority)
    if (hand && !hand.some((h) => h.priority === card.priority)) return `card ${i + 1} (${formatCard(card)}) is not in your hand`
    if (!canUseCard(card, sets)) return `card ${i + 1} (${formatCard(card)}) belongs to a card set this robot has not unlocked (R6)`
  }
  return null
}

/**
 * R9: the server fills a robot's unfused registers with cards drawn at random from its hand and
 * declares no reboot. Returns the orders and the game state with the generator advanced.
 */
export function fillMissingOrders(state: GameState, player: string): [TurnOrders, GameState] {
  const robot = state.robots.find((r) => r.player === player)
  if (!robot) throw new Error(`fillMissingOrders: no robot for ${player}`)
  const wanted = needsProgram(robot) ? unfusedRegisters(robot).length : 0
  const hand = state.hands[player] ?? []
  const [cards, rng] = withRandom(state.rng, (randomInt) => shuffled(hand, randomInt).slice(0, wanted))
  return [{ cards, rebootNext: false, filledByServer: true }, { ...state, rng }]
}
