// Property: a virtual robot changes no other robot's stage (R24). Virtual robots neither push nor
// are pushed, take no part in conveyor and pusher conflicts, neither stop nor cancel another
// robot's move, and fire no laser (R26, whose beams pass through them). So taking one virtual
// robot off the board before the turn must leave every other robot's square, facing and HP as
// they were, where no teleporter, switch, board laser, flag or station is about (a virtual
// robot's square does count there). Its mode too, but for a virtual robot that ended the stage on
// the removed robot's square, which the removed robot kept from being alone there (R25, A8). Two
// properties: stage 1 on the crowded pusher boards (virtual robots alone on their squares become
// real after it, R25), and the whole first turn of games on random boards, where every robot is
// virtual and plays cards that move it.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { newGame } from '../../src/engine/game.js'
import { sameSquare } from '../../src/engine/geometry.js'
import { PLAYER_NAMES, randomOrders } from '../../src/engine/simulation.js'
import { resolveTurn } from '../../src/engine/turn.js'
import { crowdedCase, meetingCase, parsedCase, ringCase } from './crowded-boards.js'
import { boardArb, compile } from './random-boards.js'

type Case = { robots: Record<string, unknown>[] }

describe('property: a virtual robot taken off the board', () => {
  it('changes no other robot\'s square, facing or HP in stage 1 on boards crowded with pushers (R24)', () => {
    let compared = 0
    fc.assert(fc.property(fc.oneof(crowdedCase, meetingCase, ringCase), fc.nat(), (json: Case, pick) => {
      const virtual = json.robots.filter((robot) => robot['mode'] === 'virtual')
      if (virtual.length === 0) return
      const gone = virtual[pick % virtual.length]!['player'] as string
      const withIt = parsedCase(json)
      const without = parsedCase({ ...json, robots: json.robots.filter((robot) => robot['player'] !== gone) })
      const stage = resolveTurn(withIt.board, withIt.state, withIt.orders).stages[0]!.robots
      const stageWithout = resolveTurn(without.board, without.state, without.orders).stages[0]!.robots
      const goneAt = stage.find((robot) => robot.player === gone)!.at
      const expected = stage.filter((robot) => robot.player !== gone)
        .map((robot) => (sameSquare(robot.at, goneAt) ? { ...robot, mode: expect.anything() } : robot))
      expect(stageWithout).toEqual(expected)
      compared++
    }), { numRuns: 1500 })
    // About a third of the cases hold a virtual robot (about 550 of 1,500).
    expect(compared).toBeGreaterThan(300)
  })
  it('changes no other robot\'s stage in the first turn of a game on random boards, where every robot is virtual (R24, R25)', () => {
    // Every robot starts virtual on the start square and stays virtual through turn 1 (R25), playing
    // cards that move it, over belts, pushers, gears, crushers, pits and drawbridges. Teleporters,
    // switches, board lasers, flags and the stations that hand out options are taken off the board:
    // there one robot's square or draw does count for another.
    const counts = new Set(['teleporter', 'switch', 'laser', 'flag', 'wrench', 'upgrade'])
    fc.assert(fc.property(boardArb, fc.integer({ min: 2, max: 5 }), fc.integer(), fc.nat(), (json, players, seed, pick) => {
      const board = compile({ ...json, elements: json.elements.filter((element) => !counts.has(element['type'] as string)) })
      const [orders, dealt] = randomOrders(newGame(board, PLAYER_NAMES.slice(0, players), seed))
      const gone = dealt.robots[pick % players]!.player
      const { [gone]: _orders, ...othersOrders } = orders
      const { [gone]: _hand, ...othersHands } = dealt.hands
      const without = { ...dealt, robots: dealt.robots.filter((robot) => robot.player !== gone), hands: othersHands }
      const stages = resolveTurn(board, dealt, orders).stages
      const stagesWithout = resolveTurn(board, without, othersOrders).stages
      stages.forEach(({ robots }, s) => {
        const goneAt = robots.find((robot) => robot.player === gone)!.at
        const others = robots.filter((robot) => robot.player !== gone)
          // At the end of stage 5 a robot alone on its square becomes real (R25, A8).
          .map((robot) => (s === 4 && sameSquare(robot.at, goneAt) ? { ...robot, mode: expect.anything() } : robot))
        expect(stagesWithout[s]!.robots, `stage ${s + 1}`).toEqual(others)
      })
    }), { numRuns: 500 })
  })
})
