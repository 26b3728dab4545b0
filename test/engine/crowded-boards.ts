// Small boards crowded with pushers and robots, as rules cases (FORMAT.md), for the property tests
// of pusher phases: robots placed where a generator asks (in lines, round a ring, toward one
// square), more pushers and walls on their squares, a few floor elements, and programs of turning
// cards only, so that the pushers meet the robots where they were placed.
import fc from 'fast-check'
import { parseRulesCase } from '../../src/engine/rules-case.js'
import { DIRECTIONS, type Direction } from '../../src/engine/types.js'
import { stagesArb } from './random-boards.js'

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
      ...(weak === 1 ? { options: ['Rear Laser', 'Double Laser'] } : {}),
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
