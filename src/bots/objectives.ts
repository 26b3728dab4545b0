// Objectives: what a bot wants from the end of a turn, as one number (higher is better). Greedy
// counts squares to the next flag; the strong bot counts the cards it would still need, which
// also sees which way the robot faces, and fears damage more as its registers start to fuse.
import { squareIndex, stepsTowards } from '../engine/board.js'
import { directionIndex } from '../engine/geometry.js'
import type { RobotState } from '../engine/types.js'
import { cardDistances, squareDistances, UNREACHABLE } from './distance.js'
import type { Objective, Outcome } from './plan.js'
import { ownRobot, type SeatView } from './seat-view.js'

export const WIN = 1e9
const FLAG = 10_000
/** The longest way counted: beyond it every square is equally far. */
const FAR = 300

/** The parts every objective shares: winning, losing, flags and lost robots. Null when the turn decides the game. */
function settled(outcome: Outcome, view: SeatView): number | null {
  const me = outcome.me
  if (outcome.winners.includes(me.player)) return WIN
  if (outcome.winners.length > 0 || me.robotsLeft === 0) return -WIN
  return null
}

function robotsLost(outcome: Outcome, start: RobotState): number {
  return start.robotsLeft - outcome.me.robotsLeft
}

/**
 * Greedy (issue 15): progress to the next flag in squares along the board ignoring robots, damage
 * taken (the fence's included), and a destroyed robot (pits, crushers, the fence) costs the most.
 * A robot facing a square nearer the flag is a little better placed for the next turn.
 */
export const greedyObjective: Objective = (outcome, view) => {
  const decided = settled(outcome, view)
  if (decided !== null) return decided
  const start = ownRobot(view)
  const me = outcome.me
  const lost = robotsLost(outcome, start)
  let score = me.flags * FLAG - lost * 600
  if (me.at === null) return score - FAR * 10
  const field = squareDistances(view.board, outcome.boardState, me.flags + 1)
  const here = squareIndex(view.board, me.at)
  const distance = Math.min(FAR, field[here]!)
  score -= distance * 10
  if (lost === 0) score -= (start.hp - me.hp) * 6
  const ahead = stepsTowards(view.board, me.facing)[here]!
  if (ahead >= 0 && field[ahead]! < field[here]!) score += 4
  return score
}

/** What one more point of damage costs at `hp`: little while healthy, much once registers fuse (R27). */
function damageCost(hp: number): number {
  return hp >= 7 ? 8 : hp >= 5 ? 14 : 24
}

/**
 * The strong bot's view of a turn's end: cards still needed to stand on the next flag (facing
 * counted), then squares as a tie-break, damage weighed by how much it hurts at that HP, and a
 * destroyed robot weighed by the way back from its checkpoint, which `me` stands on by then.
 */
export const strongObjective: Objective = (outcome, view) => {
  const decided = settled(outcome, view)
  if (decided !== null) return decided
  const start = ownRobot(view)
  const me = outcome.me
  const lost = robotsLost(outcome, start)
  let score = me.flags * FLAG - lost * (400 + (3 - me.robotsLeft) * 300)
  if (me.at === null) return score - FAR * 40
  const here = squareIndex(view.board, me.at)
  const cards = cardDistances(view.board, outcome.boardState, me.flags + 1)[here * 4 + directionIndex(me.facing)]!
  const squares = squareDistances(view.board, outcome.boardState, me.flags + 1)[here]!
  score -= Math.min(FAR, cards >= UNREACHABLE ? FAR : cards) * 30 + Math.min(FAR, squares) * 3
  if (lost === 0) for (let hp = start.hp; hp > me.hp; hp--) score -= damageCost(hp - 1)
  if (lost === 0 && me.hp > start.hp) score += (me.hp - start.hp) * damageCost(start.hp)
  return score
}
