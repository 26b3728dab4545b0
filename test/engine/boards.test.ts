// Every board in boards/: it parses and compiles, it is what boards/README.md promises, and a
// seeded game with random programs plays on it without breaking the engine's invariants.
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { compileBoard, isOnBoard, parseBoard, squareIndex } from '../../src/engine/board.js'
import { formatSquare, neighbour, opposite, quarterTurnBetween } from '../../src/engine/geometry.js'
import { newGame } from '../../src/engine/game.js'
import { PLAYER_NAMES, randomOrders, simulateGame, summariseTurn } from '../../src/engine/simulation.js'
import { resolveTurn } from '../../src/engine/turn.js'
import {
  CONVEYOR_COLOURS, DIRECTIONS, ELEMENT_TYPES, GEAR_TURNS, LASER_COLOURS, MAX_HP, ROBOTS_PER_PLAYER,
  SWITCH_KINDS, WALL_BITS,
  type Board, type BoardDefinition, type BoardElement, type GameState, type RobotSnapshot, type RobotState, type Square,
} from '../../src/engine/types.js'

const BOARD_DIR = fileURLToPath(new URL('../../boards/', import.meta.url))
const FILES = readdirSync(BOARD_DIR).filter((name) => name.endsWith('.json')).sort()
const README = readFileSync(`${BOARD_DIR}README.md`, 'utf8')

/** What boards/README.md promises about each board. */
interface BoardPromise {
  rows: number
  cols: number
  flags: number
  /** Players the board is made for; the seeded game below seats this many. */
  players: number
}
const PROMISED: Record<string, BoardPromise> = {
  'training-floor.json': { rows: 8, cols: 8, flags: 3, players: 4 },
  'conveyor-works.json': { rows: 12, cols: 12, flags: 4, players: 4 },
  'the-foundry.json': { rows: 12, cols: 12, flags: 4, players: 4 },
  'grand-factory.json': { rows: 16, cols: 24, flags: 5, players: 8 },
}
/** The two 12x12 factory floors; between them they use every element there is. */
const FACTORY_FLOORS = ['conveyor-works.json', 'the-foundry.json'] as const
const BUSIEST = 'conveyor-works.json'
const MAX_TURNS = 60
const SEEDS = [1, 2, 3, 4, 5, 6]

function load(file: string): BoardDefinition {
  const parsed = parseBoard(JSON.parse(readFileSync(`${BOARD_DIR}${file}`, 'utf8')))
  if (!parsed.ok) throw new Error(`${file}: ${parsed.error}`)
  return parsed.value
}

function ofType<T extends BoardElement['type']>(board: BoardDefinition, type: T): Extract<BoardElement, { type: T }>[] {
  return board.elements.filter((e): e is Extract<BoardElement, { type: T }> => e.type === type)
}

function wallBetween(board: Board, from: Square, dir: 'N' | 'E' | 'S' | 'W'): boolean {
  const to = neighbour(from, dir)
  if ((board.walls[squareIndex(board, from)]! & WALL_BITS[dir]) !== 0) return true
  return isOnBoard(board, to) && (board.walls[squareIndex(board, to)]! & WALL_BITS[opposite(dir)]) !== 0
}

/**
 * Squares a robot can walk to from the start, one step at a time, meeting no wall and entering
 * no pit and no drawbridge that is still raised (teleporters and conveyors are ignored, so this
 * is the plain walking route). `lowered` names the drawbridges to treat as floor.
 */
function walkable(board: Board, lowered: ReadonlySet<string>): Set<string> {
  const seen = new Set<string>([formatSquare(board.start.at)])
  const queue: Square[] = [board.start.at]
  while (queue.length > 0) {
    const square = queue.shift()!
    for (const dir of DIRECTIONS) {
      const next = neighbour(square, dir)
      const key = formatSquare(next)
      if (!isOnBoard(board, next) || seen.has(key) || wallBetween(board, square, dir)) continue
      const floor = board.floor[squareIndex(board, next)]
      if (floor?.type === 'pit' || (floor?.type === 'drawbridge' && !lowered.has(key))) continue
      seen.add(key)
      queue.push(next)
    }
  }
  return seen
}

/** Flags reachable on foot once every pressure switch reachable on foot has lowered its drawbridges. */
function reachableFlags(board: Board): number[] {
  const before = walkable(board, new Set())
  const lowered = new Set<string>()
  for (const sw of ofType(board, 'switch')) {
    if (sw.kind === 'pressure' && before.has(formatSquare(sw.at))) sw.targets.forEach((t) => lowered.add(formatSquare(t)))
  }
  const after = walkable(board, lowered)
  return ofType(board, 'flag').filter((f) => after.has(formatSquare(f.at))).map((f) => f.number).sort((a, b) => a - b)
}

/** Conveyors that carry a robot onto a conveyor at 90° to their own, which turns it (R18). */
function conveyorTurns(board: Board): number {
  let turns = 0
  for (const conveyor of ofType(board, 'conveyor')) {
    const next = neighbour(conveyor.at, conveyor.dir)
    if (!isOnBoard(board, next) || wallBetween(board, conveyor.at, conveyor.dir)) continue
    const floor = board.floor[squareIndex(board, next)]
    if (floor?.type === 'conveyor' && quarterTurnBetween(conveyor.dir, floor.dir) !== 0) turns++
  }
  return turns
}

function edgeWalls(board: BoardDefinition): number {
  return ofType(board, 'wall').filter((w) =>
    (w.side === 'N' && w.at.row === board.rows) || (w.side === 'S' && w.at.row === 1)
    || (w.side === 'E' && w.at.col === board.cols) || (w.side === 'W' && w.at.col === 1)).length
}

// ---------------------------------------------------------------------------------------
// Invariants a game must keep, checked at the end of every stage and every turn.

/** Problems with the robots on the floor: hp out of range, off the board, in a pit, two real robots on one square. */
function floorProblems(board: Board, robots: readonly (RobotSnapshot | RobotState)[], where: string): string[] {
  const problems: string[] = []
  const realAt = new Map<string, string>()
  for (const robot of robots) {
    const name = `${where}: ${robot.player}`
    if (!Number.isInteger(robot.hp) || robot.hp < 0 || robot.hp > MAX_HP) problems.push(`${name} has ${robot.hp} hp`)
    if ((robot.at === null) !== (robot.mode === 'destroyed')) problems.push(`${name} is ${robot.mode} at ${robot.at ? formatSquare(robot.at) : 'null'}`)
    if (robot.at === null) continue
    const key = formatSquare(robot.at)
    if (!isOnBoard(board, robot.at)) { problems.push(`${name} is off the board at ${key}`); continue }
    if (board.floor[squareIndex(board, robot.at)]?.type === 'pit') problems.push(`${name} stands in the pit at ${key}`)
    if (robot.mode !== 'real') continue
    const other = realAt.get(key)
    if (other) problems.push(`${name} and ${other} are both real on ${key}`)
    realAt.set(key, robot.player)
  }
  return problems
}

function turnProblems(board: Board, state: GameState, where: string): string[] {
  const problems = floorProblems(board, state.robots, where)
  for (const robot of state.robots) {
    const name = `${where}: ${robot.player}`
    if (robot.robotsLeft < 0 || robot.robotsLeft > ROBOTS_PER_PLAYER) problems.push(`${name} has ${robot.robotsLeft} robots left`)
    if (robot.flags < 0 || robot.flags > board.flagCount) problems.push(`${name} has ${robot.flags} flags`)
    if (robot.robotsLeft === 0 && robot.at !== null) problems.push(`${name} is out but on the floor`)
  }
  for (const winner of state.winners) {
    if (!state.robots.some((r) => r.player === winner)) problems.push(`${where}: unknown winner ${winner}`)
  }
  return problems
}

/** Plays a game as simulateGame does, keeping every turn's state and checking the invariants. */
function playChecked(board: Board, players: number, seed: number, maxTurns: number): { states: GameState[]; lines: string[] } {
  let state = newGame(board, PLAYER_NAMES.slice(0, players), seed)
  const problems = turnProblems(board, state, `seed ${seed} before turn 1`)
  const states: GameState[] = [state]
  const lines: string[] = []
  while (!state.gameOver && states.length - 1 < maxTurns) {
    const [orders, dealt] = randomOrders(state)
    const result = resolveTurn(board, dealt, orders)
    for (const stage of result.stages) problems.push(...floorProblems(board, stage.robots, `seed ${seed} turn ${result.turn} stage ${stage.stage}`))
    if (!result.state.gameOver && result.stages.length !== 5) problems.push(`seed ${seed} turn ${result.turn}: ${result.stages.length} stages`)
    state = { ...result.state, rng: dealt.rng }
    problems.push(...turnProblems(board, state, `seed ${seed} after turn ${result.turn}`))
    states.push(state)
    lines.push(summariseTurn(result.turn, state))
  }
  expect(problems).toEqual([])
  return { states, lines }
}

// ---------------------------------------------------------------------------------------

describe('boards/', () => {
  it('holds exactly the boards the README describes', () => {
    expect(FILES).toEqual(Object.keys(PROMISED).sort())
    for (const file of FILES) expect(README, `README mentions ${file}`).toContain(file)
  })

  it('names the busiest 12x12 floor in its name and the README', () => {
    const busiest = load(BUSIEST)
    expect(busiest.name.toLowerCase()).toContain('busiest')
    const others = FACTORY_FLOORS.filter((f) => f !== BUSIEST).map(load)
    for (const other of others) expect(busiest.elements.length).toBeGreaterThan(other.elements.length)
    expect(README).toMatch(new RegExp(`${BUSIEST.replace('.', '\\.')}[\\s\\S]*busiest|busiest[\\s\\S]*${BUSIEST.replace('.', '\\.')}`))
  })

  it('between the two 12x12 floors uses every element, colour, gear turn, switch kind and laser strength', () => {
    const elements = FACTORY_FLOORS.flatMap((file) => load(file).elements)
    const types = new Set(elements.map((e) => e.type))
    for (const type of ELEMENT_TYPES) expect(types, `element type ${type}`).toContain(type)
    const conveyors = elements.filter((e) => e.type === 'conveyor')
    for (const colour of CONVEYOR_COLOURS) expect(conveyors.some((c) => c.colour === colour), `${colour} conveyor`).toBe(true)
    const gears = elements.filter((e) => e.type === 'gear')
    for (const turn of GEAR_TURNS) expect(gears.some((g) => g.turn === turn), `${turn} gear`).toBe(true)
    const switches = elements.filter((e) => e.type === 'switch')
    for (const kind of SWITCH_KINDS) expect(switches.some((s) => s.kind === kind), `${kind} switch`).toBe(true)
    const lasers = elements.filter((e) => e.type === 'laser')
    for (const colour of LASER_COLOURS) {
      for (const strength of [1, 2, 3]) {
        expect(lasers.some((l) => l.colour === colour && l.strength === strength), `${colour} laser of strength ${strength}`).toBe(true)
      }
    }
    const wrenches = elements.filter((e) => e.type === 'wrench')
    for (const count of [1, 2]) expect(wrenches.some((w) => w.count === count), `wrench ${count}`).toBe(true)
  })

  describe.each(FACTORY_FLOORS)('factory floor %s', (file) => {
    const board = compileBoard(load(file))

    it('has conveyors that turn robots, pushers and crushers with stages, and at least six upgrade stations', () => {
      if (ofType(board, 'conveyor').length > 0) expect(conveyorTurns(board)).toBeGreaterThan(0)
      for (const pusher of ofType(board, 'pusher')) expect(pusher.stages.length).toBeGreaterThan(0)
      for (const crusher of ofType(board, 'crusher')) expect(crusher.stages.length).toBeGreaterThan(0)
      // Six stations unlock all three card sets (R6).
      expect(ofType(board, 'upgrade').length).toBeGreaterThanOrEqual(6)
    })

    it('lowers every drawbridge with a pressure switch', () => {
      const pressed = new Set(ofType(board, 'switch').filter((s) => s.kind === 'pressure').flatMap((s) => s.targets.map(formatSquare)))
      for (const bridge of ofType(board, 'drawbridge')) expect(pressed, `drawbridge ${formatSquare(bridge.at)}`).toContain(formatSquare(bridge.at))
    })
  })

  it('the busiest floor has a teleporter network of three or more colours, some inactive, worked by a toggle switch', () => {
    const board = load(BUSIEST)
    const teleporters = ofType(board, 'teleporter')
    expect(new Set(teleporters.map((t) => t.colour)).size).toBeGreaterThanOrEqual(3)
    expect(teleporters.some((t) => !t.active)).toBe(true)
    expect(teleporters.some((t) => t.active)).toBe(true)
    const toggled = new Set(ofType(board, 'switch').filter((s) => s.kind === 'toggle').flatMap((s) => s.targets.map(formatSquare)))
    expect(teleporters.filter((t) => !t.active).some((t) => toggled.has(formatSquare(t.at)))).toBe(true)
  })

  describe.each(FILES)('%s', (file) => {
    const promise = PROMISED[file]!
    const definition = load(file)
    const board = compileBoard(definition)

    it('parses, compiles and is the size the README promises', () => {
      expect(definition.name.length).toBeGreaterThan(0)
      expect({ rows: board.rows, cols: board.cols }).toEqual({ rows: promise.rows, cols: promise.cols })
      expect(board.floor.length).toBe(board.rows * board.cols)
      expect(board.walls.length).toBe(board.rows * board.cols)
      expect(README, `README gives the size of ${file}`).toContain(`${promise.rows}×${promise.cols}`)
    })

    it('has its flags numbered 1 … n without gaps', () => {
      const numbers = ofType(board, 'flag').map((f) => f.number).sort((a, b) => a - b)
      expect(numbers).toEqual(Array.from({ length: promise.flags }, (_, i) => i + 1))
      expect(board.flagCount).toBe(promise.flags)
    })

    it('starts on a free floor square', () => {
      expect(board.floor[squareIndex(board, board.start.at)]).toBeNull()
    })

    it('has walls along some of its edges', () => {
      expect(edgeWalls(board)).toBeGreaterThan(0)
    })

    it('lets a robot walk to every flag (after pressing the pressure switches it can walk to)', () => {
      expect(reachableFlags(board)).toEqual(Array.from({ length: promise.flags }, (_, i) => i + 1))
    })

    it(`plays seeded games for ${promise.players} players, keeping the invariants every stage and turn`, () => {
      let mostFlags = 0
      for (const seed of SEEDS) {
        const { states } = playChecked(board, promise.players, seed, MAX_TURNS)
        const last = states[states.length - 1]!
        mostFlags = Math.max(mostFlags, ...last.robots.map((r) => r.flags))
        // Our loop is simulateGame's loop: the same seed ends in the same state.
        const simulated = simulateGame(board, promise.players, seed, MAX_TURNS)
        expect(simulated.turnsPlayed).toBe(states.length - 1)
        expect(simulated.state).toEqual(last)
      }
      // A random game reaches a flag now and then: the flags are not out of reach.
      expect(mostFlags).toBeGreaterThan(0)
    })

    it('gives the identical game for the same seed and a different game for another', () => {
      const first = playChecked(board, promise.players, 42, 20)
      const again = playChecked(board, promise.players, 42, 20)
      expect(again.states).toEqual(first.states)
      expect(again.lines).toEqual(first.lines)
      const lines: string[] = []
      simulateGame(board, promise.players, 42, 20, (line) => lines.push(line))
      expect(lines).toEqual(first.lines)
      const other = playChecked(board, promise.players, 43, 20)
      expect(other.lines).not.toEqual(first.lines)
    })
  })
})

describe('the invariant checks themselves', () => {
  it('catch two real robots on one square, hp out of range and a robot off the board', () => {
    const board = compileBoard(load('training-floor.json'))
    const robot = (player: string, row: number, hp = 10): RobotSnapshot =>
      ({ player, at: { row, col: 2 }, facing: 'N', hp, mode: 'real', rebooting: false })
    expect(floorProblems(board, [robot('Ann', 2), robot('Bob', 3)], 'ok')).toEqual([])
    expect(floorProblems(board, [robot('Ann', 2), robot('Bob', 2)], 'x')).toEqual(['x: Bob and Ann are both real on r2c2'])
    expect(floorProblems(board, [robot('Ann', 2, 11)], 'x')).toEqual(['x: Ann has 11 hp'])
    expect(floorProblems(board, [robot('Ann', 9)], 'x')).toEqual(['x: Ann is off the board at r9c2'])
  })
})
