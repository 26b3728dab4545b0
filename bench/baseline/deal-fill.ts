// The dealing and filling code as it was before issue 17 (engine at d53a520), kept ONLY so that
// `npm run bench` can time it against today's code in the same process, alternating rounds.
// Never imported by the server or the tests' subjects: the engine's own code is src/engine.
// Its own copies of the helpers it called, so later changes to them do not change this baseline.
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus'
import { CARD_SET_OF, FULL_DECK } from '../../src/engine/deck.js'
import { needsProgram } from '../../src/engine/turn.js'
import { MAX_HP, REGISTER_COUNT, type Card, type CardSet, type GameState, type RandomState, type RobotState, type TurnOrders } from '../../src/engine/types.js'

type RandomInt = (min: number, max: number) => number

function withRandom<T>(state: RandomState, draw: (randomInt: RandomInt) => T): [T, RandomState] {
  const generator = xoroshiro128plusFromState(state)
  const value = draw((min, max) => uniformInt(generator, min, max))
  return [value, [...generator.getState()]]
}

function shuffled<T>(items: readonly T[], randomInt: RandomInt): T[] {
  const out = items.slice()
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(0, i)
    const t = out[i]!
    out[i] = out[j]!
    out[j] = t
  }
  return out
}

const CARD_SET_ORDER: readonly CardSet[] = ['reverse', 'sidestep', 'idle']

function cardSetsFor(stationsVisited: number): CardSet[] {
  return CARD_SET_ORDER.slice(0, Math.min(CARD_SET_ORDER.length, Math.floor(stationsVisited / 2)))
}

function canUseCard(card: Card, sets: readonly CardSet[]): boolean {
  const set = CARD_SET_OF[card.kind]
  return set === null || sets.includes(set)
}

function unfusedRegisters(robot: Pick<RobotState, 'fused'>): number[] {
  const out: number[] = []
  for (let k = 1; k <= REGISTER_COUNT; k++) if (!(k in robot.fused)) out.push(k)
  return out
}

function handSize(robot: RobotState): number {
  if (robot.mode === 'destroyed' || robot.rebooting || robot.at === null) return 0
  const extra = robot.options.includes('Extra Memory') ? 1 : 0
  return Math.max(0, Math.min(MAX_HP, robot.hp) - 1 + extra)
}

function fusedCards(state: GameState): Card[] {
  const out: Card[] = []
  for (const robot of state.robots) for (const card of Object.values(robot.fused)) if (card) out.push(card)
  return out
}

export function baselineDealHands(state: GameState): GameState {
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

export function baselineFillMissingOrders(state: GameState, player: string): [TurnOrders, GameState] {
  const robot = state.robots.find((r) => r.player === player)
  if (!robot) throw new Error(`fillMissingOrders: no robot for ${player}`)
  const wanted = needsProgram(robot) ? unfusedRegisters(robot).length : 0
  const hand = state.hands[player] ?? []
  const [cards, rng] = withRandom(state.rng, (randomInt) => shuffled(hand, randomInt).slice(0, wanted))
  return [{ cards, rebootNext: false, filledByServer: true }, { ...state, rng }]
}

/** The server's fill loop as it was (services/resolve.ts): one fill call per robot without a program. */
export function baselineFillAll(dealt: GameState): [Record<string, TurnOrders>, GameState] {
  let current = dealt
  const orders: Record<string, TurnOrders> = {}
  for (const robot of current.robots) {
    if (!needsProgram(robot)) { orders[robot.player] = { cards: [], rebootNext: false }; continue }
    const [filled, next] = baselineFillMissingOrders(current, robot.player)
    orders[robot.player] = filled
    current = next
  }
  return [orders, current]
}
