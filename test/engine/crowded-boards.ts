// Small boards crowded with pushers and robots, as rules cases (FORMAT.md), for the property tests
// of pusher phases: robots placed where a generator asks (in lines, round a ring, toward one
// square), more pushers and walls on their squares, a few floor elements, and programs of turning
// cards only, so that the pushers meet the robots where they were placed. Three kinds: robots in a
// line driven by a pusher (crowdedCase), lines driven toward one square (meetingCase) and robots
// round a ring of pushers whose pushes wait in a cycle (ringCase).
import fc from 'fast-check'
import { formatSquare, neighbour, opposite, parseSquare } from '../../src/engine/geometry.js'
import { parseRulesCase } from '../../src/engine/rules-case.js'
import { DIRECTIONS, type Direction } from '../../src/engine/types.js'
import { shuffledBy, stagesArb } from './random-boards.js'

/** The deck's cards that only turn a robot (R5): 42, enough for eight programs. */
export const TURNING_CARDS = [
  ...Array.from({ length: 6 }, (_, i) => `UTRN:${10 + 10 * i}`),
  ...Array.from({ length: 18 }, (_, i) => `LF90:${70 + 20 * i}`),
  ...Array.from({ length: 18 }, (_, i) => `RT90:${80 + 20 * i}`),
]

/** More pushers (pusher > 0) and walls (pusher 0) on the robots' squares, each on a robot the number picks. */
export const sidesArb = (limits: { minLength?: number; maxLength: number }) =>
  fc.array(fc.record({ pusher: fc.integer({ min: 0, max: 3 }), square: fc.nat(), side: fc.constantFrom(...DIRECTIONS), stages: stagesArb }), limits)

/** A few floor elements, on squares the numbers pick. */
export const floorsArb = (maxLength: number) =>
  fc.array(fc.record({ type: fc.constantFrom('pit', 'drawbridge', 'gear', 'conveyor'), square: fc.nat(), dir: fc.constantFrom(...DIRECTIONS), lowered: fc.boolean() }), { maxLength })

/** Up to eight robots, one in `virtualOneIn` virtual; `weak` from 0 to `weakMax`, where 0 and 1 make a weak robot (crowdedBoard). */
export const robotsArb = (minLength: number, virtualOneIn: number, weakMax: number) =>
  fc.array(fc.record({ square: fc.nat(), facing: fc.constantFrom(...DIRECTIONS), virtual: fc.integer({ min: 0, max: virtualOneIn - 1 }), weak: fc.integer({ min: 0, max: weakMax }) }), { minLength, maxLength: 8 })

/** A rules case (FORMAT.md) on a board of up to 5×5 squares with up to 12 pushers and walls and up to 8 robots. */
export const crowdedCase = fc.record({
  rows: fc.integer({ min: 2, max: 5 }),
  cols: fc.integer({ min: 3, max: 5 }),
  /** The first robots stand in a line, a pusher drives the first along it and another acts on the last: chains, often into other pushes. */
  line: fc.record({ length: fc.integer({ min: 2, max: 4 }), dir: fc.constantFrom(...DIRECTIONS), lastSide: fc.constantFrom(...DIRECTIONS) }),
  sides: sidesArb({ minLength: 2, maxLength: 10 }),
  floors: floorsArb(3),
  robots: robotsArb(3, 10, 3),
}).map(({ rows, cols, line, sides, floors, robots }) => {
  const { squares, elements, drawbridges, placed } = crowdedBoard(rows, cols, floors, robots, (previous) =>
    previous.length < line.length && previous.length > 0 ? formatSquare(neighbour(parseSquare(previous.at(-1)!)!, line.dir)) : null)
  // Pushers and walls go on the robots' squares, where they act on somebody.
  elements.push({ type: 'pusher', at: placed[0]!['at'], side: opposite(line.dir), stages: [1, 2, 3, 4, 5] })
  elements.push({ type: 'pusher', at: placed[Math.min(line.length, placed.length) - 1]!['at'], side: line.lastSide, stages: [1, 3, 5] })
  return rulesCase(rows, cols, squares, elements, drawbridges, placed, sides)
})

/**
 * The robots round a ring of two rows, each on a pusher that drives it toward the next square of
 * the ring: with every square of the ring taken, the pushes wait on one another in a cycle (R20).
 * `order` shuffles the ring's pushers in the board file, which decides the push that breaks it (A3).
 */
export const ringCase = fc.record({
  rows: fc.integer({ min: 4, max: 6 }),
  cols: fc.integer({ min: 4, max: 6 }),
  ring: fc.record({ row: fc.nat(), col: fc.nat(), long: fc.boolean(), backwards: fc.boolean(), gap: fc.integer({ min: -12, max: 5 }), order: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }) }),
  sides: sidesArb({ maxLength: 2 }),
  floors: floorsArb(3),
  robots: robotsArb(6, 20, 5),
}).map(({ rows, cols, ring, sides, floors, robots }) => {
  const width = ring.long ? 3 : 2
  // Off the fence where the board has room, so that the push breaking the cycle can shove a robot out.
  const row = 2 + (ring.row % (rows - 3))
  const col = cols - width >= 2 ? 2 + (ring.col % (cols - width - 1)) : 1 + (ring.col % (cols - width + 1))
  // Round the ring: east along the lower row, north, west along the upper row, south.
  const round: [number, number, Direction][] = [
    ...Array.from({ length: width - 1 }, (_, i): [number, number, Direction] => [row, col + i, 'E']),
    [row, col + width - 1, 'N'],
    ...Array.from({ length: width - 1 }, (_, i): [number, number, Direction] => [row + 1, col + width - 1 - i, 'W']),
    [row + 1, col, 'S'],
  ]
  const forwards = round.map(([r, c, dir]) => ({ at: `r${r}c${c}`, dir }))
  // The other way round, each square drives toward the one before it.
  const steps = ring.backwards ? forwards.map((step, i) => ({ at: step.at, dir: opposite(forwards.at(i - 1)!.dir) })) : forwards
  // Robots on the ring first, but for one square left empty when `gap` names one (no cycle then).
  const onRing = steps.map((step) => step.at).filter((_, i) => i !== ring.gap)
  const { squares, elements, drawbridges, placed } = crowdedBoard(rows, cols, floors, robots, (previous) => onRing[previous.length] ?? null, onRing)
  const pushers = steps.filter((step) => placed.some((robot) => robot['at'] === step.at))
    .map((step) => ({ type: 'pusher', at: step.at, side: opposite(step.dir), stages: [1, 2, 3, 4, 5] }))
  // In a random order in the board file.
  elements.push(...shuffledBy(pushers, ring.order))
  return rulesCase(rows, cols, squares, elements, drawbridges, placed, sides)
})

/**
 * Two lines of robots, each driven by a pusher toward one square, where a robot may stand on a
 * pusher of its own: chains that meet (A3), and chains that wait on a robot in the middle (R20).
 */
export const meetingCase = fc.record({
  rows: fc.integer({ min: 3, max: 6 }),
  cols: fc.integer({ min: 3, max: 6 }),
  target: fc.nat(),
  lines: fc.uniqueArray(fc.record({ dir: fc.constantFrom(...DIRECTIONS), length: fc.integer({ min: 1, max: 3 }) }), { minLength: 2, maxLength: 3, selector: (line) => line.dir }),
  middle: fc.option(fc.constantFrom(...DIRECTIONS)),
  sides: sidesArb({ maxLength: 2 }),
  floors: floorsArb(2),
  robots: robotsArb(4, 20, 3),
}).map(({ rows, cols, target, lines, middle, sides, floors, robots }) => {
  const at = parseSquare(`r${1 + (target % rows)}c${1 + (Math.floor(target / rows) % cols)}`)!
  // Each line comes toward the target from the side opposite its direction, its pusher at the far end.
  const behind = (dir: Direction, steps: number) => {
    let square = at
    for (let i = 0; i < steps; i++) square = neighbour(square, opposite(dir))
    return formatSquare(square)
  }
  const wanted = [...lines.flatMap(({ dir, length }) => Array.from({ length }, (_, i) => behind(dir, i + 1))), ...(middle ? [formatSquare(at)] : [])]
  const { squares, elements, drawbridges, placed } = crowdedBoard(rows, cols, floors, robots, (previous) => wanted[previous.length] ?? null, wanted)
  const stands = (square: string) => placed.some((robot) => robot['at'] === square)
  for (const { dir, length } of lines) if (stands(behind(dir, length))) elements.push({ type: 'pusher', at: behind(dir, length), side: opposite(dir), stages: [1, 2, 3, 4, 5] })
  if (middle && stands(formatSquare(at))) elements.push({ type: 'pusher', at: formatSquare(at), side: middle, stages: [1, 2, 3, 4, 5] })
  return rulesCase(rows, cols, squares, elements, drawbridges, placed, sides)
})

export type Element = Record<string, unknown>
export type Floors = { type: string; square: number; dir: Direction; lowered: boolean }[]
export type Robots = { square: number; facing: Direction; virtual: number; weak: number }[]

/**
 * A board of `rows` × `cols` with a few floor elements and robots placed on it: each robot goes
 * where `wanted` asks (given the squares of the robots before it) if that square is free, else on a
 * free square the generated number picks. `kept` squares get no floor element.
 */
export function crowdedBoard(rows: number, cols: number, floors: Floors, robots: Robots, wanted: (previous: string[]) => string | null, kept: readonly string[] = []) {
  const squares: string[] = []
  for (let r = 1; r <= rows; r++) for (let c = 1; c <= cols; c++) squares.push(`r${r}c${c}`)
  const elements: Element[] = []
  const drawbridges: Record<string, string> = {}
  const floored = new Set<string>()
  for (const { type, square, dir, lowered } of floors) {
    const at = squares[square % squares.length]!
    // Two squares at least stay bare, for the robots.
    if (floored.has(at) || kept.includes(at) || floored.size >= squares.length - 2) continue
    floored.add(at)
    if (type === 'pit') elements.push({ type, at })
    if (type === 'gear') elements.push({ type, at, turn: 'left' })
    if (type === 'conveyor') elements.push({ type, at, dir, colour: 'yellow' })
    if (type === 'drawbridge') {
      elements.push({ type, at, side: dir })
      drawbridges[at] = lowered ? 'lowered' : 'raised'
    }
  }
  const placed: Element[] = []
  const taken = new Set(floored)
  // R32's deck has one of each option, so the first two weak robots share the four out between them.
  const optionPairs = [['Rear Laser', 'Double Laser'], ['Extra Memory', 'Gyroscope']]
  for (const { square, facing, virtual, weak } of robots) {
    const free = squares.filter((at) => !taken.has(at))
    if (free.length === 0) break
    const along = wanted(placed.map((robot) => robot['at'] as string))
    const at = along !== null && free.includes(along) ? along : free[square % free.length]!
    taken.add(at)
    const program = TURNING_CARDS.slice(5 * placed.length, 5 * placed.length + 5)
    // Some robots at 2 HP, so that the fence behind a pusher can destroy them (R3), and some at 3 HP
    // with two options, which its damage takes first (R28); registers from the HP on fused (R27).
    const hp = weak === 0 ? 2 : weak === 1 ? 3 : 10
    const unfused = Math.min(5, hp - 1)
    placed.push({
      player: `P${placed.length + 1}`, at, facing, hp, mode: virtual === 0 ? 'virtual' : 'real', program: program.slice(0, unfused),
      ...(hp < 6 ? { fused: Object.fromEntries(program.slice(unfused).map((card, i) => [String(unfused + i + 1), card])) } : {}),
      ...(weak === 1 && optionPairs.length > 0 ? { options: optionPairs.shift()! } : {}),
    })
  }
  return { squares, elements, drawbridges, placed }
}

/** The rules case (FORMAT.md), with more pushers and walls on the robots' squares, as `sides` picks. */
export function rulesCase(rows: number, cols: number, squares: string[], elements: Element[], drawbridges: Record<string, string>, placed: Element[], sides: { pusher: number; square: number; side: Direction; stages: number[] }[]) {
  for (const { pusher, square, side, stages } of sides) {
    const at = placed[square % placed.length]!['at'] as string
    elements.push(pusher > 0 ? { type: 'pusher', at, side, stages } : { type: 'wall', at, side })
  }
  const floored = new Set(elements.filter((e) => e['type'] !== 'pusher' && e['type'] !== 'wall').map((e) => e['at']))
  const start = squares.find((at) => !floored.has(at)) ?? squares[0]!
  return { id: 'crowded', rulings: ['R20'], description: 'random', board: { rows, cols, start: { at: start, facing: 'N' }, elements }, boardState: { drawbridges }, turn: 3, robots: placed, expect: {} }
}


/** A generated case, parsed as `botwars resolve` parses one: the board, the state and the orders. */
export function parsedCase(json: unknown) {
  const parsed = parseRulesCase(json, () => { throw new Error('no board files here') })
  if (!parsed.ok) throw new Error(`generated case refused: ${JSON.stringify(parsed)}`)
  return parsed.value
}
