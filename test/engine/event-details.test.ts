// What the event log tells besides where robots end: the report's cells are made from these
// events, yet no rules case reads them, and a mutation run (docs/performance.md, "Issue 17, 2026-11-27,
// early morning", and "Issue 17, 2026-11-27, morning" for the pusher phase) found each of these lines
// could change without any test noticing.
import { describe, expect, it } from 'vitest'
import type { GameEvent } from '../../src/engine/events.js'
import { resolveTurn, type TurnResult } from '../../src/engine/turn.js'
import { makeBoard, orders, robot, sq, stateWith } from './helpers.js'

const TURNS = ['RT90:80', 'LF90:70', 'RT90:100', 'LF90:90']

function allEvents(result: TurnResult): GameEvent[] {
  return [...result.start.events, ...result.stages.flatMap((stage) => stage.events), ...result.end.events]
}

describe('the event log tells', () => {
  it('a belt that a wall stops: "obstructed" by the wall, and no move (R4, R18)', () => {
    const board = makeBoard([
      { type: 'conveyor', at: 'r3c3', dir: 'N', colour: 'yellow' },
      { type: 'wall', at: 'r3c3', side: 'N' },
    ])
    const state = stateWith(board, [robot('Ann', board, { at: sq('r3c3'), facing: 'E' })])
    const stage1 = resolveTurn(board, state, orders({ Ann: ['UTRN:10', ...TURNS] })).stages[0]!
    const belt = stage1.events.filter((event) => event.time.phase === 'conveyor')
    expect(belt.map((event) => event.kind)).toEqual(['obstructed'])
    expect(belt[0]).toMatchObject({ player: 'Ann', at: sq('r3c3'), reason: 'wall' })
  })

  it('a belt into the fence: 2 damage, then "obstructed" by the fence (R3, R19)', () => {
    const board = makeBoard([{ type: 'conveyor', at: 'r5c3', dir: 'N', colour: 'yellow' }])
    const state = stateWith(board, [robot('Ann', board, { at: sq('r5c3'), facing: 'E' })])
    const stage1 = resolveTurn(board, state, orders({ Ann: ['UTRN:10', ...TURNS] })).stages[0]!
    const belt = stage1.events.filter((event) => event.time.phase === 'conveyor')
    expect(belt.map((event) => event.kind)).toEqual(['damaged', 'obstructed'])
    expect(belt[1]).toMatchObject({ player: 'Ann', reason: 'fence' })
  })

  it('a card step into a wall: "obstructed" by the wall, not by a robot (R4, R12)', () => {
    const board = makeBoard([{ type: 'wall', at: 'r3c3', side: 'N' }])
    const state = stateWith(board, [robot('Ann', board, { at: sq('r3c3'), facing: 'N' })])
    const stage1 = resolveTurn(board, state, orders({ Ann: ['FWD1:490', ...TURNS] })).stages[0]!
    const stopped = stage1.events.filter((event) => event.kind === 'obstructed')
    expect(stopped).toHaveLength(1)
    expect(stopped[0]).toMatchObject({ player: 'Ann', at: sq('r3c3'), reason: 'wall' })
  })

  it('damage an option takes in full: the option given up, and no "damaged" event of 0 HP (R28)', () => {
    const board = makeBoard()
    const state = stateWith(board, [
      robot('Ann', board, { at: sq('r2c3'), facing: 'N' }),
      robot('Bob', board, { at: sq('r4c3'), facing: 'N', hp: 6, options: ['Gyroscope'] }),
    ])
    // Ann steps to r3c3 and hits Bob, at 6 HP, his sacrifice threshold: he gives up the Gyroscope
    // instead (R28). Bob turns E and hits nobody.
    const stage1 = resolveTurn(board, state, orders({
      Ann: ['FWD1:490', ...TURNS],
      Bob: ['RT90:120', 'LF90:110', 'RT90:140', 'LF90:130', 'RT90:160'],
    })).stages[0]!
    const combat = stage1.events.filter((event) => event.time.phase === 'combat' && event.kind !== 'robot-laser')
    expect(combat).toMatchObject([{ kind: 'option-sacrificed', player: 'Bob', option: 'Gyroscope' }])
    expect(combat).toHaveLength(1)
    expect(stage1.robots[1]!.hp).toBe(6)
  })

  it('each event at its moment: becoming real in the mode check, repairs at the end of the turn (R25, R31)', () => {
    const board = makeBoard([{ type: 'wrench', at: 'r3c3', count: 1 }])
    const state = stateWith(board, [robot('Ann', board, { at: sq('r3c3'), facing: 'N', hp: 9, mode: 'virtual', placedAfterTurn: 0 })], { turn: 1 })
    const result = resolveTurn(board, state, orders({ Ann: ['RT90:80', 'LF90:70', 'RT90:100', 'LF90:90', 'UTRN:10'] }))
    const real = allEvents(result).filter((event) => event.kind === 'became-real')
    expect(real.map((event) => event.time)).toMatchObject([{ stage: 5, phase: 'mode' }])
    const repaired = result.end.events.filter((event) => event.kind === 'repaired')
    expect(repaired.map((event) => event.time)).toMatchObject([{ stage: 0, phase: 'end' }])
  })

  it('a virtual robot whose push a wall stops: "obstructed" by the wall in the pusher phase (R20, R24)', () => {
    const board = makeBoard([
      { type: 'pusher', at: 'r3c3', side: 'S', stages: [1] },
      { type: 'wall', at: 'r3c3', side: 'N' },
    ])
    const state = stateWith(board, [robot('Ann', board, { at: sq('r3c3'), facing: 'E', mode: 'virtual', placedAfterTurn: 0 })], { turn: 1 })
    const stage1 = resolveTurn(board, state, orders({ Ann: ['RT90:80', 'LF90:70', 'RT90:100', 'LF90:90', 'UTRN:10'] })).stages[0]!
    const pushed = stage1.events.filter((event) => event.time.phase === 'pusher')
    expect(pushed).toMatchObject([{ kind: 'obstructed', player: 'Ann', at: sq('r3c3'), reason: 'wall' }])
    expect(stage1.robots[0]!.at).toEqual(sq('r3c3'))
  })

  it('pushes that walls stop ahead of their chains: told in the seat order of the robots pushing, not of the chains\' ends (R13, R20, A25)', () => {
    // Ann (first seat) pushes Dan (last) into a wall; Bob pushes Cid into a wall, two rows up.
    const board = makeBoard([
      { type: 'pusher', at: 'r2c1', side: 'W', stages: [1] },
      { type: 'wall', at: 'r2c2', side: 'E' },
      { type: 'pusher', at: 'r4c1', side: 'W', stages: [1] },
      { type: 'wall', at: 'r4c2', side: 'E' },
    ])
    const state = stateWith(board, [
      robot('Ann', board, { at: sq('r2c1'), facing: 'N' }),
      robot('Bob', board, { at: sq('r4c1'), facing: 'N' }),
      robot('Cid', board, { at: sq('r4c2'), facing: 'N' }),
      robot('Dan', board, { at: sq('r2c2'), facing: 'N' }),
    ])
    const stage1 = resolveTurn(board, state, orders({
      Ann: ['RT90:80', 'LF90:70', 'RT90:100', 'LF90:90', 'UTRN:10'],
      Bob: ['RT90:120', 'LF90:110', 'RT90:140', 'LF90:130', 'RT90:160'],
      Cid: ['RT90:200', 'LF90:210', 'RT90:220', 'LF90:230', 'RT90:240'],
      Dan: ['RT90:300', 'LF90:310', 'RT90:320', 'LF90:330', 'RT90:340'],
    })).stages[0]!
    const pushed = stage1.events.filter((event) => event.time.phase === 'pusher')
    expect(pushed).toMatchObject([
      { kind: 'obstructed', player: 'Ann', at: sq('r2c1'), reason: 'robot' },
      { kind: 'obstructed', player: 'Bob', at: sq('r4c1'), reason: 'robot' },
    ])
    expect(pushed).toHaveLength(2)
  })

  it("beams from turrets on a robot's own square: taken in the turrets' direction order N, E, S, W, whatever the board file says (R23, A25)", () => {
    // All beams strike at once, but a robot takes them one by one, and each damage event tells
    // the HP after it: the order is the report's, so it must not hang on the board file's order.
    const STRENGTH = { N: 1, E: 2, S: 3, W: 1 } as const
    for (const lasers of [['W', 'S', 'E', 'N'], ['N', 'E', 'S', 'W'], ['S', 'W', 'N', 'E']] as const) {
      const board = makeBoard(lasers.map((dir) => ({ type: 'laser', at: 'r3c3', dir, colour: 'red', strength: STRENGTH[dir] })))
      const state = stateWith(board, [robot('Ann', board, { at: sq('r3c3'), facing: 'E' })])
      const stage1 = resolveTurn(board, state, orders({ Ann: ['UTRN:10', ...TURNS] })).stages[0]!
      const beams = stage1.events.filter((event) => event.kind === 'board-laser')
      expect(beams.map((event) => event.kind === 'board-laser' && event.dir), lasers.join()).toEqual(['N', 'E', 'S', 'W'])
      const damage = stage1.events.filter((event) => event.kind === 'damaged')
      expect(damage.map((event) => event.kind === 'damaged' && [event.amount, event.hp]), lasers.join()).toEqual([[1, 9], [2, 7], [3, 4], [1, 3]])
    }
  })
})
