// Property: a stage is played from what came before it, never from what comes after. Stage k plays
// register k (R10), so two programs that agree on registers 1..k must play stages 1..k alike: the same
// squares, facings, HP, modes, board state and events, whatever cards wait in the later registers.
// The one thing a later card may change in an early stage is the card a register keeps when damage
// fuses it (R27: "keeps the card that is in it then"), so a fused register's card after k is left
// out of the comparison. This catches a mechanism that peeks ahead: a plan worked out over the whole
// program, a priority looked up in the wrong register, a fuse that moves a later card.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FULL_DECK, unfusedRegisters } from '../../src/engine/deck.js'
import type { GameEvent } from '../../src/engine/events.js'
import { newGame } from '../../src/engine/game.js'
import { PLAYER_NAMES, randomOrders } from '../../src/engine/simulation.js'
import { resolveTurn, type TurnResult } from '../../src/engine/turn.js'
import { REGISTER_COUNT, type Board, type Card, type GameState, type TurnOrders } from '../../src/engine/types.js'
import { crowdedCase, meetingCase, parsedCase, ringCase } from './crowded-boards.js'
import { boardArb, choicesArb, compile, shuffledBy, withChoices } from './random-boards.js'

/**
 * The same orders with every card after register `kept` swapped for another from `spare(player)`,
 * drawn in the order `order` shuffles them into. Reboots, facings and fills are left as they were.
 */
function laterCardsSwapped(state: GameState, orders: Record<string, TurnOrders>, kept: number, spare: (player: string, used: readonly Card[]) => Card[], order: readonly number[]): Record<string, TurnOrders> {
  const out: Record<string, TurnOrders> = { ...orders }
  for (const robot of state.robots) {
    const given = orders[robot.player]
    if (!given || given.cards.length === 0) continue
    // The registers the robot's cards fill, in order: the unfused ones (R8).
    const registers = unfusedRegisters(robot)
    const early = given.cards.filter((_, i) => registers[i]! <= kept)
    const others = shuffledBy(spare(robot.player, early), order)
    const later = given.cards.length - early.length
    if (others.length < later) continue
    out[robot.player] = { ...given, cards: [...early, ...others.slice(0, later)] }
  }
  return out
}

/** A stage's events, with the card a register kept when it fused after register `kept` left out (R27). */
function eventsUpTo(events: readonly GameEvent[], kept: number): GameEvent[] {
  return events.map((event) => (event.kind === 'register-fused' && event.register > kept ? { ...event, card: null } : event))
}

/** Plays the turn with both programs and compares stages 1..kept. */
function expectSameEarlyStages(board: Board, state: GameState, orders: Record<string, TurnOrders>, swapped: Record<string, TurnOrders>, kept: number, where: string): TurnResult {
  const one = resolveTurn(board, state, orders)
  const other = resolveTurn(board, state, swapped)
  expect(other.start.robots, `${where}: the robots before stage 1`).toEqual(one.start.robots)
  for (let s = 0; s < kept && s < one.stages.length; s++) {
    const [a, b] = [one.stages[s]!, other.stages[s]!]
    const label = `${where}, registers 1-${kept} alike: stage ${s + 1}`
    expect(b, `${label} was played in one and not in the other`).toBeDefined()
    expect(eventsUpTo(b.events, kept), `${label}: events`).toEqual(eventsUpTo(a.events, kept))
    expect(b.robots, `${label}: robots`).toEqual(a.robots)
    expect(b.board, `${label}: board`).toEqual(a.board)
  }
  if (one.stages.length <= kept) expect(other.stages.length, `${where}: the stage the game ended in`).toBe(one.stages.length)
  return one
}

describe('property: later registers change nothing in earlier stages (R10, R27)', () => {
  it('in random games on random boards, whatever is dealt and kept', () => {
    const turns = fc.array(fc.record({ kept: fc.integer({ min: 0, max: REGISTER_COUNT - 1 }), order: fc.array(fc.nat(), { minLength: 9, maxLength: 9 }) }), { minLength: 8, maxLength: 8 })
    const choices = fc.array(choicesArb, { minLength: 6, maxLength: 6 })
    fc.assert(fc.property(boardArb, fc.integer({ min: 2, max: 6 }), fc.integer(), choices, turns, (json, players, seed, chosen, plans) => {
      const board = compile(json)
      let state = withChoices(newGame(board, PLAYER_NAMES.slice(0, players), seed), chosen)
      for (let turn = 1; turn <= plans.length && !state.gameOver; turn++) {
        const { kept, order } = plans[turn - 1]!
        const [orders, dealt] = randomOrders(state)
        // Another program from the same hand (R8): the cards of registers 1..kept, then others.
        const fromHand = (player: string, used: readonly Card[]) => (dealt.hands[player] ?? []).filter((card) => !used.includes(card))
        const swapped = laterCardsSwapped(dealt, orders, kept, fromHand, order)
        state = expectSameEarlyStages(board, dealt, orders, swapped, kept, `turn ${turn}`).state
      }
    }), { numRuns: 300 })
  })

  it('on boards crowded with pushers, chains and the fence (R13, R20, A3, A22)', () => {
    const plan = fc.record({ kept: fc.integer({ min: 0, max: REGISTER_COUNT - 1 }), order: fc.array(fc.nat(), { minLength: 9, maxLength: 9 }) })
    fc.assert(fc.property(fc.oneof(crowdedCase, meetingCase, ringCase), plan, (json, { kept, order }) => {
      const { board, state, orders } = parsedCase(json)
      // These cases deal no hands: the other cards come from those no robot holds.
      const held = new Set([...Object.values(orders).flatMap((o) => o.cards), ...state.robots.flatMap((r) => Object.values(r.fused))].map((card) => card?.priority))
      const unheld = FULL_DECK.filter((card) => !held.has(card.priority))
      const seats = state.robots.map((robot) => robot.player)
      // Each robot draws from its own share, so no card is in two programs.
      const share = (player: string) => unheld.filter((_, i) => i % seats.length === seats.indexOf(player))
      const swapped = laterCardsSwapped(state, orders, kept, share, order)
      expectSameEarlyStages(board, state, orders, swapped, kept, 'the turn')
    }), { numRuns: 1500 })
  })
})
