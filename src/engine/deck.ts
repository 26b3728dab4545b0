// The deck of R5, the card sets of R6 and dealing (R7). Pure: chance comes from the game's
// seeded generator, and the state passed in is never changed.
import { shuffled, withRandom } from './random.js'
import {
  CARD_KINDS, MAX_HP, REGISTER_COUNT,
  type Card, type CardKind, type CardSet, type GameState, type RobotState,
} from './types.js'

/** R5: each kind's count, first priority and step. */
const DECK_PLAN: readonly [CardKind, number, number, number][] = [
  ['UTRN', 6, 10, 10], ['LF90', 18, 70, 20], ['RT90', 18, 80, 20], ['RVS1', 6, 430, 10],
  ['FWD1', 18, 490, 10], ['FWD2', 12, 670, 10], ['FWD3', 6, 790, 10],
  ['RVS2', 6, 675, 20], ['RVS3', 6, 795, 10], ['SLF1', 6, 505, 30], ['SRT1', 6, 515, 30],
  ['IDLE', 6, 5, 10],
]

/** The whole deck (base and upgrade cards), highest priority first. */
export const FULL_DECK: readonly Card[] = DECK_PLAN
  .flatMap(([kind, count, first, step]) => Array.from({ length: count }, (_, i) => ({ kind, priority: first + i * step })))
  .sort((a, b) => b.priority - a.priority)

const CARD_BY_PRIORITY = new Map<number, Card>(FULL_DECK.map((card) => [card.priority, card]))

/** The card set a kind belongs to (R6), or null for base cards every robot may use. */
export const CARD_SET_OF: Record<CardKind, CardSet | null> = {
  FWD1: null, FWD2: null, FWD3: null, RVS1: null, LF90: null, RT90: null, UTRN: null,
  RVS2: 'reverse', RVS3: 'reverse', SLF1: 'sidestep', SRT1: 'sidestep', IDLE: 'idle',
}

const CARD_SET_ORDER: readonly CardSet[] = ['reverse', 'sidestep', 'idle']

export function formatCard(card: Card): string {
  return `${card.kind}:${card.priority}`
}

/** Parses `FWD2:700`; returns null unless it names a card of the deck (R5). */
export function parseCard(text: string): Card | null {
  const match = /^([A-Z0-9]{4}):(\d{1,3})$/.exec(text)
  if (!match) return null
  const kind = match[1] as CardKind
  if (!(CARD_KINDS as readonly string[]).includes(kind)) return null
  const card = CARD_BY_PRIORITY.get(Number(match[2]))
  return card && card.kind === kind ? card : null
}

/** R6: one card set for every two different stations visited, in the fixed order. */
export function cardSetsFor(stationsVisited: number): CardSet[] {
  return CARD_SET_ORDER.slice(0, Math.min(CARD_SET_ORDER.length, Math.floor(stationsVisited / 2)))
}

export function canUseCard(card: Card, sets: readonly CardSet[]): boolean {
  const set = CARD_SET_OF[card.kind]
  return set === null || sets.includes(set)
}

/** R27: register k is fused exactly while k >= HP. Returns the fused register numbers. */
export function fusedRegistersFor(hp: number): number[] {
  const out: number[] = []
  for (let k = Math.max(1, hp); k <= REGISTER_COUNT; k++) out.push(k)
  return out
}

/** The registers a program fills (R8): those not fused. */
export function unfusedRegisters(robot: Pick<RobotState, 'fused'>): number[] {
  const out: number[] = []
  for (let k = 1; k <= REGISTER_COUNT; k++) if (!(k in robot.fused)) out.push(k)
  return out
}

/** R7: how many cards a robot is dealt this turn. */
export function handSize(robot: RobotState): number {
  if (robot.mode === 'destroyed' || robot.rebooting || robot.at === null) return 0
  const extra = robot.options.includes('Extra Memory') ? 1 : 0
  return Math.max(0, Math.min(MAX_HP, robot.hp) - 1 + extra)
}

/** Every card held in a fused register, across all robots. */
export function fusedCards(state: GameState): Card[] {
  const out: Card[] = []
  for (const robot of state.robots) for (const card of Object.values(robot.fused)) if (card) out.push(card)
  return out
}

/**
 * Deals the hands for the turn to be played (R7). The whole deck less the fused cards is
 * shuffled; a robot back online after a reboot first gets random cards for the registers fused
 * during the reboot (R33, which holds no card until then: see docs/rulings-added.md A1); then
 * robots are dealt in seat order, one card at a time round the table, each skipping the cards
 * it may not use.
 */
export function dealHands(state: GameState): GameState {
  const held = new Set(fusedCards(state).map((card) => card.priority))
  const [result, rng] = withRandom(state.rng, (randomInt) => {
    const pile = shuffled(FULL_DECK.filter((card) => !held.has(card.priority)), randomInt)
    const robots = state.robots.map((robot) => ({ ...robot, fused: { ...robot.fused } }))
    const hands: Record<string, Card[]> = {}

    const takeFor = (robot: RobotState): Card | null => {
      const sets = cardSetsFor(robot.stations.length)
      const index = pile.findIndex((card) => canUseCard(card, sets))
      return index < 0 ? null : pile.splice(index, 1)[0]!
    }

    for (const robot of robots) {
      if (robot.rebooting || robot.mode === 'destroyed') continue
      for (const [register, card] of Object.entries(robot.fused)) {
        if (card === null) {
          const drawn = takeFor(robot)
          if (drawn) robot.fused[register] = drawn
          else delete robot.fused[register]
        }
      }
    }

    const wanted = robots.map(handSize)
    robots.forEach((robot) => { hands[robot.player] = [] })
    for (let round = 0; round < MAX_HP; round++) {
      robots.forEach((robot, seat) => {
        if (round >= wanted[seat]!) return
        const card = takeFor(robot)
        if (card) hands[robot.player]!.push(card)
      })
    }
    return { robots, hands }
  })
  return { ...state, robots: result.robots, hands: result.hands, rng }
}
