// Programs: checking a submission against the hand (R8) and filling a missing one (R9).
import { byPlayer, forPlayer } from './by-player.js'
import { canUseCard, cardSetsFor, formatCard, stateAfterDraws } from './deck.js'
import { ownState, shuffleAdvancing } from './random.js'
import { REGISTER_COUNT, type Card, type GameState, type RandomState, type RobotState, type TurnOrders } from './types.js'
import { needsProgram } from './turn.js'

/** What is wrong with a program, and the place (from 0) of the card it is about, or null for the whole program. */
export interface ProgramProblem { message: string; card: number | null }

/**
 * R8: a program fills the unfused registers, in order, with distinct cards from the hand, exactly
 * one per register (none while rebooting, R33). Returns what is wrong, or null.
 */
export function programProblemAt(robot: RobotState, hand: readonly Card[] | null, cards: readonly Card[]): ProgramProblem | null {
  const wanted = registersToFill(robot)
  if (cards.length !== wanted) {
    const message = robot.rebooting
      ? 'a rebooting robot plays no cards (R33)'
      : `the program needs exactly ${wanted} card${wanted === 1 ? '' : 's'}, one per unfused register (R8), not ${cards.length}`
    return { message, card: null }
  }
  // Plain loops over at most five cards and a hand of nine: this runs for every submission.
  const sets = cardSetsFor(robot.stations.length)
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i]!
    const about = (what: string): ProgramProblem => ({ message: `card ${i + 1} (${formatCard(card)}) ${what}`, card: i })
    for (let j = 0; j < i; j++) if (cards[j]!.priority === card.priority) return about('is used twice')
    if (hand && !inHand(hand, card.priority)) return about('is not in your hand')
    if (!canUseCard(card, sets)) return about('belongs to a card set this robot has not unlocked (R6)')
  }
  return null
}

/** programProblemAt's message alone: what is wrong with a program, or null. */
export function programProblem(robot: RobotState, hand: readonly Card[] | null, cards: readonly Card[]): string | null {
  return programProblemAt(robot, hand, cards)?.message ?? null
}

function inHand(hand: readonly Card[], priority: number): boolean {
  for (let i = 0; i < hand.length; i++) if (hand[i]!.priority === priority) return true
  return false
}

/** How many registers a program fills: the unfused ones (R8), none while rebooting (R33). */
function registersToFill(robot: RobotState): number {
  if (!needsProgram(robot)) return 0
  let unfused = 0
  for (let k = 1; k <= REGISTER_COUNT; k++) if (!(k in robot.fused)) unfused++
  return unfused
}

/** R9 for one robot: its unfused registers filled with cards drawn at random from its hand. */
function randomProgram(state: GameState, robot: RobotState, rng: RandomState): TurnOrders {
  const cards = shuffleAdvancing((forPlayer(state.hands, robot.player) ?? []).slice(), rng)
  cards.length = Math.min(cards.length, registersToFill(robot))
  return { cards, rebootNext: false, filledByServer: true }
}

/**
 * R9: the server fills a robot's unfused registers with cards drawn at random from its hand and
 * declares no reboot. Returns the orders and the game state with the generator advanced.
 */
export function fillMissingOrders(state: GameState, player: string): [TurnOrders, GameState] {
  const robot = state.robots.find((r) => r.player === player)
  if (!robot) throw new Error(`fillMissingOrders: no robot for ${player}`)
  const rng = ownState(state.rng)
  const orders = randomProgram(state, robot, rng)
  return [orders, stateAfterDraws(state, state.robots, state.hands, rng)]
}

/**
 * R9 for every robot that must play and `missing` says has no program, in seat order: what calling
 * fillMissingOrders for each of them in turn gives (the same draws from one generator), at the
 * cost of one. Returns the filled robots' orders and the state with the generator advanced.
 */
export function fillMissingOrdersFor(state: GameState, missing: (player: string) => boolean): [Record<string, TurnOrders>, GameState] {
  // One working copy of the generator state, advanced by every robot's shuffle in turn.
  const rng = ownState(state.rng)
  const orders = byPlayer<TurnOrders>()
  for (const robot of state.robots) {
    if (needsProgram(robot) && missing(robot.player)) orders[robot.player] = randomProgram(state, robot, rng)
  }
  return [orders, stateAfterDraws(state, state.robots, state.hands, rng)]
}
