// Placings (issue 12, A16, A17): flags, then steps to the next flag ignoring robots, then HP, then
// robots left; ties share a place; players who are out rank last, the last to go out first.
import { describe, expect, it } from 'vitest'
import { addRobot, takeOffBoard } from '../../src/engine/seats.js'
import { distanceToNextFlag, placings } from '../../src/engine/placings.js'
import { randomStream, seedRandom } from '../../src/engine/random.js'
import { newGame } from '../../src/engine/game.js'
import { makeBoard, robot, sq, stateWith } from '../engine/helpers.js'

// Flags at r5c5 (1) and r1c5 (2); a wall on the east side of r3c1-r3c3's row keeps nothing out.
const board = makeBoard([
  { type: 'flag', at: 'r5c5', number: 1 },
  { type: 'flag', at: 'r1c5', number: 2 },
  { type: 'wall', at: 'r2c1', side: 'E' },
  { type: 'pit', at: 'r3c3' },
])

describe('distance to the next flag (A16)', () => {
  it('counts single steps round walls, through pits and robots alike', () => {
    expect(distanceToNextFlag(board, robot('A', board, { at: sq('r5c4') }))).toBe(1)
    expect(distanceToNextFlag(board, robot('A', board, { at: sq('r1c1') }))).toBe(8)
    // From r2c1 the wall on its east side sends the path north first: still 7 steps (r3c1 … r5c5).
    expect(distanceToNextFlag(board, robot('A', board, { at: sq('r2c1') }))).toBe(7)
    expect(distanceToNextFlag(board, robot('A', board, { at: sq('r5c5'), flags: 1 }))).toBe(4)
    expect(distanceToNextFlag(board, robot('A', board, { at: sq('r1c5'), flags: 2 }))).toBeNull()
    // Off the board: from where the robot comes back (its checkpoint).
    expect(distanceToNextFlag(board, robot('A', board, { at: null, mode: 'destroyed', checkpoint: sq('r5c3') }))).toBe(2)
  })

  it('is null when walls leave no path', () => {
    const walled = makeBoard([
      { type: 'flag', at: 'r5c5', number: 1 },
      { type: 'wall', at: 'r5c5', side: 'W' }, { type: 'wall', at: 'r5c5', side: 'S' },
    ])
    expect(distanceToNextFlag(walled, robot('A', walled, { at: sq('r1c1') }))).toBeNull()
  })
})

describe('placings', () => {
  const r = (player: string, changes: Parameters<typeof robot>[2]) => robot(player, board, changes)

  it('ranks flags, then distance, then HP, then robots left; ties share a place', () => {
    const robots = [
      r('Near', { at: sq('r5c4'), hp: 5 }),
      r('Far', { at: sq('r1c1'), hp: 10 }),
      r('Flag', { at: sq('r1c1'), flags: 1 }),
      r('NearToo', { at: sq('r4c5'), hp: 5 }),
      r('NearHealthy', { at: sq('r4c5'), hp: 9, robotsLeft: 1 }),
      r('NearLives', { at: sq('r4c5'), hp: 9, robotsLeft: 3 }),
    ]
    const ranked = placings({ board, robots, winners: [], outAfterTurn: {} })
    expect(ranked.map((p) => [p.place, p.player])).toEqual([
      [1, 'Flag'], [2, 'NearLives'], [3, 'NearHealthy'], [4, 'Near'], [4, 'NearToo'], [6, 'Far'],
    ])
    expect(ranked.find((p) => p.player === 'Flag')).toMatchObject({ flags: 1, distance: 4 })
  })

  it('puts R34 winners first and players who are out last, the last to go out first', () => {
    const robots = [
      r('OutEarly', { at: null, mode: 'destroyed', robotsLeft: 0, flags: 1 }),
      r('Still', { at: sq('r1c1') }),
      r('OutLate', { at: null, mode: 'destroyed', robotsLeft: 0 }),
      r('OutLateToo', { at: null, mode: 'destroyed', robotsLeft: 0 }),
      r('Winner', { at: sq('r1c5'), flags: 2 }),
    ]
    const ranked = placings({ board, robots, winners: ['Winner'], outAfterTurn: { OutEarly: 3, OutLate: 9, OutLateToo: 9 } })
    expect(ranked.map((p) => [p.place, p.player, p.out])).toEqual([
      [1, 'Winner', false], [2, 'Still', false], [3, 'OutLate', true], [3, 'OutLateToo', true], [5, 'OutEarly', true],
    ])
    expect(ranked.at(-1)).toMatchObject({ distance: null, hp: 0, robotsLeft: 0, outAfterTurn: 3 })
  })
})

describe('seats that change (pure)', () => {
  it('a newcomer enters as the rules place robots at the start (R25, R29)', () => {
    const state = { ...newGame(board, ['P1', 'P2'], 7), turn: 5 }
    const after = addRobot(state, board, 'P3')
    expect(after.robots.map((x) => x.player)).toEqual(['P1', 'P2', 'P3'])
    expect(after.robots[2]).toMatchObject({ at: board.start.at, mode: 'virtual', hp: 10, robotsLeft: 3, flags: 0, placedAfterTurn: 4 })
    expect(state.robots).toHaveLength(2) // unchanged
    expect(() => addRobot(after, board, 'P3')).toThrow(/already/)
  })

  it('a robot that leaves is out and gives its options back to the deck (R32)', () => {
    const state = stateWith(board, [robot('P1', board, { options: ['Gyroscope'] }), robot('P2', board)], { optionDeck: ['Rear Laser'] })
    const after = takeOffBoard(state, 'P1')
    expect(after.robots[0]).toMatchObject({ at: null, mode: 'destroyed', robotsLeft: 0, options: [] })
    expect(after.optionDeck).toEqual(['Rear Laser', 'Gyroscope'])
  })

  it('random streams are reproducible and differ from each other and from the state', () => {
    const state = seedRandom(11)
    expect(randomStream(state, 0)).toEqual(randomStream(state, 0))
    expect(randomStream(state, 0)).not.toEqual(randomStream(state, 1))
    expect(randomStream(state, 0)).not.toEqual(state)
    expect(state).toEqual(seedRandom(11))
  })
})
