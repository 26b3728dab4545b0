// The planner plays the engine's own rules: the turn it predicts for its chosen program is the
// turn resolveTurn plays with that program, for a robot alone and among robots whose programs it
// was told (the strong bot's guesses), on every shipped board.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { greedyObjective } from '../../src/bots/objectives.js'
import { bestPlan, registersFor } from '../../src/bots/plan.js'
import { seatViewOf } from '../../src/bots/seat-view.js'
import { fillMissingOrders } from '../../src/engine/program.js'
import { needsProgram, resolveTurn } from '../../src/engine/turn.js'
import type { Card, RobotState, TurnOrders } from '../../src/engine/types.js'
import { dealtCase, seatCaseArb } from './helpers.js'

const caseArb = seatCaseArb({ minPlayers: 2, rebooting: false })

const visible = (r: RobotState) => ({ player: r.player, at: r.at, facing: r.facing, hp: r.hp, mode: r.mode, flags: r.flags, robotsLeft: r.robotsLeft, checkpoint: r.checkpoint })

describe('the planner predicts what resolveTurn plays', () => {
  it('for a robot alone on the board: the same end square, facing, HP, flags and robots', () => {
    fc.assert(fc.property(caseArb, (t) => {
      const { board, dealt } = dealtCase(t)
      const alone = { ...dealt, robots: [dealt.robots[0]!], hands: { [dealt.robots[0]!.player]: dealt.hands[dealt.robots[0]!.player]! } }
      const plan = bestPlan(seatViewOf(board, alone, alone.robots[0]!.player), greedyObjective)
      const result = resolveTurn(board, alone, { [alone.robots[0]!.player]: plan.orders })
      expect(visible(plan.outcome.me)).toEqual(visible(result.state.robots[0]!))
      expect(plan.outcome.winners).toEqual(result.state.winners)
    }), { numRuns: 60 })
  })

  it('among robots playing programs it was told: every robot ends where resolveTurn puts it', () => {
    fc.assert(fc.property(caseArb, (t) => {
      const found = dealtCase(t)
      const board = found.board
      let dealt = found.dealt
      const me = dealt.robots[0]!
      const orders: Record<string, TurnOrders> = {}
      const others: Record<string, (Card | null)[]> = {}
      for (const robot of dealt.robots.slice(1)) {
        if (!needsProgram(robot)) { orders[robot.player] = { cards: [], rebootNext: false }; continue }
        const [filled, next] = fillMissingOrders(dealt, robot.player)
        dealt = next
        orders[robot.player] = { cards: filled.cards, rebootNext: false }
        others[robot.player] = registersFor(robot, filled.cards)
      }
      const plan = bestPlan(seatViewOf(board, dealt, me.player), greedyObjective, { others })
      const result = resolveTurn(board, dealt, { ...orders, [me.player]: plan.orders })
      expect(plan.outcome.robots.map(visible)).toEqual(result.state.robots.map(visible))
    }), { numRuns: 60 })
  })
})
