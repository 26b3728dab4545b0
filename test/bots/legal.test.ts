// Every bot returns a legal program (R8) whatever its seat looks like: random boards positions,
// hands, fused registers (with cards or waiting for them, R27, R33, A1), reboots, reinstated
// robots (R29, A4), unlocked card sets (R6) and Extra Memory (R32).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BOT_LEVELS, BOTS } from '../../src/bots/index.js'
import { choosesFacing } from '../../src/engine/turn.js'
import { seatViewOf } from '../../src/bots/seat-view.js'
import { programProblem } from '../../src/engine/program.js'
import { resolveTurn } from '../../src/engine/turn.js'
import { DIRECTIONS } from '../../src/engine/types.js'
import { dealtCase, seatCaseArb } from './helpers.js'

describe('every bot plays a legal program (R8)', () => {
  for (const level of BOT_LEVELS) {
    it(`${level}: random seats, hands, fused registers and reboots`, () => {
      fc.assert(fc.property(seatCaseArb({ minPlayers: 1, rebooting: true }), (t) => {
        const { board, dealt } = dealtCase(t)
        const robot = dealt.robots[0]!
        const orders = BOTS[level](seatViewOf(board, dealt, robot.player), t.seed)
        expect(programProblem(robot, dealt.hands[robot.player]!, orders.cards)).toBeNull()
        if (orders.facing !== undefined) {
          expect(choosesFacing(robot, dealt.turn)).toBe(true)
          expect(DIRECTIONS).toContain(orders.facing)
        }
        // The engine takes the program as it is: every other robot plays its random fill.
        const all = Object.fromEntries(dealt.robots.map((r) => [r.player, r === robot ? orders : { cards: dealt.hands[r.player]!.slice(0, programLength(r, dealt.hands[r.player]!.length)), rebootNext: false }]))
        expect(() => resolveTurn(board, dealt, all)).not.toThrow()
      }), { numRuns: level === 'random' ? 150 : 40 })
    })
  }
})

function programLength(robot: { rebooting: boolean; at: unknown; mode: string; fused: Record<string, unknown> }, held: number): number {
  if (robot.rebooting || robot.at === null || robot.mode === 'destroyed') return 0
  return Math.min(held, 5 - Object.keys(robot.fused).length)
}
