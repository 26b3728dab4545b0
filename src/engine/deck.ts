// The deck of R5, the card sets of R6 and dealing (R7). Pure: chance comes from the game's
// seeded generator, and the state passed in is never changed.
import { byPlayer } from './by-player.js'
import { ownState, shuffleAdvancing } from './random.js'
import {
  MAX_HP, REGISTER_COUNT,
  type Card, type CardKind, type CardSet, type GameState, type RandomState, type RobotState,
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

/** The card set a kind belongs to (R6), or null for base cards every robot may use. */
export const CARD_SET_OF: Record<CardKind, CardSet | null> = {
  FWD1: null, FWD2: null, FWD3: null, RVS1: null, LF90: null, RT90: null, UTRN: null,
  RVS2: 'reverse', RVS3: 'reverse', SLF1: 'sidestep', SRT1: 'sidestep', IDLE: 'idle',
}

const CARD_SET_ORDER: readonly CardSet[] = ['reverse', 'sidestep', 'idle']

export function formatCard(card: Card): string {
  return `${card.kind}:${card.priority}`
}

/**
 * Every card by its text (`FWD2:700`): exactly the texts parseCard accepts, since a card's text is
 * its kind and its priority without leading zeros (R5 writes FWD2:700, as squares have none).
 */
const CARD_BY_TEXT = new Map<string, Card>(FULL_DECK.map((card) => [formatCard(card), card]))

/** Parses `FWD2:700`; returns null unless it names a card of the deck (R5). One look in a table: every submission parses five. */
export function parseCard(text: string): Card | null {
  return CARD_BY_TEXT.get(text) ?? null
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
  // Most robots hold no option: the length spares a call.
  const extra = robot.options.length !== 0 && robot.options.includes('Extra Memory') ? 1 : 0
  return Math.max(0, Math.min(MAX_HP, robot.hp) - 1 + extra)
}

/** Every card held in a fused register, across all robots. */
export function fusedCards(state: GameState): Card[] {
  const out: Card[] = []
  for (const robot of state.robots) for (const card of Object.values(robot.fused)) if (card) out.push(card)
  return out
}

/**
 * A deal works with cards' places in FULL_DECK (small integers) rather than the cards themselves:
 * shuffling them needs no write barrier per swap, and a card's set rank is one look in a table.
 * TAKEN marks a place of the pile whose card has been taken.
 */
const TAKEN = FULL_DECK.length
const ALL_PLACES: readonly number[] = FULL_DECK.map((_, place) => place)

/**
 * How many card sets (R6) each card needs unlocked, by place in FULL_DECK: 0 for base cards, then
 * 1, 2, 3 in the fixed order of CARD_SET_ORDER; more than any robot has for TAKEN. cardSetsFor
 * always unlocks a prefix of that order, so a robot may use a card exactly when this rank is at most
 * the number of sets it has: canUseCard as a compare.
 */
const SET_RANK_BY_PLACE = new Uint8Array(FULL_DECK.length + 1)
FULL_DECK.forEach((card, place) => {
  const set = CARD_SET_OF[card.kind]
  SET_RANK_BY_PLACE[place] = set === null ? 0 : CARD_SET_ORDER.indexOf(set) + 1
})
SET_RANK_BY_PLACE[TAKEN] = CARD_SET_ORDER.length + 1

/** Each card's place in FULL_DECK, by priority (-1 for a priority no card has). */
const PLACE_BY_PRIORITY = new Int16Array(FULL_DECK[0]!.priority + 1).fill(-1)
FULL_DECK.forEach((card, place) => { PLACE_BY_PRIORITY[card.priority] = place })

/** The set rank (0 to 3, see SET_RANK_BY_PLACE) of the cards a robot may use. */
function setRank(robot: RobotState): number {
  return Math.min(CARD_SET_ORDER.length, robot.stations.length >> 1)
}

/**
 * The shuffled pile of one deal, and the drawing of R7 from it: a robot takes the first card of
 * the pile it may use. A taken card leaves TAKEN in its place rather than being spliced out; each
 * of the four set ranks keeps its own cursor, since every card before it is taken or out of that
 * rank's reach for good.
 */
class Pile {
  private readonly cursor = [0, 0, 0, 0]

  /** `places` (places in FULL_DECK) becomes the pile's own: it is emptied as cards are taken. */
  constructor(private readonly places: number[]) {}

  /** The first card left that a robot of set rank `rank` may use, or null. */
  take(rank: number): Card | null {
    const places = this.places
    for (let i = this.cursor[rank]!; i < places.length; i++) {
      const place = places[i]!
      if (SET_RANK_BY_PLACE[place]! <= rank) {
        places[i] = TAKEN
        this.cursor[rank] = i + 1
        return FULL_DECK[place]!
      }
    }
    this.cursor[rank] = places.length
    return null
  }
}

/**
 * The places of the deck less the cards held in fused registers (R27), in FULL_DECK's order: all
 * places copied, then closed up over the held cards' places (`held`: in any order, repeats allowed).
 * Copying them all is one block copy; only the part after the first held card moves.
 */
function placesLess(held: number[] | null): number[] {
  const places = ALL_PLACES.slice()
  if (held === null) return places
  // Insertion sort: a deal holds a few fused cards at most, and a sort with a compare function costs more.
  for (let i = 1; i < held.length; i++) {
    const place = held[i]!
    let j = i - 1
    for (; j >= 0 && held[j]! > place; j--) held[j + 1] = held[j]!
    held[j + 1] = place
  }
  let next = 0
  let kept = held[0]!
  for (let place = kept; place < TAKEN; place++) {
    while (next < held.length && held[next]! < place) next++
    if (next < held.length && held[next] === place) continue
    places[kept++] = place
  }
  places.length = kept
  return places
}

/**
 * Deals the hands for the turn to be played (R7). The whole deck less the fused cards is
 * shuffled; a robot back online after a reboot first gets random cards for the registers fused
 * during the reboot (R33, which holds no card until then: see docs/rulings-added.md A1); then
 * robots are dealt in seat order, one card at a time round the table, each skipping the cards
 * it may not use.
 *
 * The same draws, in the same order, as the first version (one Fisher–Yates shuffle of the
 * remaining deck), so every stored game deals the same hands; only the bookkeeping is cheaper:
 * robots are copied only when a fused register gets its card, and the pile is walked, not spliced.
 */
export function dealHands(state: GameState): GameState {
  const given = state.robots
  const seats = given.length
  // One pass reads all a deal needs of each robot, each register once. The states come from JSON
  // and most of them are not in the processor's cache: reading a robot's fused registers, stations
  // and options is most of a deal's time, so none is read twice, and the pass does little else
  // between the reads, so that the processor can wait for several robots' reads at once.
  const ranks = new Array<number>(seats)
  const wanted = new Array<number>(seats)
  let held: number[] | null = null
  let waiting = false
  let most = 0
  for (let seat = 0; seat < seats; seat++) {
    const robot = given[seat]!
    const fused = robot.fused
    for (let k = 1; k <= REGISTER_COUNT; k++) {
      const card = fused[k]
      if (card === undefined) continue
      if (card === null) waiting ||= !robot.rebooting && robot.mode !== 'destroyed'
      else if (PLACE_BY_PRIORITY[card.priority]! >= 0) (held ??= []).push(PLACE_BY_PRIORITY[card.priority]!)
    }
    ranks[seat] = setRank(robot)
    const size = handSize(robot)
    wanted[seat] = size
    if (size > most) most = size
  }

  const rng = ownState(state.rng)
  const pile = new Pile(shuffleAdvancing(placesLess(held), rng))
  const robots = waiting ? fillWaitingRegisters(given, pile, ranks) : given

  // Each seat's hand is filled through its own list, not looked up by player name for every card.
  const bySeat = new Array<Card[]>(seats)
  for (let seat = 0; seat < seats; seat++) bySeat[seat] = []
  for (let round = 0; round < most; round++) {
    for (let seat = 0; seat < seats; seat++) {
      if (round >= wanted[seat]!) continue
      const card = pile.take(ranks[seat]!)
      if (card) bySeat[seat]!.push(card)
    }
  }
  const hands = byPlayer<Card[]>()
  for (let seat = 0; seat < seats; seat++) hands[robots[seat]!.player] = bySeat[seat]!
  return stateAfterDraws(state, robots, hands, rng)
}

/**
 * The state with the robots, hands and generator a deal (or a fill, program.ts) leaves, field by
 * field in GameState's order: a spread of a state parsed from JSON copies it key by key, where a
 * literal is one allocation of one shape.
 */
export function stateAfterDraws(state: GameState, robots: RobotState[], hands: Record<string, Card[]>, rng: RandomState): GameState {
  return { turn: state.turn, robots, board: state.board, optionDeck: state.optionDeck, hands, rng, gameOver: state.gameOver, winners: state.winners }
}

/** Whether a robot holds a fused register still waiting for its card (R33, A1). */
function waitsForFusedCard(robot: RobotState): boolean {
  if (robot.rebooting || robot.mode === 'destroyed') return false
  for (let k = 1; k <= REGISTER_COUNT; k++) if (robot.fused[k] === null) return true
  return false
}

/**
 * R33, A1: a robot back online after a reboot gets random cards, from the top of the pile, for the
 * registers fused while it rebooted (null until now), in seat order; a register the pile has no card
 * for is no longer fused. Only those robots are copied.
 */
function fillWaitingRegisters(given: readonly RobotState[], pile: Pile, ranks: readonly number[]): RobotState[] {
  const robots = given.slice()
  for (let seat = 0; seat < robots.length; seat++) {
    if (!waitsForFusedCard(robots[seat]!)) continue
    const robot = { ...robots[seat]!, fused: { ...robots[seat]!.fused } }
    for (const register in robot.fused) {
      if (robot.fused[register] !== null) continue
      const drawn = pile.take(ranks[seat]!)
      if (drawn) robot.fused[register] = drawn
      else delete robot.fused[register]
    }
    robots[seat] = robot
  }
  return robots
}
