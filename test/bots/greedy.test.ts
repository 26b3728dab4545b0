// The greedy bot reaches the flag on an empty board in the fewest turns its hands allow. Each
// case's minimum is argued beside it from the cards dealt; the hands are fixed, not dealt at random.
import { describe, expect, it } from 'vitest'
import { greedyOrders } from '../../src/bots/greedy-bot.js'
import { seatViewOf } from '../../src/bots/seat-view.js'
import { resolveTurn } from '../../src/engine/turn.js'
import type { GameState } from '../../src/engine/types.js'
import { cards, makeBoard, robot, sq, stateWith } from '../engine/helpers.js'

const MOVES = ['FWD3:790', 'FWD3:800', 'FWD2:700', 'FWD1:500', 'LF90:70', 'RT90:80', 'UTRN:10', 'RVS1:430', 'LF90:90']
const TURNS = ['RT90:100', 'FWD3:810', 'FWD1:510', 'LF90:110', 'FWD2:710', 'LF90:130', 'RT90:120', 'UTRN:20', 'FWD1:520']

interface Case {
  name: string
  elements: unknown[]
  size?: number
  at: string
  facing: 'N' | 'E' | 'S' | 'W'
  hands: string[][]
  fewest: number
}

const CASES: Case[] = [
  // FWD3 + FWD2 + FWD1 cover the six squares in one turn.
  { name: 'six squares straight ahead: one turn', elements: [{ type: 'flag', at: 'r7c1', number: 1 }], at: 'r1c1', facing: 'N', hands: [MOVES], fewest: 1 },
  // A quarter turn then four squares: RT90, FWD3, FWD1.
  { name: 'four squares to the right: turn first, one turn', elements: [{ type: 'flag', at: 'r1c5', number: 1 }], at: 'r1c1', facing: 'N', hands: [MOVES], fewest: 1 },
  // Behind the robot: a U-turn and five squares (FWD3 + FWD2).
  { name: 'five squares behind: U-turn, one turn', elements: [{ type: 'flag', at: 'r1c1', number: 1 }], at: 'r6c1', facing: 'N', hands: [MOVES], fewest: 1 },
  // The hand moves at most 3+3+2+1 = 9 squares a turn, and the flag is 11 away: two turns.
  { name: 'eleven squares ahead: two turns', elements: [{ type: 'flag', at: 'r12c1', number: 1 }], size: 12, at: 'r1c1', facing: 'N', hands: [MOVES, MOVES], fewest: 2 },
  // A wall (R4) between the robot's column and the flag two rows up: going round needs a step
  // aside, two up and a step back with three turns, six cards, more than one turn's five.
  {
    name: 'a wall in the way: round it in two turns',
    elements: [{ type: 'wall', at: 'r2c3', side: 'N' }, { type: 'flag', at: 'r3c3', number: 1 }],
    at: 'r1c3', facing: 'N', hands: [TURNS, TURNS], fewest: 2,
  },
  // A pit (R14) straight ahead: the straight line would take one turn but kills the robot. Round it
  // is a quarter turn, a step aside, a quarter turn, four squares north (two cards), a quarter
  // turn and a step back: seven cards, two turns.
  {
    name: 'a pit in the way: round it, not into it',
    elements: [{ type: 'pit', at: 'r3c1' }, { type: 'flag', at: 'r5c1', number: 1 }],
    at: 'r1c1', facing: 'N', hands: [TURNS, TURNS], fewest: 2,
  },
  // Facing the fence (R3), the flag three squares behind: a U-turn and FWD3, not a blow against the fence.
  { name: 'facing the fence: turn round first', elements: [{ type: 'flag', at: 'r1c1', number: 1 }], size: 4, at: 'r4c1', facing: 'N', hands: [MOVES], fewest: 1 },
]

describe('greedy reaches a flag on an empty board in the fewest turns possible', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const board = makeBoard(c.elements, { rows: c.size ?? 8, cols: c.size ?? 8, start: c.at, facing: c.facing })
      let state: GameState = stateWith(board, [robot('Ann', board, { at: sq(c.at), facing: c.facing })])
      let turns = 0
      while (!state.gameOver && turns < c.hands.length + 2) {
        const dealt = { ...state, hands: { Ann: cards(...c.hands[Math.min(turns, c.hands.length - 1)]!) } }
        const orders = greedyOrders(seatViewOf(board, dealt, 'Ann'))
        state = resolveTurn(board, dealt, { Ann: orders }).state
        turns++
        expect(state.robots[0]!.robotsLeft).toBe(3)
      }
      expect(state.winners).toEqual(['Ann'])
      expect(turns).toBe(c.fewest)
    })
  }
})
