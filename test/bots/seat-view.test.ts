// A bot sees only what a human in its seat could (issue 15): its own hand, never another's, nor
// the generator that will deal the next hands, nor the order of the option deck.
import { describe, expect, it } from 'vitest'
import { BOT_LEVELS, BOTS } from '../../src/bots/index.js'
import { seatViewOf } from '../../src/bots/seat-view.js'
import { dealHands, FULL_DECK } from '../../src/engine/deck.js'
import { playedState, SHIPPED_BOARDS } from './helpers.js'

describe('a seat view holds no secret of another seat', () => {
  const board = SHIPPED_BOARDS.find((b) => b.rows === 12)!
  const dealt = dealHands(playedState(board, 4, 99, 3))

  it('has the own hand only, no generator state and no option deck', () => {
    const view = seatViewOf(board, dealt, 'Bob')
    expect(view.hand).toEqual(dealt.hands.Bob)
    const text = JSON.stringify({ ...view, board: null })
    for (const other of ['Ann', 'Cid', 'Dee']) {
      expect(dealt.hands[other]!.length).toBeGreaterThan(0)
      for (const card of dealt.hands[other]!) expect(text).not.toContain(`{"kind":"${card.kind}","priority":${card.priority}}`)
    }
    expect(Object.keys(view)).not.toContain('rng')
    expect(Object.keys(view)).not.toContain('optionDeck')
    expect(Object.keys(view)).not.toContain('hands')
  })

  it('hides reboot declarations, which stay secret until the turn is published (R33)', () => {
    const declared = { ...dealt, robots: dealt.robots.map((r) => ({ ...r, rebootNext: true })) }
    expect(seatViewOf(board, declared, 'Ann').robots.every((r) => !r.rebootNext)).toBe(true)
  })

  for (const level of BOT_LEVELS) {
    it(`${level}: the others' hands change nothing in what it plays`, () => {
      const mine = new Set(dealt.hands.Ann!.map((c) => c.priority))
      const spare = FULL_DECK.filter((c) => !mine.has(c.priority)).reverse()
      const swapped = { ...dealt, hands: { ...dealt.hands, Bob: spare.slice(0, 9), Cid: spare.slice(9, 18), Dee: spare.slice(18, 27) }, rng: [1, 2, 3, 4] }
      expect(BOTS[level](seatViewOf(board, swapped, 'Ann'), 5)).toEqual(BOTS[level](seatViewOf(board, dealt, 'Ann'), 5))
    })
  }
})
