// Property: turns with more robots than a game seats. A rules case may hold up to 50 robots (FORMAT.md
// section 2), while the games of the other properties seat at most eight: here 9 to 16 robots, some
// virtual and sharing squares (R24), some weak with fused registers (R27), some rebooting (R33) or
// holding options (R32), play one turn on boards of 7 to 13 squares a side with every element type.
// Each turn keeps the invariants of every moment (robot-invariants.ts), the options are conserved
// (R32), and its event log tells the story the robots show and the rules call for (log-replay.ts).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FULL_DECK, canUseCard, cardSetsFor, formatCard } from '../../src/engine/deck.js'
import { parseRulesCase } from '../../src/engine/rules-case.js'
import { resolveTurn } from '../../src/engine/turn.js'
import { DIRECTIONS, OPTION_NAMES } from '../../src/engine/types.js'
import { logProblems } from './log-replay.js'
import { boardArbOf, shuffledBy } from './random-boards.js'
import { checkRobots } from './robot-invariants.js'

const largeBoardArb = boardArbOf({ side: { min: 7, max: 13 }, floors: { minLength: 20, maxLength: 70 }, sides: { minLength: 10, maxLength: 45 } })

const robotArb = fc.record({
  square: fc.nat(),
  facing: fc.constantFrom(...DIRECTIONS),
  virtual: fc.boolean(),
  hp: fc.constantFrom(10, 10, 10, 9, 7, 5, 4, 3, 2, 1),
  rebooting: fc.integer({ min: 0, max: 5 }),
  rebootNext: fc.boolean(),
  options: fc.subarray([...OPTION_NAMES], { maxLength: 2 }),
})

type GeneratedRobot = typeof robotArb extends fc.Arbitrary<infer R> ? R : never

/** The cards of the base set (R6), 84: enough for sixteen programs of five, fused registers included. */
const BASE_CARDS = FULL_DECK.filter((card) => canUseCard(card, cardSetsFor(0)))

/** A rules case (FORMAT.md section 2) with the robots placed on squares they may stand on, each with its own cards. */
function manyRobotsCase(json: { rows: number; cols: number; elements: Record<string, unknown>[] }, robots: readonly GeneratedRobot[], order: readonly number[]) {
  const holes = new Set(json.elements.filter((e) => e['type'] === 'pit' || e['type'] === 'drawbridge').map((e) => e['at']))
  const squares: string[] = []
  for (let r = 1; r <= json.rows; r++) for (let c = 1; c <= json.cols; c++) if (!holes.has(`r${r}c${c}`)) squares.push(`r${r}c${c}`)
  const deck = shuffledBy(BASE_CARDS, order).map(formatCard)
  const realOn = new Set<string>()
  const held = new Set<string>()
  return {
    board: json,
    turn: 4,
    robots: robots.map((robot, i) => {
      const at = squares[robot.square % squares.length]!
      const virtual = robot.virtual || realOn.has(at)
      if (!virtual) realOn.add(at)
      // A rebooting robot was set to 10 HP with nothing fused when its reboot began (R33).
      const rebooting = robot.rebooting === 0
      const hp = rebooting ? 10 : robot.hp
      const cards = deck.slice(5 * i, 5 * i + 5)
      const unfused = Math.min(5, hp - 1)
      const options = robot.options.filter((option) => !held.has(option))
      for (const option of options) held.add(option)
      return {
        player: `P${i + 1}`, at, facing: robot.facing, hp, mode: virtual ? 'virtual' : 'real', rebooting, rebootNext: robot.rebootNext, options,
        program: rebooting ? [] : cards.slice(0, unfused),
        fused: Object.fromEntries(cards.slice(unfused).map((card, k) => [String(unfused + k + 1), card])),
      }
    }),
  }
}

describe('property: turns with 9 to 16 robots on boards up to 13 squares a side', () => {
  it('keep every invariant at every stage, conserve the options and tell a true story (R3, R24, R27, R32, R33)', () => {
    fc.assert(fc.property(largeBoardArb, fc.array(robotArb, { minLength: 9, maxLength: 16 }), fc.array(fc.nat(), { minLength: 84, maxLength: 84 }), (json, robots, order) => {
      const parsed = parseRulesCase(manyRobotsCase(json, robots, order), () => { throw new Error('the case names its board inline') })
      if (!parsed.ok) throw new Error(`generated case refused: ${parsed.error}`)
      const { board, state, orders } = parsed.value
      const result = resolveTurn(board, state, orders)
      checkRobots(board, result.start.robots, 'start')
      for (const stage of result.stages) checkRobots(board, stage.robots, `stage ${stage.stage}`)
      checkRobots(board, result.state.robots, 'end')
      const options = [...result.state.optionDeck, ...result.state.robots.flatMap((robot) => robot.options)].sort()
      expect(options, 'the options (R32)').toEqual([...OPTION_NAMES].sort())
      expect(logProblems(result, 'the turn', state, board, orders)).toEqual([])
    }), { numRuns: 300 })
  })
})
