// Property: on small boards crowded with pushers and robots, every pusher phase the engine plays
// is what R13, R20, R24, A3 and A22 call for, as the log replay judges it from the board file
// (log-replay-pushers.ts, its model of R20 included). Robots play only turning cards, so the
// pushers meet the robots where they were placed, in every stage a pusher acts.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { GameEvent } from '../../src/engine/events.js'
import { formatSquare, neighbour, opposite, parseSquare } from '../../src/engine/geometry.js'
import { parseRulesCase } from '../../src/engine/rules-case.js'
import { resolveTurn } from '../../src/engine/turn.js'
import { DIRECTIONS } from '../../src/engine/types.js'
import { logProblems } from './log-replay.js'

type Moved = Extract<GameEvent, { kind: 'moved' }>
/** The deck's cards that only turn a robot (R5): 42, enough for eight programs. */
const TURNING_CARDS = [
  ...Array.from({ length: 6 }, (_, i) => `UTRN:${10 + 10 * i}`),
  ...Array.from({ length: 18 }, (_, i) => `LF90:${70 + 20 * i}`),
  ...Array.from({ length: 18 }, (_, i) => `RT90:${80 + 20 * i}`),
]
const stagesArb = fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 })

/** A rules case (FORMAT.md) on a board of up to 5×5 squares with up to 12 pushers and walls and up to 8 robots. */
const crowdedCase = fc.record({
  rows: fc.integer({ min: 2, max: 5 }),
  cols: fc.integer({ min: 3, max: 5 }),
  /** The first robots stand in a line, a pusher drives the first along it and another acts on the last: chains, often into other pushes. */
  line: fc.record({ length: fc.integer({ min: 2, max: 4 }), dir: fc.constantFrom(...DIRECTIONS), lastSide: fc.constantFrom(...DIRECTIONS) }),
  sides: fc.array(fc.record({ pusher: fc.integer({ min: 0, max: 3 }), square: fc.nat(), side: fc.constantFrom(...DIRECTIONS), stages: stagesArb }), { minLength: 2, maxLength: 10 }),
  floors: fc.array(fc.record({ type: fc.constantFrom('pit', 'drawbridge', 'gear', 'conveyor'), square: fc.nat(), dir: fc.constantFrom(...DIRECTIONS), lowered: fc.boolean() }), { maxLength: 3 }),
  robots: fc.array(fc.record({ square: fc.nat(), facing: fc.constantFrom(...DIRECTIONS), virtual: fc.integer({ min: 0, max: 9 }), weak: fc.integer({ min: 0, max: 3 }) }), { minLength: 3, maxLength: 8 }),
}).map(({ rows, cols, line, sides, floors, robots }) => {
  const squares: string[] = []
  for (let r = 1; r <= rows; r++) for (let c = 1; c <= cols; c++) squares.push(`r${r}c${c}`)
  const elements: Record<string, unknown>[] = []
  const drawbridges: Record<string, string> = {}
  const floored = new Set<string>()
  for (const { type, square, dir, lowered } of floors) {
    const at = squares[square % squares.length]!
    // Two squares at least stay bare, for the robots.
    if (floored.has(at) || floored.size >= squares.length - 2) continue
    floored.add(at)
    if (type === 'pit') elements.push({ type, at })
    if (type === 'gear') elements.push({ type, at, turn: 'left' })
    if (type === 'conveyor') elements.push({ type, at, dir, colour: 'yellow' })
    if (type === 'drawbridge') {
      elements.push({ type, at, side: dir })
      drawbridges[at] = lowered ? 'lowered' : 'raised'
    }
  }
  const placed: Record<string, unknown>[] = []
  const taken = new Set(floored)
  for (const { square, facing, virtual, weak } of robots) {
    const free = squares.filter((at) => !taken.has(at))
    if (free.length === 0) break
    const previous = placed.at(-1)?.['at'] as string | undefined
    const along = previous === undefined ? null : formatSquare(neighbour(parseSquare(previous)!, line.dir))
    const at = placed.length < line.length && along !== null && free.includes(along) ? along : free[square % free.length]!
    taken.add(at)
    const program = TURNING_CARDS.slice(5 * placed.length, 5 * placed.length + 5)
    // Some robots at 2 HP, so that the fence behind a pusher can destroy them (R3): registers 2-5 fused (R27).
    const hp = weak === 0 ? 2 : 10
    placed.push({
      player: `P${placed.length + 1}`, at, facing, hp, mode: virtual === 0 ? 'virtual' : 'real',
      ...(hp === 2 ? { fused: Object.fromEntries(program.slice(1).map((card, i) => [String(i + 2), card])), program: program.slice(0, 1) } : { program }),
    })
  }
  // Pushers and walls go on the robots' squares, where they act on somebody.
  elements.push({ type: 'pusher', at: placed[0]!['at'], side: opposite(line.dir), stages: [1, 2, 3, 4, 5] })
  elements.push({ type: 'pusher', at: placed[Math.min(line.length, placed.length) - 1]!['at'], side: line.lastSide, stages: [1, 3, 5] })
  for (const { pusher, square, side, stages } of sides) {
    const at = placed[square % placed.length]!['at'] as string
    elements.push(pusher > 0 ? { type: 'pusher', at, side, stages } : { type: 'wall', at, side })
  }
  const start = squares.find((at) => !floored.has(at)) ?? squares[0]!
  return { id: 'crowded', rulings: ['R20'], description: 'random', board: { rows, cols, start: { at: start, facing: 'N' }, elements }, boardState: { drawbridges }, turn: 3, robots: placed, expect: {} }
})

describe('property: pusher phases on boards crowded with pushers', () => {
  it('move the robots as R13, R20, R24, A3 and A22 call for', () => {
    let waited = 0
    fc.assert(fc.property(crowdedCase, (json) => {
      const parsed = parseRulesCase(json, () => { throw new Error('no board files here') })
      if (!parsed.ok) throw new Error(`generated case refused: ${JSON.stringify(parsed)}`)
      const { board, state, orders } = parsed.value
      const result = resolveTurn(board, state, orders)
      expect(logProblems(result, 'crowded', state, board, orders)).toEqual([])
      // Pushes that waited (R20): a robot moved into the square another robot's own pusher emptied.
      for (const { events } of result.stages) {
        const moves = events.filter((e): e is Moved => e.kind === 'moved' && e.time.phase === 'pusher')
        const left = new Set(moves.filter((m) => m.cause === 'pusher').map((m) => formatSquare(m.from)))
        waited += moves.filter((m) => left.has(formatSquare(m.to))).length
      }
    }), { numRuns: 1500 })
    // The boards are crowded enough that chains and other pushes often act in one phase.
    expect(waited).toBeGreaterThan(100)
  })
})
