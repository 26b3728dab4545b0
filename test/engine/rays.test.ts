// Rays (src/engine/rays.ts): the squares a beam can cross, worked out once per board, the board
// lasers' beams, and robot beams that follow them, stopped by the first real robot or a raised drawbridge (R15, R26, A5).
import { describe, expect, it } from 'vitest'
import { squareIndex } from '../../src/engine/board.js'
import { formatSquare } from '../../src/engine/geometry.js'
import { boardBeams, firstSquares, rayFrom } from '../../src/engine/rays.js'
import { resolveTurn } from '../../src/engine/turn.js'
import { makeBoard, orders, robot, sq, stateWith } from './helpers.js'

// Ann turns right in stage 1, from north to east, before lasers fire; Bob only turns.
const ANN = ['RT90:80', 'LF90:70', 'RT90:100', 'LF90:90', 'RT90:120']
const BOB = ['LF90:110', 'RT90:140', 'LF90:130', 'RT90:160', 'LF90:150']

describe('rayFrom', () => {
  const board = makeBoard([
    { type: 'wall', at: 'r2c5', side: 'W' },
    { type: 'drawbridge', at: 'r2c3', side: 'N' },
  ], { rows: 4, cols: 6 })

  it('starts one square away and ends at the first wall', () => {
    const ray = rayFrom(board, 'E', squareIndex(board, sq('r2c1')))
    expect(ray.squares.map(formatSquare)).toEqual(['r2c2', 'r2c3', 'r2c4'])
    expect(ray.indices).toEqual(ray.squares.map((square) => squareIndex(board, square)))
    expect(ray.drawbridges).toEqual([1])
  })

  it('ends at the board edge, and is empty from the last square', () => {
    expect(rayFrom(board, 'N', squareIndex(board, sq('r2c6'))).squares.map(formatSquare)).toEqual(['r3c6', 'r4c6'])
    expect(rayFrom(board, 'N', squareIndex(board, sq('r4c6'))).squares).toEqual([])
  })

  it('is worked out once: the same ray comes back', () => {
    const index = squareIndex(board, sq('r2c6'))
    expect(rayFrom(board, 'W', index)).toBe(rayFrom(board, 'W', index))
    expect(rayFrom(board, 'W', index)).not.toBe(rayFrom(board, 'E', index))
  })
})

describe('firstSquares', () => {
  const board = makeBoard([], { rows: 4, cols: 6 })
  const ray = rayFrom(board, 'E', squareIndex(board, sq('r2c1')))

  it("is the ray's own list for a beam that crosses it all, and the same prefix list for every beam that stops at one square", () => {
    expect(firstSquares(ray, ray.squares.length)).toBe(ray.squares)
    expect(firstSquares(ray, 2).map(formatSquare)).toEqual(['r2c2', 'r2c3'])
    expect(firstSquares(ray, 2)).toBe(firstSquares(ray, 2))
    expect(firstSquares(ray, 0)).toEqual([])
    expect(ray.squares.map(formatSquare)).toEqual(['r2c2', 'r2c3', 'r2c4', 'r2c5', 'r2c6'])
  })
})

describe('boardBeams', () => {
  const board = makeBoard([
    { type: 'laser', at: 'r2c2', dir: 'E', colour: 'red', strength: 1 },
    { type: 'drawbridge', at: 'r2c2', side: 'N' },
    { type: 'drawbridge', at: 'r2c4', side: 'N' },
    { type: 'wall', at: 'r2c5', side: 'E' },
    { type: 'laser', at: 'r4c1', dir: 'N', colour: 'blue', strength: 1 },
  ], { rows: 4, cols: 6 })
  const beams = boardBeams(board)

  it("R23: each beam's path starts on the turret's own square and ends at a wall or the edge; a drawbridge on the turret's square is one of its drawbridges (R15, A23)", () => {
    expect(beams.paths.map((path) => path.squares.map(formatSquare))).toEqual([['r2c2', 'r2c3', 'r2c4', 'r2c5'], ['r4c1']])
    expect(beams.paths[0]!.indices).toEqual(beams.paths[0]!.squares.map((square) => squareIndex(board, square)))
    expect(beams.paths[0]!.drawbridges).toEqual([0, 2])
  })

  it('reaches exactly the squares some beam crosses, and is worked out once per board', () => {
    const reached = board.squares.filter((_, index) => beams.reach[index] === 1).map(formatSquare).sort()
    expect(reached).toEqual(['r2c2', 'r2c3', 'r2c4', 'r2c5', 'r4c1'])
    expect(boardBeams(board)).toBe(beams)
  })
})

describe('the order board lasers fire in (R23, A25)', () => {
  // Three turrets on one square facing one way, told apart only by colour and strength, and two
  // more elsewhere, all striking Ann on r3c3. All beams fire at once, so the order of the board file
  // must change nothing; the order they are taken in decides the HP each damage event tells.
  const lasers = [
    { type: 'laser', at: 'r1c3', dir: 'N', colour: 'red', strength: 2 },
    { type: 'laser', at: 'r1c3', dir: 'N', colour: 'red', strength: 1 },
    { type: 'laser', at: 'r1c3', dir: 'N', colour: 'blue', strength: 1 },
    { type: 'laser', at: 'r5c3', dir: 'S', colour: 'blue', strength: 1 },
    { type: 'laser', at: 'r3c1', dir: 'E', colour: 'red', strength: 1 },
  ]
  // Every order of the five: a comparator that is not consistent shows only in some of them.
  const orderings = (left: number[]): number[][] => left.length === 0 ? [[]] : left.flatMap((i) => orderings(left.filter((j) => j !== i)).map((rest) => [i, ...rest]))
  const boards = orderings([0, 1, 2, 3, 4]).map((order) => makeBoard(order.map((i) => lasers[i])))
  const fired = (board: ReturnType<typeof makeBoard>) => boardBeams(board).lasers.map((l) => `${formatSquare(l.at)} ${l.dir} ${l.colour} ${l.strength}`)

  it('is by turret square, then direction, colour and strength, whatever the file order', () => {
    const first = fired(boards[0]!)
    expect(first.filter((laser) => laser.startsWith('r1c3'))).toEqual(['r1c3 N blue 1', 'r1c3 N red 1', 'r1c3 N red 2'])
    for (const board of boards) expect(fired(board)).toEqual(first)
  })

  it('so a turn tells the same damage, event by event, whatever the file order', () => {
    const logs = boards.map((board) => {
      const state = stateWith(board, [robot('Ann', board, { at: sq('r3c3'), facing: 'N', hp: 9, options: ['Gyroscope'], sacrificeAt: 7 })])
      const stage1 = resolveTurn(board, state, orders({ Ann: ['RT90:80', 'LF90:70', 'RT90:100', 'LF90:90', 'UTRN:10'] })).stages[0]!
      return stage1.events.filter((event) => event.time.phase === 'board-laser')
    })
    expect(logs[0]!.filter((event) => event.kind === 'board-laser')).toHaveLength(5)
    for (const log of logs) expect(log).toEqual(logs[0])
  })
})

describe('robot lasers along rays', () => {
  const board = makeBoard([{ type: 'drawbridge', at: 'r2c3', side: 'N' }], { rows: 4, cols: 6 })
  const beams = (state: ReturnType<typeof stateWith>) =>
    resolveTurn(board, state, orders({ Ann: ANN, Bob: BOB })).stages[0]!.events
      .filter((event) => event.kind === 'robot-laser' && event.player === 'Ann')

  it('A5: a raised drawbridge stops the beam before its square', () => {
    const state = stateWith(board, [robot('Ann', board, { at: sq('r2c1'), facing: 'N' }), robot('Bob', board, { at: sq('r2c5'), facing: 'N' })])
    expect(beams(state)).toMatchObject([{ squares: [sq('r2c2')], hit: null, damage: 0 }])
  })

  it('R15, R26: a lowered drawbridge lets the beam through to the first real robot', () => {
    const state = stateWith(board, [robot('Ann', board, { at: sq('r2c1'), facing: 'N' }), robot('Bob', board, { at: sq('r2c5'), facing: 'N' })])
    state.board = { ...state.board, drawbridges: { r2c3: 'lowered' } }
    expect(beams(state)).toMatchObject([{ squares: [sq('r2c2'), sq('r2c3'), sq('r2c4'), sq('r2c5')], hit: 'Bob', damage: 1 }])
  })

  it('R26: a beam that meets nobody crosses the whole ray to the edge', () => {
    const state = stateWith(board, [robot('Ann', board, { at: sq('r1c1'), facing: 'N' }), robot('Bob', board, { at: sq('r4c1'), facing: 'S' })])
    expect(beams(state)).toMatchObject([{ squares: ['r1c2', 'r1c3', 'r1c4', 'r1c5', 'r1c6'].map(sq), hit: null }])
  })
})
