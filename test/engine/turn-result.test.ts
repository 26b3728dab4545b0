// What resolveTurn hands back besides where the robots end: each stage's picture of the board, the
// registers, the events that loading the orders writes. The pages draw from these; no rules case
// reads them, and a mutation run of turn.ts (docs/performance.md, "Issue 17, 2026-11-27, morning")
// found each of the lines below could change without any test noticing.
import { describe, expect, it } from 'vitest'
import { resolveTurn } from '../../src/engine/turn.js'
import type { RobotState } from '../../src/engine/types.js'
import { cards, makeBoard, orders, robot, sq, stateWith } from './helpers.js'

const STILL = ['RT90:80', 'LF90:70', 'RT90:100', 'LF90:90', 'UTRN:10']
/** A second robot's program that only turns: priorities none of STILL's. */
const STILL_TOO = ['RT90:120', 'LF90:110', 'RT90:140', 'LF90:130', 'RT90:160']

describe('each stage has its own picture of the board (R15, R16)', () => {
  // Ann steps onto one pressure switch in stage 1 and onto another in stage 4; each lowers a drawbridge.
  const board = makeBoard([
    { type: 'switch', at: 'r2c3', kind: 'pressure', targets: ['r4c1'] },
    { type: 'switch', at: 'r3c3', kind: 'pressure', targets: ['r4c5'] },
    { type: 'drawbridge', at: 'r4c1', side: 'N' },
    { type: 'drawbridge', at: 'r4c5', side: 'N' },
  ])
  const state = stateWith(board, [robot('Ann', board, { at: sq('r1c3'), facing: 'N' })])
  const result = resolveTurn(board, state, orders({ Ann: ['FWD1:490', 'RT90:80', 'LF90:70', 'FWD1:500', 'RT90:100'] }))
  const bridges = (picture: { drawbridges: Record<string, string> }) => [picture.drawbridges['r4c1'], picture.drawbridges['r4c5']]

  it('shows the board as each stage left it, the start as the turn found it', () => {
    expect(bridges(result.start.board)).toEqual(['raised', 'raised'])
    expect(result.stages.map((stage) => bridges(stage.board))).toEqual([
      ['lowered', 'raised'], ['lowered', 'raised'], ['lowered', 'raised'], ['lowered', 'lowered'], ['lowered', 'lowered'],
    ])
    expect(bridges(result.state.board)).toEqual(['lowered', 'lowered'])
  })

  it('leaves the state it was given as it was', () => {
    expect(bridges(state.board)).toEqual(['raised', 'raised'])
  })
})

describe('loading the orders', () => {
  const board = makeBoard()
  const reinstated = (changes: Partial<RobotState>) => robot('Ann', board, { at: sq('r1c1'), facing: 'N', mode: 'virtual', robotsLeft: 2, ...changes })

  it('R29: a robot reinstated after the last turn faces the way its player names, and the log says so', () => {
    const state = stateWith(board, [reinstated({ placedAfterTurn: 1 })], { turn: 2 })
    const result = resolveTurn(board, state, orders({ Ann: STILL }, { facing: 'W' }))
    expect(result.start.events).toMatchObject([{ kind: 'facing-chosen', player: 'Ann', facing: 'W' }])
    expect(result.start.robots[0]!.facing).toBe('W')
  })

  it('R29: only then; not at the start of the game (R25), not a turn later, not for a real robot', () => {
    const notNow = [
      stateWith(board, [reinstated({ placedAfterTurn: 0 })], { turn: 1 }),
      stateWith(board, [reinstated({ placedAfterTurn: 1 })], { turn: 3 }),
      stateWith(board, [reinstated({ placedAfterTurn: 1, mode: 'real' })], { turn: 2 }),
    ]
    for (const state of notNow) {
      const result = resolveTurn(board, state, orders({ Ann: STILL }, { facing: 'W' }))
      expect(result.start.events.filter((event) => event.kind === 'facing-chosen'), `turn ${state.turn}`).toEqual([])
      expect(result.start.robots[0]!.facing).toBe('N')
    }
  })

  it('R9: only a program the server filled is told as filled', () => {
    const state = stateWith(board, [robot('Ann', board, { at: sq('r1c1') }), robot('Bob', board, { at: sq('r1c5') })])
    const result = resolveTurn(board, state, {
      Ann: { cards: cards(...STILL), rebootNext: false, filledByServer: true },
      Bob: { cards: cards(...STILL_TOO), rebootNext: false },
    })
    expect(result.start.events).toMatchObject([{ kind: 'program-filled', player: 'Ann' }])
    expect(result.start.events).toHaveLength(1)
  })

  it('R33: a rebooting robot needs no orders: five empty registers, and no reboot declared, so it plays the next turn', () => {
    const state = stateWith(board, [robot('Ann', board, { at: sq('r1c1'), rebooting: true }), robot('Bob', board, { at: sq('r1c5') })])
    const result = resolveTurn(board, state, orders({ Bob: STILL_TOO }))
    expect(result.registers['Ann']).toEqual([null, null, null, null, null])
    expect(result.state.robots[0]).toMatchObject({ rebooting: false, rebootNext: false })
    expect(result.end.events.filter((event) => event.kind === 'reboot')).toEqual([])
  })

  it('R8: refuses a program that does not fill the unfused registers exactly', () => {
    const state = stateWith(board, [robot('Ann', board, { at: sq('r1c1') })])
    expect(() => resolveTurn(board, state, orders({ Ann: STILL.slice(0, 4) }))).toThrow(/5 unfused registers but 4 cards/)
  })
})

describe('the end of the turn spends every declared reboot (R33)', () => {
  // Both declare a reboot. Ann walks into a pit in stage 1 and comes back (R29); Bob reboots.
  const board = makeBoard([{ type: 'pit', at: 'r2c3' }], { start: 'r1c1' })
  const state = stateWith(board, [robot('Ann', board, { at: sq('r1c3'), facing: 'N' }), robot('Bob', board, { at: sq('r1c5'), facing: 'N' })])
  const result = resolveTurn(board, state, orders({ Ann: ['FWD1:490', ...STILL.slice(1)], Bob: STILL_TOO }, { rebootNext: true }))
  const [ann, bob] = result.state.robots

  it('a robot destroyed with a reboot declared comes back with none: its reboot lapsed (R29, R33)', () => {
    expect(ann).toMatchObject({ mode: 'virtual', at: sq('r1c1'), rebooting: false, rebootNext: false })
  })

  it('a robot that reboots has spent its declaration', () => {
    expect(bob).toMatchObject({ mode: 'real', rebooting: true, rebootNext: false })
    expect(result.end.events.filter((event) => event.kind === 'reboot')).toMatchObject([{ player: 'Bob' }])
  })
})
