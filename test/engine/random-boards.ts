// Random board files (FORMAT.md section 1) with every element type, for the property tests: small
// boards (3 to 6 squares a side) with up to 14 floor elements and 10 walls, pushers and lasers, or
// boards of other sizes (boardArbOf); and the standing choices and options the players of a random
// game start with.
import fc from 'fast-check'
import { boardSchema, compileBoard } from '../../src/engine/board.js'
import { DIRECTIONS, DOUBLE_WRENCH_CHOICES, OPTION_NAMES, type Board, type BoardDefinition, type GameState, type OptionName } from '../../src/engine/types.js'

const FLOOR_TYPES = ['pit', 'conveyor', 'gear', 'crusher', 'drawbridge', 'teleporter', 'switch', 'wrench', 'flag', 'upgrade'] as const
/** The stages a crusher or a pusher acts in (R20, R22). */
export const stagesArb = fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 })

/** Everything one floor element might need; the type decides which fields are used. */
const floorSeed = fc.record({
  type: fc.constantFrom(...FLOOR_TYPES, 'conveyor', 'conveyor', 'flag'),
  dir: fc.constantFrom(...DIRECTIONS),
  blue: fc.boolean(),
  turn: fc.constantFrom('left', 'right', 'uturn'),
  stages: stagesArb,
  active: fc.boolean(),
  toggle: fc.boolean(),
  picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
  count: fc.constantFrom(1, 2),
})
const sideSeed = fc.record({
  type: fc.constantFrom('wall', 'wall', 'pusher', 'laser'),
  square: fc.nat(), side: fc.constantFrom(...DIRECTIONS), stages: stagesArb,
  red: fc.boolean(), strength: fc.integer({ min: 1, max: 3 }),
})

/** How large the boards of boardArbOf are: squares a side, floor elements, walls, pushers and lasers. */
export interface BoardSizes {
  side: { min: number; max: number }
  floors: { minLength: number; maxLength: number }
  sides: { minLength: number; maxLength: number }
}

/** A valid board file (FORMAT.md section 1) of the given sizes, built so that every rule of the format holds. */
export const boardArbOf = ({ side, floors: floorCount, sides: sideCount }: BoardSizes) => fc.record({
  rows: fc.integer(side),
  cols: fc.integer(side),
  order: fc.array(fc.nat(), { minLength: side.max * side.max, maxLength: side.max * side.max }),
  floors: fc.array(floorSeed, floorCount),
  sides: fc.array(sideSeed, sideCount),
  facing: fc.constantFrom(...DIRECTIONS),
}).map(({ rows, cols, order, floors, sides, facing }) => {
  const squares: string[] = []
  for (let r = 1; r <= rows; r++) for (let c = 1; c <= cols; c++) squares.push(`r${r}c${c}`)
  // A seeded permutation of the squares: the first is the start (left bare), the next hold floor elements.
  const shuffledSquares = squares.map((s, i) => [order[i]!, i, s] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2])
  const start = shuffledSquares[0]!
  const used = floors.slice(0, squares.length - 1)
  let flag = 0
  let colour = 0
  const elements: Record<string, unknown>[] = used.map((f, i) => {
    const at = shuffledSquares[i + 1]!
    switch (f.type) {
      case 'pit': return { type: 'pit', at }
      case 'conveyor': return { type: 'conveyor', at, dir: f.dir, colour: f.blue ? 'blue' : 'yellow' }
      case 'gear': return { type: 'gear', at, turn: f.turn }
      case 'crusher': return { type: 'crusher', at, stages: f.stages }
      case 'drawbridge': return { type: 'drawbridge', at, side: f.dir }
      case 'teleporter': return { type: 'teleporter', at, colour: `c${String.fromCharCode(97 + colour++)}`, active: f.active }
      case 'wrench': return { type: 'wrench', at, count: f.count }
      case 'flag': return { type: 'flag', at, number: ++flag }
      case 'upgrade': return { type: 'upgrade', at }
      default: return { type: 'switch', at, kind: f.toggle ? 'toggle' : 'pressure', picks: f.picks }
    }
  })
  const targetsFor = (kind: string) => elements.filter((e) => e['type'] === 'teleporter' || (kind === 'pressure' && e['type'] === 'drawbridge')).map((e) => e['at'] as string)
  const finished = elements.map((e) => {
    if (e['type'] !== 'switch') return e
    const options = targetsFor(e['kind'] as string)
    if (options.length === 0) return { type: 'upgrade', at: e['at'] }
    const targets = [...new Set((e['picks'] as number[]).map((p) => options[p % options.length]!))]
    return { type: 'switch', at: e['at'], kind: e['kind'], targets }
  })
  for (const s of sides) {
    const at = squares[s.square % squares.length]!
    if (s.type === 'wall') finished.push({ type: 'wall', at, side: s.side })
    else if (s.type === 'pusher') finished.push({ type: 'pusher', at, side: s.side, stages: s.stages })
    else finished.push({ type: 'laser', at, dir: s.side, colour: s.red ? 'red' : 'blue', strength: s.strength })
  }
  return { name: 'random', rows, cols, start: { at: start, facing }, elements: finished }
})

/** Small boards (3 to 6 squares a side), crowded with up to 14 floor elements and 10 walls, pushers and lasers. */
export const boardArb = boardArbOf({ side: { min: 3, max: 6 }, floors: { minLength: 0, maxLength: 14 }, sides: { minLength: 0, maxLength: 10 } })

export function compile(json: unknown): Board {
  const parsed = boardSchema.safeParse(json)
  if (!parsed.success) throw new Error(`generated board refused: ${JSON.stringify(parsed.error.issues[0])}`)
  return compileBoard(parsed.data as BoardDefinition)
}

/** A player's standing choices (R28, R31): with `option`, double wrenches hand out options, which the rest then use (R32). */
export const choicesArb = fc.record({
  sacrificeAt: fc.integer({ min: 0, max: 10 }),
  doubleWrench: fc.constantFrom(...DOUBLE_WRENCH_CHOICES),
  /** Options held from the start, as in a game under way (each goes to the first robot that asks). */
  options: fc.subarray([...OPTION_NAMES]),
})

export type Choices = typeof choicesArb extends fc.Arbitrary<infer T> ? T : never

/** A new game whose robots have the given standing choices and options (taken out of the option deck). */
export function withChoices(game: GameState, choices: readonly Choices[]): GameState {
  const taken = new Set<OptionName>()
  const robots = game.robots.map((robot, i) => {
    const { sacrificeAt, doubleWrench, options } = choices[i]!
    const own = options.filter((option) => !taken.has(option))
    for (const option of own) taken.add(option)
    return { ...robot, sacrificeAt, doubleWrench, options: own }
  })
  return { ...game, robots, optionDeck: game.optionDeck.filter((option) => !taken.has(option)) }
}

/** `items` in another order: a Fisher-Yates shuffle driven by generated numbers (`order`, reused round when shorter). */
export function shuffledBy<T>(items: readonly T[], order: readonly number[]): T[] {
  const out = items.slice()
  for (let i = out.length - 1; i > 0; i--) {
    const j = order[i % order.length]! % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}
