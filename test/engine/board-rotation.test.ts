// Property: a board turned a quarter turn plays the same game, turned. Nothing in the rules knows
// north from east (R1-R34 speak of a robot's facing, a wall's side, a belt's arrow), so the same
// seeded game on a board and on that board turned clockwise (every square, side, arrow and facing
// turned, the board file's order kept: rotated.ts) must deal the same cards and leave every robot
// at every stage where the first game left it, turned, with the same HP, registers, flags and
// options; the board state and the option deck too. A rule written for one direction and not the
// others, or an order taken from the board's squares where the rules act at once, breaks it.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { newGame } from '../../src/engine/game.js'
import { PLAYER_NAMES, randomOrders } from '../../src/engine/simulation.js'
import { resolveTurn, type TurnResult } from '../../src/engine/turn.js'
import type { GameState } from '../../src/engine/types.js'
import { crowdedCase, meetingCase, parsedCase, ringCase } from './crowded-boards.js'
import { boardArb, choicesArb, compile, withChoices } from './random-boards.js'
import { turnedBoard, turnedBoardState, turnedCase, turnedRobot, turnedSnapshot } from './rotated.js'

/** Compares a turn with the same turn on the board turned, stage by stage, so a failure names the first stage that differs. */
function expectTurnedTurn(straight: TurnResult, turned: TurnResult, cols: number, where: string): void {
  expect(turned.start.robots, `${where}, start`).toEqual(straight.start.robots.map((robot) => turnedSnapshot(robot, cols)))
  expect(turned.stages.length, `${where}, stages played`).toBe(straight.stages.length)
  straight.stages.forEach((stage, s) => {
    expect(turned.stages[s]!.robots, `${where}, stage ${s + 1}`).toEqual(stage.robots.map((robot) => turnedSnapshot(robot, cols)))
    expect(turned.stages[s]!.board, `${where}, stage ${s + 1} board`).toEqual(turnedBoardState(stage.board, cols))
  })
  expect(turned.registers, `${where}, registers`).toEqual(straight.registers)
  expectTurnedState(straight.state, turned.state, cols, `${where}, end`)
}

function expectTurnedState(straight: GameState, turned: GameState, cols: number, where: string): void {
  expect(turned.robots, `${where}: robots`).toEqual(straight.robots.map((robot) => turnedRobot(robot, cols)))
  expect(turned.board, `${where}: board`).toEqual(turnedBoardState(straight.board, cols))
  expect({ ...turned, robots: [], board: null }, where).toEqual({ ...straight, robots: [], board: null })
}

describe('property: a board turned a quarter turn', () => {
  it('plays the same game, turned, on random boards with every element (R1-R34)', () => {
    const choices = fc.array(choicesArb, { minLength: 5, maxLength: 5 })
    fc.assert(fc.property(boardArb, fc.integer({ min: 2, max: 5 }), fc.integer(), choices, (json, players, seed, chosen) => {
      const board = compile(json)
      const turned = compile(turnedBoard(json))
      // Robots with options from the start (R32: Rear Laser fires backward, Double Laser hurts more).
      let state = withChoices(newGame(board, PLAYER_NAMES.slice(0, players), seed), chosen)
      let other = withChoices(newGame(turned, PLAYER_NAMES.slice(0, players), seed), chosen)
      expectTurnedState(state, other, json.cols, 'the new game')
      for (let turn = 1; turn <= 8 && !state.gameOver; turn++) {
        const [orders, dealt] = randomOrders(state)
        const [otherOrders, otherDealt] = randomOrders(other)
        expect(otherOrders, `turn ${turn}: the programs`).toEqual(orders)
        const result = resolveTurn(board, dealt, orders)
        const otherResult = resolveTurn(turned, otherDealt, otherOrders)
        expectTurnedTurn(result, otherResult, json.cols, `turn ${turn}`)
        state = result.state
        other = otherResult.state
      }
    }), { numRuns: 500 })
  })

  it('plays the same pusher phases, turned, on boards crowded with pushers (R13, R20, A3, A22)', () => {
    // Cycles of waiting pushes included (ringCase): the board file keeps its order when turned.
    fc.assert(fc.property(fc.oneof(crowdedCase, meetingCase, ringCase), (json) => {
      const straight = parsedCase(json)
      const turned = parsedCase(turnedCase(json))
      const result = resolveTurn(straight.board, straight.state, straight.orders)
      expectTurnedTurn(result, resolveTurn(turned.board, turned.state, turned.orders), json.board.cols, 'the turn')
    }), { numRuns: 1500 })
  })
})
