// Placings at a game's end as the tournaments count them (issue 15), one implementation with the
// server's (src/engine/placings.ts, issue 12's rule): winners first (R34), then flags touched,
// distance to the next flag along the board ignoring robots, HP, robots left; players who are out
// after everyone still in (A17); equal players share a place.
import { describe, expect, it } from 'vitest'
import { placings as rank } from '../../src/engine/placings.js'
import type { GameState } from '../../src/engine/types.js'
import { addGame, emptyStandings, ranked } from '../../src/bots/standings.js'
import { makeBoard, robot, sq, stateWith } from '../engine/helpers.js'

const placings = (b: typeof board, state: GameState, outAfterTurn: Record<string, number> = {}) =>
  rank({ board: b, robots: state.robots, winners: state.winners, outAfterTurn })

const board = makeBoard([
  { type: 'flag', at: 'r5c5', number: 1 }, { type: 'flag', at: 'r1c5', number: 2 },
  // A wall makes the way round longer than the straight line: distance is along the board.
  { type: 'wall', at: 'r4c5', side: 'S' }, { type: 'wall', at: 'r4c4', side: 'S' }, { type: 'wall', at: 'r4c3', side: 'S' },
], { rows: 5, cols: 5 })

describe('placings', () => {
  it('ranks by flags, then distance along the board, then HP, then robots left; ties share a place', () => {
    const state = stateWith(board, [
      robot('Ann', board, { at: sq('r3c5'), flags: 0, hp: 10 }), // 0 flags: last whatever its HP; 8 steps round the wall, not 2
      robot('Bob', board, { at: sq('r3c1'), flags: 1, hp: 4 }), // 1 flag, 6 steps from flag 2
      robot('Cid', board, { at: sq('r2c5'), flags: 1, hp: 3 }), // 1 flag, 1 step: ahead of Bob
      robot('Dee', board, { at: sq('r3c1'), flags: 1, hp: 4, robotsLeft: 2 }), // as Bob, fewer robots
      robot('Eve', board, { at: sq('r3c1'), flags: 1, hp: 4 }), // exactly as Bob: shares his place
    ])
    expect(placings(board, state).map((p) => [p.player, p.place, p.distance])).toEqual([
      ['Cid', 1, 1], ['Bob', 2, 6], ['Eve', 2, 6], ['Dee', 4, 6], ['Ann', 5, 8],
    ])
  })

  it('puts winners first (R34) and a player who is out after everyone still in, whatever their flags (A17)', () => {
    const state = {
      ...stateWith(board, [
        robot('Ann', board, { at: sq('r1c5'), flags: 2 }),
        robot('Bob', board, { at: null, mode: 'destroyed', flags: 1, robotsLeft: 0, hp: 0 }),
        robot('Cid', board, { at: sq('r3c1'), flags: 0, hp: 1 }),
      ]),
      gameOver: true, winners: ['Ann'],
    }
    // Bob touched more flags than Cid, but he is out: Cid, still racing, places above him.
    expect(placings(board, state, { Bob: 7 }).map((p) => [p.player, p.place, p.winner, p.out])).toEqual([
      ['Ann', 1, true, false], ['Cid', 2, false, false], ['Bob', 3, false, true],
    ])
  })

  it('adds up into standings: wins, places, flags and who placed above whom', () => {
    const state = stateWith(board, [robot('Ann', board, { at: sq('r2c5'), flags: 1 }), robot('Bob', board, { at: sq('r3c1'), flags: 1 })])
    let standings = emptyStandings(['greedy', 'random'])
    standings = addGame(standings, placings(board, state), (p) => (p === 'Ann' ? 'greedy' : 'random'))
    standings = addGame(standings, placings(board, state), (p) => (p === 'Ann' ? 'random' : 'greedy'))
    expect(ranked(standings).map((s) => [s.entrant, s.games, s.placeSum, s.flags, s.above])).toEqual([
      ['greedy', 2, 3, 2, { random: 1 }], ['random', 2, 3, 2, { greedy: 1 }],
    ])
  })
})
