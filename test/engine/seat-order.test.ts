// Property: the order the robots are seated in changes nothing but what the rulings say it does.
// Robots act by card priority (R10) and the board acts on all of them at once (R18-R23, R26), so the
// same turn with the robots seated in another order must be the same turn. Seats decide only where
// acting at once still needs an order: the deal (R7, done before resolveTurn), the squares a belt or
// a pusher moves robots onto (A24, A3: it shows only on teleporters and switches, which these boards
// leave out), double wrenches handing out options (A12: these players repair), the order options go
// back to the deck (A25, R32: compared as a set), the order one robot takes the shots of several
// robot lasers (A25: compared as its total) and which of two pushes that press one robot into the
// fence at once is told as hurting it (A25). Board-order.test.ts asks the same of the order of the
// board file; this catches a mechanism that quietly resolves a conflict by seat.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { GameEvent } from '../../src/engine/events.js'
import { newGame } from '../../src/engine/game.js'
import { PLAYER_NAMES, randomOrders } from '../../src/engine/simulation.js'
import { resolveTurn, type TurnResult } from '../../src/engine/turn.js'
import type { Board, GameState, TurnOrders } from '../../src/engine/types.js'
import { crowdedCase, meetingCase, parsedCase, ringCase } from './crowded-boards.js'
import { boardArb, choicesArb, compile, shuffledBy, withChoices } from './random-boards.js'

const keyedByPlayer = <T extends { player: string }>(robots: readonly T[]) => Object.fromEntries(robots.map((robot) => [robot.player, robot]))

/**
 * One moment's events as a set, with what A25 lets seats order taken out: the robots a board beam
 * strikes on one square are listed as a set, each robot's damage from
 * robot lasers becomes its total (the same points reach it whatever the order, R27, R28), and robots
 * the lasers destroyed keep only their `destroyed` event (after it nothing more hits them, R11).
 */
function eventSet(events: readonly GameEvent[]): string[] {
  const destroyed = new Set(events.filter((e) => e.kind === 'destroyed').map((e) => e.player))
  const laserDamage = new Map<string, number>()
  const out: string[] = []
  for (const event of events) {
    if (event.kind === 'damaged' && event.source === 'robot-laser') {
      if (!destroyed.has(event.player)) laserDamage.set(event.player, (laserDamage.get(event.player) ?? 0) + event.amount)
    } else if (event.kind === 'game-over') {
      out.push(JSON.stringify({ ...event, winners: [...event.winners].sort() }))
    } else if (event.kind === 'damaged' && event.source === 'fence' && event.time.phase === 'pusher') {
      // Two pushes that press one robot into the fence at once fail in the seat order of the
      // robots they push (A25): which of them hurt it is told by seat, not the harm.
      out.push(JSON.stringify({ ...event, by: undefined }))
    } else if (event.kind === 'board-laser') {
      // Robots sharing a square (virtual ones, R24) are named in seat order.
      out.push(JSON.stringify({ ...event, hits: [...event.hits].sort() }))
    } else {
      out.push(JSON.stringify(event))
    }
  }
  for (const [player, amount] of laserDamage) out.push(`${player} took ${amount} from robot lasers`)
  return out.sort()
}

function stateOutcome(state: GameState) {
  return { ...state, robots: keyedByPlayer(state.robots), optionDeck: [...state.optionDeck].sort(), winners: [...state.winners].sort() }
}

/** What a turn did, keyed by player and with each moment's events as a set. */
function outcome(result: TurnResult) {
  return {
    start: { robots: keyedByPlayer(result.start.robots), board: result.start.board, events: eventSet(result.start.events) },
    stages: result.stages.map((stage) => ({ stage: stage.stage, robots: keyedByPlayer(stage.robots), board: stage.board, events: eventSet(stage.events) })),
    end: { robots: keyedByPlayer(result.end.robots), events: eventSet(result.end.events) },
    state: stateOutcome(result.state),
    registers: result.registers,
  }
}

/** Plays a turn as seated and with the robots reseated by `order`, and compares them part by part. */
function expectSameTurnReseated(board: Board, state: GameState, orders: Record<string, TurnOrders>, order: readonly number[], where: string): TurnResult {
  const seated = resolveTurn(board, state, orders)
  const reseated = resolveTurn(board, { ...state, robots: shuffledBy(state.robots, order) }, orders)
  const [one, other] = [outcome(seated), outcome(reseated)]
  const seats = reseated.state.robots.map((robot) => robot.player).join(' ')
  expect(other.start, `${where}, seated ${seats}: start`).toEqual(one.start)
  for (let s = 0; s < Math.max(one.stages.length, other.stages.length); s++) {
    expect(other.stages[s], `${where}, seated ${seats}: stage ${s + 1}`).toEqual(one.stages[s])
  }
  expect(other.end, `${where}, seated ${seats}: end`).toEqual(one.end)
  expect(other, `${where}, seated ${seats}`).toEqual(one)
  return seated
}

/** A random board (every element type) without teleporters and switches, whose arrivals A24 orders by seat. */
const noArrivalOrderBoard = boardArb.map((json) => ({
  ...json,
  elements: json.elements.filter((e) => e['type'] !== 'teleporter' && e['type'] !== 'switch'),
}))

describe('property: the order the robots are seated in', () => {
  it('changes no turn of random games on random boards (R10-R34, A24, A25)', () => {
    // Standing choices and options as in a game under way, but every double wrench repairs (A12).
    const choices = fc.array(choicesArb.map((c) => ({ ...c, doubleWrench: 'repair' as const })), { minLength: 6, maxLength: 6 })
    const order = fc.array(fc.nat(), { minLength: 6, maxLength: 6 })
    fc.assert(fc.property(noArrivalOrderBoard, fc.integer({ min: 2, max: 6 }), fc.integer(), choices, order, (json, players, seed, chosen, seats) => {
      const board = compile(json)
      let state = withChoices(newGame(board, PLAYER_NAMES.slice(0, players), seed), chosen)
      for (let turn = 1; turn <= 8 && !state.gameOver; turn++) {
        const [orders, dealt] = randomOrders(state)
        state = expectSameTurnReseated(board, dealt, orders, seats, `turn ${turn}`).state
      }
    }), { numRuns: 300 })
  })

  it('changes no pusher phase on boards crowded with pushers, chains and the fence (R3, R13, R20, A3, A22)', () => {
    const order = fc.array(fc.nat(), { minLength: 8, maxLength: 8 })
    fc.assert(fc.property(fc.oneof(crowdedCase, meetingCase, ringCase), order, (json, seats) => {
      const { board, state, orders } = parsedCase(json)
      expectSameTurnReseated(board, state, orders, seats, 'the turn')
    }), { numRuns: 1500 })
  })
})
