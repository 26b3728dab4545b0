// R5 the deck, R6 card sets, R7 dealing, R27 which registers are fused, R33 refilling after a reboot.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  FULL_DECK, canUseCard, cardSetsFor, dealHands, formatCard, fusedCards, fusedRegistersFor, handSize, parseCard, unfusedRegisters,
} from '../../src/engine/deck.js'
import { shuffled, withRandom, seedRandom } from '../../src/engine/random.js'
import type { Card, CardKind, GameState, RobotState } from '../../src/engine/types.js'
import { card, makeBoard, robot, stateWith } from './helpers.js'

// R5, written out again here rather than taken from the engine.
const PLAN: [CardKind, number, number, number][] = [
  ['UTRN', 6, 10, 10], ['LF90', 18, 70, 20], ['RT90', 18, 80, 20], ['RVS1', 6, 430, 10],
  ['FWD1', 18, 490, 10], ['FWD2', 12, 670, 10], ['FWD3', 6, 790, 10],
  ['RVS2', 6, 675, 20], ['RVS3', 6, 795, 10], ['SLF1', 6, 505, 30], ['SRT1', 6, 515, 30], ['IDLE', 6, 5, 10],
]
const BASE = ['FWD1', 'FWD2', 'FWD3', 'RVS1', 'LF90', 'RT90', 'UTRN']
const board = makeBoard()

describe('R5 the deck', () => {
  it('has 84 base cards and 30 upgrade cards, every priority unique', () => {
    expect(FULL_DECK.filter((c) => BASE.includes(c.kind))).toHaveLength(84)
    expect(FULL_DECK).toHaveLength(114)
    expect(new Set(FULL_DECK.map((c) => c.priority)).size).toBe(114)
  })
  it('holds exactly the cards of the ruling, kind by kind', () => {
    for (const [kind, count, first, step] of PLAN) {
      const priorities = FULL_DECK.filter((c) => c.kind === kind).map((c) => c.priority).sort((a, b) => a - b)
      expect(priorities, kind).toEqual(Array.from({ length: count }, (_, i) => first + i * step))
    }
  })
  it('reads and writes KIND:PRIORITY, and refuses cards not in the deck', () => {
    expect(parseCard('FWD2:700')).toEqual({ kind: 'FWD2', priority: 700 })
    for (const c of FULL_DECK) expect(parseCard(formatCard(c))).toEqual(c)
    // The whole text is the card: nothing before it, nothing after (a mutation run found both unchecked).
    for (const bad of ['FWD1:495', 'FWD2:490', 'FWD4:700', 'fwd2:700', 'FWD2 700', 'FWD2:', ':700', 'WDLF:100', 'IDLE:0', 'XFWD2:700', 'FWD2:7000', 'FWD2:700 ']) {
      expect(parseCard(bad), bad).toBeNull()
    }
  })
})

describe('R6 card sets', () => {
  it('one set for every two different stations, in the order reverse, sidestep, idle', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 9].map(cardSetsFor)).toEqual([
      [], [], ['reverse'], ['reverse'], ['reverse', 'sidestep'], ['reverse', 'sidestep'],
      ['reverse', 'sidestep', 'idle'], ['reverse', 'sidestep', 'idle'], ['reverse', 'sidestep', 'idle'],
    ])
  })
  it('base cards need no set; each upgrade card needs its own set', () => {
    expect(canUseCard(card('FWD3:790'), [])).toBe(true)
    expect(canUseCard(card('RVS2:675'), [])).toBe(false)
    expect(canUseCard(card('RVS3:795'), ['reverse'])).toBe(true)
    expect(canUseCard(card('SLF1:505'), ['reverse'])).toBe(false)
    expect(canUseCard(card('SRT1:515'), ['reverse', 'sidestep'])).toBe(true)
    expect(canUseCard(card('IDLE:5'), ['reverse', 'sidestep'])).toBe(false)
    expect(canUseCard(card('IDLE:5'), ['idle'])).toBe(true)
  })
})

describe('R27 fused registers', () => {
  it('register k is fused exactly while k >= HP', () => {
    expect(fusedRegistersFor(10)).toEqual([])
    expect(fusedRegistersFor(6)).toEqual([])
    expect(fusedRegistersFor(5)).toEqual([5])
    expect(fusedRegistersFor(3)).toEqual([3, 4, 5])
    expect(fusedRegistersFor(1)).toEqual([1, 2, 3, 4, 5])
  })
  it('a program fills the registers that are not fused', () => {
    expect(unfusedRegisters({ fused: {} })).toEqual([1, 2, 3, 4, 5])
    expect(unfusedRegisters({ fused: { 4: card('UTRN:10'), 5: null } })).toEqual([1, 2, 3])
  })
})

const usable = (r: { stations: unknown[] }, c: Card) => canUseCard(c, cardSetsFor(r.stations.length))

describe('R7 dealing', () => {
  it('deals HP - 1 cards, one more with Extra Memory, none to a rebooting or destroyed robot', () => {
    expect(handSize(robot('Ann', board))).toBe(9)
    expect(handSize(robot('Ann', board, { hp: 5, fused: { 5: card('UTRN:10') } }))).toBe(4)
    expect(handSize(robot('Ann', board, { hp: 1 }))).toBe(0)
    expect(handSize(robot('Ann', board, { options: ['Extra Memory'] }))).toBe(10)
    expect(handSize(robot('Ann', board, { hp: 3, options: ['Extra Memory'] }))).toBe(3)
    expect(handSize(robot('Ann', board, { rebooting: true }))).toBe(0)
    expect(handSize(robot('Ann', board, { mode: 'destroyed', at: null }))).toBe(0)
    expect(handSize(robot('Ann', board, { mode: 'virtual' }))).toBe(9)
  })
  it('deals round the table in seat order, one card at a time, from the shuffled deck less fused cards', () => {
    const fused = { 5: card('FWD3:840') }
    const state = stateWith(board, [robot('Ann', board), robot('Bob', board, { hp: 5, fused }), robot('Cid', board)], { rng: seedRandom(42) })
    const dealt = dealHands(state)
    const [pile] = withRandom(state.rng, (randomInt) => shuffled(FULL_DECK.filter((c) => c.priority !== 840), randomInt))
    const base = pile.filter((c) => BASE.includes(c.kind))
    // Rounds 1-4: Ann, Bob, Cid; then Bob (4 cards) drops out.
    const expected: Record<string, Card[]> = { Ann: [], Bob: [], Cid: [] }
    let next = 0
    for (let round = 0; round < 9; round++) {
      for (const [player, size] of [['Ann', 9], ['Bob', 4], ['Cid', 9]] as const) if (round < size) expected[player]!.push(base[next++]!)
    }
    expect(dealt.hands).toEqual(expected)
  })
  it('never deals a card of a set the robot has not unlocked, nor a fused card, nor one card twice', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const robots = [
        robot('Ann', board), robot('Bob', board, { stations: [{ row: 1, col: 1 }, { row: 1, col: 2 }] }),
        robot('Cid', board, { stations: [{ row: 1, col: 1 }, { row: 1, col: 2 }, { row: 1, col: 3 }, { row: 1, col: 4 }], options: ['Extra Memory'] }),
        robot('Dee', board, { hp: 4, fused: { 4: card('FWD1:490'), 5: card('SLF1:505') } }),
      ]
      const dealt = dealHands(stateWith(board, robots, { rng: seedRandom(seed) }))
      const all = [...Object.values(dealt.hands).flat(), ...fusedCards(dealt)]
      expect(new Set(all.map((c) => c.priority)).size).toBe(all.length)
      for (const r of dealt.robots) {
        for (const c of dealt.hands[r.player]!) expect(usable(r, c), `${r.player} got ${formatCard(c)}`).toBe(true)
      }
      expect(dealt.hands['Ann']).toHaveLength(9)
      expect(dealt.hands['Cid']).toHaveLength(10)
      expect(dealt.hands['Dee']).toHaveLength(3)
      expect(dealt.hands['Bob']!.some((c) => c.kind === 'SLF1' || c.kind === 'SRT1' || c.kind === 'IDLE')).toBe(false)
    }
  })
  it('deals nothing to a rebooting robot, but the others still get theirs', () => {
    const dealt = dealHands(stateWith(board, [robot('Ann', board, { rebooting: true }), robot('Bob', board)]))
    expect(dealt.hands['Ann'] ?? []).toEqual([])
    expect(dealt.hands['Bob']).toHaveLength(9)
  })
  it('R33: back online, registers fused during the reboot get random usable cards, dealt from the same deck', () => {
    const back = robot('Ann', board, { hp: 4, fused: { 4: null, 5: null } })
    const dealt = dealHands(stateWith(board, [back, robot('Bob', board)], { rng: seedRandom(3) }))
    const ann = dealt.robots[0]!
    expect(Object.keys(ann.fused).sort()).toEqual(['4', '5'])
    const refilled = Object.values(ann.fused)
    expect(refilled.every((c) => c !== null && usable(ann, c))).toBe(true)
    const inHands = new Set(Object.values(dealt.hands).flat().map((c) => c.priority))
    for (const c of refilled) expect(inHands.has(c!.priority)).toBe(false)
    expect(dealt.hands['Ann']).toHaveLength(3)
    expect(back.fused).toEqual({ 4: null, 5: null }) // the input is not changed
  })
  it('is pure and seeded: the same state deals the same hands and advances the generator', () => {
    const state = stateWith(board, [robot('Ann', board), robot('Bob', board)], { rng: seedRandom(9) })
    const copy = structuredClone(state)
    const a = dealHands(state)
    const b = dealHands(state)
    expect(a).toEqual(b)
    expect(state).toEqual(copy)
    expect(a.rng).not.toEqual(state.rng)
    expect(dealHands({ ...state, rng: seedRandom(10) }).hands).not.toEqual(a.hands)
  })
})

/**
 * R7 written out plainly, as the first version of the engine did it: shuffle a copy of the deck
 * less the fused cards (one Fisher–Yates shuffle with the game's generator), refill registers fused
 * during a reboot (R33, A1), then deal round the table, each robot taking the first card it may use.
 */
function dealPlainly(state: GameState): GameState {
  const held = new Set(fusedCards(state).map((c) => c.priority))
  const [result, rng] = withRandom(state.rng, (randomInt) => {
    const pile = shuffled(FULL_DECK.filter((c) => !held.has(c.priority)), randomInt)
    const robots = state.robots.map((r) => ({ ...r, fused: { ...r.fused } }))
    const take = (r: RobotState) => {
      const index = pile.findIndex((c) => usable(r, c))
      return index < 0 ? null : pile.splice(index, 1)[0]!
    }
    for (const r of robots) {
      if (r.rebooting || r.mode === 'destroyed') continue
      for (const [register, c] of Object.entries(r.fused)) {
        if (c !== null) continue
        const drawn = take(r)
        if (drawn) r.fused[register] = drawn
        else delete r.fused[register]
      }
    }
    const hands: Record<string, Card[]> = Object.fromEntries(robots.map((r) => [r.player, []]))
    for (let round = 0; round < 10; round++) {
      for (const r of robots) {
        if (round >= handSize(r)) continue
        const drawn = take(r)
        if (drawn) hands[r.player]!.push(drawn)
      }
    }
    return { robots, hands }
  })
  return { ...state, ...result, rng }
}

describe('R7 dealing keeps the game\'s random stream', () => {
  const station = { row: 1, col: 1 }
  const robotArb = fc.record({
    hp: fc.integer({ min: 1, max: 10 }), stations: fc.integer({ min: 0, max: 8 }), rebooting: fc.boolean(),
    destroyed: fc.boolean(), extraMemory: fc.boolean(),
    fused: fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.option(fc.integer({ min: 0, max: FULL_DECK.length - 1 }))), { maxLength: 5 }),
  })
  it('deals exactly the hands and fused cards the plain reading of R7 deals, from the same draws, with any sets, fused registers and reboots', () => {
    fc.assert(fc.property(fc.array(robotArb, { minLength: 1, maxLength: 8 }), fc.integer(), (specs, seed) => {
      const used = new Set<number>()
      const robots = specs.map((spec, seat) => {
        const fused: Record<string, Card | null> = {}
        for (const [register, index] of spec.fused) {
          if (index === null) fused[register] = null
          else if (!used.has(index)) { used.add(index); fused[register] = FULL_DECK[index]! }
        }
        return robot(`P${seat + 1}`, board, {
          hp: spec.hp, stations: Array.from({ length: spec.stations }, () => station), rebooting: spec.rebooting,
          ...(spec.destroyed ? { mode: 'destroyed' as const, at: null } : {}), options: spec.extraMemory ? ['Extra Memory'] : [], fused,
        })
      })
      const state = stateWith(board, robots, { rng: seedRandom(seed) })
      const copy = structuredClone(state)
      expect(dealHands(state)).toEqual(dealPlainly(state))
      expect(state).toEqual(copy)
    }), { numRuns: 500 })
  })
})
