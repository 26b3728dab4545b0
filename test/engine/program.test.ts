// R8 checking a program against the hand, R9 filling a missing one.
import { describe, expect, it } from 'vitest'
import { dealHands } from '../../src/engine/deck.js'
import { fillMissingOrders, fillMissingOrdersFor, programProblem } from '../../src/engine/program.js'
import { renderTurnReport } from '../../src/engine/report.js'
import { seedRandom } from '../../src/engine/random.js'
import { resolveTurn } from '../../src/engine/turn.js'
import { card, cards, makeBoard, robot, stateWith } from './helpers.js'

const board = makeBoard()
const hand = cards('FWD1:490', 'FWD2:670', 'RT90:80', 'LF90:70', 'UTRN:10', 'FWD1:500', 'RVS1:430', 'RT90:100', 'LF90:90')

describe('R8 programProblem', () => {
  const ann = robot('Ann', board)
  it('accepts five distinct cards from the hand, in any order', () => {
    expect(programProblem(ann, hand, cards('UTRN:10', 'FWD1:500', 'FWD1:490', 'RT90:80', 'LF90:90'))).toBeNull()
  })
  it('needs exactly one card per unfused register', () => {
    expect(programProblem(ann, hand, cards('UTRN:10', 'FWD1:500', 'FWD1:490', 'RT90:80'))).toMatch(/5 cards/)
    const fused = robot('Ann', board, { hp: 4, fused: { 4: card('FWD3:790'), 5: card('RT90:420') } })
    expect(programProblem(fused, hand, cards('UTRN:10', 'FWD1:500', 'FWD1:490'))).toBeNull()
    expect(programProblem(fused, hand, cards('UTRN:10', 'FWD1:500', 'FWD1:490', 'RT90:80'))).toMatch(/3 cards/)
    const one = robot('Ann', board, { hp: 2, fused: { 2: card('FWD3:790'), 3: card('RT90:420'), 4: card('FWD3:800'), 5: card('FWD3:810') } })
    expect(programProblem(one, hand, cards('UTRN:10', 'FWD1:500'))).toBe('the program needs exactly 1 card, one per unfused register (R8), not 2')
  })
  it('tells identical kinds apart by priority: the same card twice is refused', () => {
    // The message names the card that repeats one before it, by its place in the program.
    expect(programProblem(ann, hand, cards('FWD1:490', 'FWD1:490', 'RT90:80', 'LF90:70', 'UTRN:10'))).toBe('card 2 (FWD1:490) is used twice')
    expect(programProblem(ann, hand, cards('FWD1:490', 'FWD1:500', 'RT90:80', 'LF90:70', 'UTRN:10'))).toBeNull()
  })
  it('refuses a card that is not in the hand', () => {
    expect(programProblem(ann, hand, cards('FWD1:500', 'FWD3:840', 'RT90:80', 'LF90:70', 'UTRN:10'))).toBe('card 2 (FWD3:840) is not in your hand')
  })
  it('refuses a card of a set the robot has not unlocked (R6)', () => {
    const withRvs = [...hand, card('RVS2:675')]
    expect(programProblem(ann, withRvs, cards('RVS2:675', 'FWD1:500', 'RT90:80', 'LF90:70', 'UTRN:10'))).toMatch(/R6/)
    expect(programProblem(ann, withRvs, cards('FWD1:500', 'RVS2:675', 'RT90:80', 'LF90:70', 'UTRN:10'))).toBe('card 2 (RVS2:675) belongs to a card set this robot has not unlocked (R6)')
    const upgraded = robot('Ann', board, { stations: [{ row: 1, col: 2 }, { row: 1, col: 3 }] })
    expect(programProblem(upgraded, withRvs, cards('RVS2:675', 'FWD1:500', 'RT90:80', 'LF90:70', 'UTRN:10'))).toBeNull()
  })
  it('a rebooting robot submits no cards (R33)', () => {
    const rebooting = robot('Ann', board, { rebooting: true })
    expect(programProblem(rebooting, [], [])).toBeNull()
    expect(programProblem(rebooting, hand, cards('FWD1:490'))).toMatch(/R33/)
  })
})

describe('R9 fillMissingOrders', () => {
  const dealt = dealHands(stateWith(board, [robot('Ann', board), robot('Bob', board, { hp: 4, fused: { 4: card('FWD3:840'), 5: card('FWD3:830') } }), robot('Cid', board, { rebooting: true })], { rng: seedRandom(5) }))
  it('fills every unfused register with distinct cards from the hand, declares no reboot and marks the orders', () => {
    for (const r of dealt.robots) {
      const [filled] = fillMissingOrders(dealt, r.player)
      expect(filled.rebootNext).toBe(false)
      expect(filled.filledByServer).toBe(true)
      expect(programProblem(r, dealt.hands[r.player] ?? [], filled.cards)).toBeNull()
    }
    expect(fillMissingOrders(dealt, 'Ann')[0].cards).toHaveLength(5)
    expect(fillMissingOrders(dealt, 'Bob')[0].cards).toHaveLength(3)
    expect(fillMissingOrders(dealt, 'Cid')[0].cards).toHaveLength(0)
  })
  it('draws with the seeded generator: same state, same cards; the generator moves on', () => {
    const [a, next] = fillMissingOrders(dealt, 'Ann')
    const [b] = fillMissingOrders(dealt, 'Ann')
    expect(a).toEqual(b)
    expect(next.rng).not.toEqual(dealt.rng)
    const draws = new Set(Array.from({ length: 8 }, (_, i) => JSON.stringify(fillMissingOrders({ ...dealt, rng: seedRandom(100 + i) }, 'Ann')[0].cards)))
    expect(draws.size).toBeGreaterThan(1)
  })
  it('fills several robots at once exactly as one by one in seat order, skipping robots with a program or none to play', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const state = { ...dealt, rng: seedRandom(seed) }
      const missing = seed % 2 === 0 ? ['Ann', 'Bob', 'Cid'] : ['Bob']
      let oneByOne = state
      const expected: Record<string, unknown> = {}
      for (const r of state.robots) {
        if (!missing.includes(r.player) || r.rebooting) continue
        const [filled, next] = fillMissingOrders(oneByOne, r.player)
        expected[r.player] = filled
        oneByOne = next
      }
      const [orders, after] = fillMissingOrdersFor(state, (player) => missing.includes(player))
      expect(orders).toEqual(expected)
      expect(after).toEqual(oneByOne)
    }
  })
  it('and the report says the program was filled by the server', () => {
    const one = makeBoard()
    const state = dealHands(stateWith(one, [robot('Ann', one, { at: { row: 3, col: 3 } })], { rng: seedRandom(11) }))
    const [filled] = fillMissingOrders(state, 'Ann')
    const result = resolveTurn(one, state, { Ann: filled })
    expect(result.start.events.some((e) => e.kind === 'program-filled' && e.player === 'Ann')).toBe(true)
    expect(renderTurnReport(one, result)).toMatch(/R9/)
  })
})
