// Property: a board seen in a mirror plays the same game, mirrored. Turning the board
// (board-rotation.test.ts) keeps left and right; a mirror swaps west and east, every gear's turn,
// every belt's curve and every turning card and sidestep (LF90 with RT90, SLF1 with SRT1, at the
// same priorities), so a rule that one hand gets wrong breaks it. Each turn starts from the
// straight game's state mirrored, so a difference names the turn and stage it began in.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { newGame } from '../../src/engine/game.js'
import { PLAYER_NAMES, randomOrders } from '../../src/engine/simulation.js'
import { resolveTurn, type TurnResult } from '../../src/engine/turn.js'
import type { Board, GameState, TurnOrders } from '../../src/engine/types.js'
import { crowdedCase, meetingCase, parsedCase, ringCase } from './crowded-boards.js'
import { mirroredBoard, mirroredBoardState, mirroredOrders, mirroredRegisters, mirroredSnapshot, mirroredState } from './mirrored.js'
import { boardArb, choicesArb, compile, withChoices } from './random-boards.js'

/** Plays one turn straight and in the mirror, and compares them stage by stage. */
function expectMirroredTurn(board: Board, mirrored: Board, state: GameState, orders: Record<string, TurnOrders>, cols: number, where: string): TurnResult {
  const straight = resolveTurn(board, state, orders)
  const other = resolveTurn(mirrored, mirroredState(state, cols), mirroredOrders(orders))
  expect(other.stages.length, `${where}, stages played`).toBe(straight.stages.length)
  straight.stages.forEach((stage, s) => {
    expect(other.stages[s]!.robots, `${where}, stage ${s + 1}`).toEqual(stage.robots.map((robot) => mirroredSnapshot(robot, cols)))
    expect(other.stages[s]!.board, `${where}, stage ${s + 1} board`).toEqual(mirroredBoardState(stage.board, cols))
  })
  expect(other.registers, `${where}, registers`).toEqual(mirroredRegisters(straight.registers))
  expect(other.state, `${where}, end`).toEqual(mirroredState(straight.state, cols))
  return straight
}

describe('property: a board seen in a mirror', () => {
  it('plays the same game, mirrored, on random boards with every element (R1-R34)', () => {
    const choices = fc.array(choicesArb, { minLength: 5, maxLength: 5 })
    // Some robots start with stations visited (R6), so sidesteps and the other card sets are dealt.
    const stations = fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 5, maxLength: 5 })
    fc.assert(fc.property(boardArb, fc.integer({ min: 2, max: 5 }), fc.integer(), choices, stations, (json, players, seed, chosen, visited) => {
      const board = compile(json)
      const mirrored = compile(mirroredBoard(json))
      const game = withChoices(newGame(board, PLAYER_NAMES.slice(0, players), seed), chosen)
      let state = { ...game, robots: game.robots.map((robot, i) => ({ ...robot, stations: board.squares.slice(0, visited[i]) })) }
      for (let turn = 1; turn <= 8 && !state.gameOver; turn++) {
        const [orders, dealt] = randomOrders(state)
        state = expectMirroredTurn(board, mirrored, dealt, orders, json.cols, `turn ${turn}`).state
      }
    }), { numRuns: 300 })
  })

  it('plays the same pusher phases, mirrored, on boards crowded with pushers (R13, R20, A3, A22)', () => {
    fc.assert(fc.property(fc.oneof(crowdedCase, meetingCase, ringCase), (json) => {
      const { board, state, orders } = parsedCase(json)
      expectMirroredTurn(board, compile(mirroredBoard(json.board)), state, orders, json.board.cols, 'the turn')
    }), { numRuns: 1000 })
  })
})
