// Property: the order of the elements in a board file changes nothing but what R20 says it does
// (A25). The rules act element by element at once (R18-R23: belts, pushers, gears, crushers and
// board lasers each act together), so the same game on the same board, its elements listed in
// another order, must be the same game: the same robots at every stage, the same board state,
// option deck and events, up to the order of the events of one moment. R20 names the order of the
// pushers in the board file for a cycle of waiting pushes alone. So whole games on random boards
// (every element type) shuffle everything, but keep the pushers' own order on a board where a loop
// of pushers could make pushes wait in a cycle (about one board with pushers in twenty); and
// pusher phases on crowded boards, whose pushers all push one of two directions at right angles (a
// push only waits on a robot further along them, so never round a cycle), shuffle everything. The second reaches the pusher phases the log replay's model leaves to the rules cases
// (log-replay-pushers.ts): chains that meet after a push waited, and robots two pushers act on.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { GameEvent } from '../../src/engine/events.js'
import { newGame } from '../../src/engine/game.js'
import { formatSquare, neighbour, opposite, parseSquare, turnRight } from '../../src/engine/geometry.js'
import { PLAYER_NAMES, randomOrders } from '../../src/engine/simulation.js'
import { resolveTurn, type TurnResult } from '../../src/engine/turn.js'
import { DIRECTIONS, type Direction } from '../../src/engine/types.js'
import { crowdedBoard, floorsArb, parsedCase, robotsArb, rulesCase, sidesArb, type Element } from './crowded-boards.js'
import { modelCounts } from './log-replay-pushers.js'
import { logProblems } from './log-replay.js'
import { boardArb, compile, shuffledBy, stagesArb } from './random-boards.js'

/**
 * `elements` in another order (shuffledBy `order`); with `keepPushers`, the pushers keep their own
 * order among themselves (they take the places the shuffle gave pushers).
 */
function reordered(elements: readonly Element[], order: readonly number[], keepPushers: boolean): Element[] {
  const out = shuffledBy(elements, order)
  if (!keepPushers) return out
  const pushers = elements.filter((e) => e['type'] === 'pusher')
  let next = 0
  return out.map((e) => (e['type'] === 'pusher' ? pushers[next++]! : e))
}

/**
 * Whether pushes on this board could ever wait on one another round a cycle (R20): a push waits
 * only on a robot on another acting pusher's square further along its way, so with no loop of
 * pusher squares, each on the way of the one before in a stage they share (walls or not, robots
 * or not), none can. Most random boards have no such loop, and their pushers are shuffled too.
 */
function mayWaitInACycle(elements: readonly Element[]): boolean {
  const pushers = elements.filter((e) => e['type'] === 'pusher').map((e) => ({
    at: parseSquare(e['at'] as string)!, dir: opposite(e['side'] as Direction), stages: e['stages'] as number[],
  }))
  const onTheWay = (from: (typeof pushers)[number], to: (typeof pushers)[number]) => {
    const [dr, dc] = [to.at.row - from.at.row, to.at.col - from.at.col]
    const step = neighbour({ row: 0, col: 0 }, from.dir)
    const along = step.row === 0 ? dr === 0 && Math.sign(dc) === step.col : dc === 0 && Math.sign(dr) === step.row
    return along && from.stages.some((stage) => to.stages.includes(stage))
  }
  // Depth-first search for a loop of pushers, each on the way of the one before.
  const state = pushers.map(() => 'new' as 'new' | 'open' | 'done')
  const loops = (i: number): boolean => {
    if (state[i] === 'open') return true
    if (state[i] === 'done') return false
    state[i] = 'open'
    const found = pushers.some((to, j) => onTheWay(pushers[i]!, to) && loops(j))
    state[i] = 'done'
    return found
  }
  return pushers.some((_, i) => loops(i))
}

/** The events of one part of a turn, each as text, in one order whatever the order they were told in. */
const eventSet = (events: readonly GameEvent[]) => events.map((e) => JSON.stringify(e)).sort()

/** What a turn did, with each part's events as a set: what must not depend on the board file's order. */
function outcome(result: TurnResult) {
  return {
    start: { robots: result.start.robots, board: result.start.board, events: eventSet(result.start.events) },
    stages: result.stages.map((stage) => ({ stage: stage.stage, robots: stage.robots, board: stage.board, events: eventSet(stage.events) })),
    end: { robots: result.end.robots, events: eventSet(result.end.events) },
    state: result.state,
    registers: result.registers,
  }
}

/** Compares two turns' outcomes part by part, so a failure names the first stage that differs. */
function expectSameTurn(a: TurnResult, b: TurnResult, where: string): void {
  const [one, other] = [outcome(a), outcome(b)]
  expect(other.start, `${where}, start`).toEqual(one.start)
  for (let s = 0; s < Math.max(one.stages.length, other.stages.length); s++) expect(other.stages[s], `${where}, stage ${s + 1}`).toEqual(one.stages[s])
  expect(other.end, `${where}, end`).toEqual(one.end)
  expect(other, where).toEqual(one)
}

const gameArb = fc.record({
  board: boardArb,
  players: fc.integer({ min: 2, max: 5 }),
  seed: fc.integer(),
  order: fc.array(fc.nat(), { minLength: 24, maxLength: 24 }),
})

/**
 * A rules case (FORMAT.md) whose pushers all push `dir` or the direction a right turn from it: a
 * push only ever waits on a robot further along those two directions, so pushes never wait round a
 * cycle, and the order of the pushers in the board file must not matter (R20). Robots stand in
 * clumps along the two directions (each next to an earlier one where `links` says so), with one or
 * two pushers on many of them, walls on some, a few pits, drawbridges, gears and belts about, and
 * no teleporter or switch.
 */
const oneWayCase = fc.record({
  rows: fc.integer({ min: 2, max: 6 }),
  cols: fc.integer({ min: 2, max: 6 }),
  dir: fc.constantFrom(...DIRECTIONS),
  links: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  pushers: fc.array(fc.record({ robot: fc.nat(), turned: fc.boolean(), stages: stagesArb }), { minLength: 2, maxLength: 12 }),
  walls: sidesArb({ maxLength: 4 }),
  floors: floorsArb(3),
  robots: robotsArb(3, 8, 3),
  order: fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
}).map(({ rows, cols, dir, links, pushers, walls, floors, robots, order }) => {
  const pushed: [Direction, Direction] = [dir, turnRight(dir)]
  // Next to an earlier robot, ahead of or behind it along one of the two directions; one in five anywhere.
  const { squares, elements, drawbridges, placed } = crowdedBoard(rows, cols, floors, robots, (previous) => {
    const link = links[previous.length]!
    if (previous.length === 0 || link % 5 === 4) return null
    const way = pushed[link % 2]!
    const from = parseSquare(previous[link % previous.length]!)!
    return formatSquare(neighbour(from, link % 4 < 2 ? way : opposite(way)))
  })
  for (const { robot, turned, stages } of pushers) {
    elements.push({ type: 'pusher', at: placed[robot % placed.length]!['at'], side: opposite(pushed[turned ? 1 : 0]), stages })
  }
  const json = rulesCase(rows, cols, squares, elements, drawbridges, placed, walls.map((wall) => ({ ...wall, pusher: 0 })))
  return { json, order }
})

/** The same case with its board's elements in another order. */
function withElements<T extends { board: { elements: Element[] } }>(json: T, elements: Element[]): T {
  return { ...json, board: { ...json.board, elements } }
}

describe('property: the order of a board file', () => {
  it('changes no game on random boards, but where pushes could wait in a cycle (R18-R23, R20, A25)', () => {
    fc.assert(fc.property(gameArb, ({ board: json, players, seed, order }) => {
      const board = compile(json)
      const shuffled = compile({ ...json, elements: reordered(json.elements, order, mayWaitInACycle(json.elements)) })
      let state = newGame(board, PLAYER_NAMES.slice(0, players), seed)
      expect(newGame(shuffled, PLAYER_NAMES.slice(0, players), seed), 'the new game').toEqual(state)
      for (let turn = 1; turn <= 8 && !state.gameOver; turn++) {
        const [orders, dealt] = randomOrders(state)
        const result = resolveTurn(board, dealt, orders)
        expectSameTurn(result, resolveTurn(shuffled, dealt, orders), `turn ${turn}`)
        state = result.state
      }
    }), { numRuns: 500 })
  })

  it('changes no pusher phase in which no push can wait round a cycle, pushers included (R20, A3, A22)', () => {
    const before = modelCounts.phasesUnjudged
    fc.assert(fc.property(oneWayCase, ({ json, order }) => {
      const { board, state, orders } = parsedCase(json)
      const result = resolveTurn(board, state, orders)
      expect(logProblems(result, 'one way', state, board, orders)).toEqual([])
      const other = parsedCase(withElements(json, reordered(json.board.elements, order, false)))
      expectSameTurn(result, resolveTurn(other.board, other.state, other.orders), 'the turn')
    }), { numRuns: 1500 })
    // The phases the log replay's model leaves to the rules cases come up here and are judged by
    // this property alone (about 45 in 1,500 cases).
    expect(modelCounts.phasesUnjudged - before).toBeGreaterThan(20)
  })

  it('has one robot pushed by two pushers into two chains that end at the fence hurt their last robots in seat order (R20, R3, R32, A25)', () => {
    // Found by the property above (seed -1240169953): P2, on two stage-2 pushers, pushes P1 into the
    // east fence and P7 into the north fence; each gives up both options, which reached the deck in
    // the order of the pushers in the board file.
    const json = {"id": "crowded", "rulings": ["R20"], "description": "random", "board": {"rows": 5, "cols": 5, "start": {"at": "r1c1", "facing": "N"}, "elements": [{"type": "pit", "at": "r3c1"}, {"type": "pusher", "at": "r2c5", "side": "N", "stages": [3]}, {"type": "pusher", "at": "r2c4", "side": "W", "stages": [2]}, {"type": "pusher", "at": "r2c4", "side": "N", "stages": [2]}]}, "boardState": {"drawbridges": {}}, "turn": 3, "robots": [{"player": "P1", "at": "r2c5", "facing": "N", "hp": 3, "mode": "virtual", "program": ["UTRN:10", "UTRN:20"], "fused": {"3": "UTRN:30", "4": "UTRN:40", "5": "UTRN:50"}, "options": ["Rear Laser", "Double Laser"]}, {"player": "P2", "at": "r2c4", "facing": "N", "hp": 2, "mode": "virtual", "program": ["UTRN:60"], "fused": {"2": "LF90:70", "3": "LF90:90", "4": "LF90:110", "5": "LF90:130"}}, {"player": "P3", "at": "r1c1", "facing": "N", "hp": 2, "mode": "virtual", "program": ["LF90:150"], "fused": {"2": "LF90:170", "3": "LF90:190", "4": "LF90:210", "5": "LF90:230"}}, {"player": "P4", "at": "r1c2", "facing": "N", "hp": 2, "mode": "virtual", "program": ["LF90:250"], "fused": {"2": "LF90:270", "3": "LF90:290", "4": "LF90:310", "5": "LF90:330"}}, {"player": "P5", "at": "r1c3", "facing": "N", "hp": 2, "mode": "virtual", "program": ["LF90:350"], "fused": {"2": "LF90:370", "3": "LF90:390", "4": "LF90:410", "5": "RT90:80"}}, {"player": "P6", "at": "r1c5", "facing": "N", "hp": 2, "mode": "virtual", "program": ["RT90:100"], "fused": {"2": "RT90:120", "3": "RT90:140", "4": "RT90:160", "5": "RT90:180"}}, {"player": "P7", "at": "r1c4", "facing": "N", "hp": 3, "mode": "virtual", "program": ["RT90:200", "RT90:220"], "fused": {"3": "RT90:240", "4": "RT90:260", "5": "RT90:280"}, "options": ["Extra Memory", "Gyroscope"]}], "expect": {}}
    const [pit, ...pushers] = json.board.elements
    for (const order of [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]) {
      const { board, state, orders } = parsedCase(withElements(json, [pit!, ...order.map((i) => pushers[i]!)]))
      expect(resolveTurn(board, state, orders).state.optionDeck, order.join()).toEqual(['Rear Laser', 'Double Laser', 'Extra Memory', 'Gyroscope'])
    }
  })

  it('has a board laser volley send the options of the robots it destroys back to the deck in seat order (R23, R32, A25)', () => {
    // Ann, seated first, stands by the turret that comes later on the board: either way round, her
    // option goes to the bottom of the deck first.
    const robot = (player: string, at: string, options: string[], cards: string[]) =>
      ({ player, at, hp: 3, sacrificeAt: 0, options, program: cards.slice(0, 2), fused: { 3: cards[2], 4: cards[3], 5: cards[4] } })
    for (const [ann, bob] of [['r1c3', 'r1c1'], ['r1c1', 'r1c3']] as const) {
      const { board, state, orders } = parsedCase({
        id: 'volley', rulings: ['R32'], description: 'two robots destroyed by one volley', turn: 3,
        board: { rows: 2, cols: 3, start: { at: 'r2c2', facing: 'N' }, elements: [
          { type: 'laser', at: 'r1c1', dir: 'N', colour: 'blue', strength: 3 },
          { type: 'laser', at: 'r1c3', dir: 'N', colour: 'blue', strength: 3 },
        ] },
        optionDeck: ['Double Laser', 'Rear Laser'],
        robots: [
          robot('Ann', ann, ['Gyroscope'], ['LF90:70', 'RT90:80', 'UTRN:10', 'UTRN:20', 'UTRN:30']),
          robot('Bob', bob, ['Extra Memory'], ['LF90:90', 'RT90:100', 'UTRN:40', 'UTRN:50', 'UTRN:60']),
        ],
        expect: {},
      })
      const result = resolveTurn(board, state, orders)
      expect(result.stages[0]!.robots.map((r) => r.mode), `Ann on ${ann}`).toEqual(['destroyed', 'destroyed'])
      expect(result.state.optionDeck, `Ann on ${ann}`).toEqual(['Double Laser', 'Rear Laser', 'Gyroscope', 'Extra Memory'])
    }
  })
})
