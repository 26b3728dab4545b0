// The world a turn's event log is replayed in (log-replay.ts): the robots as the log leaves them,
// and the board's floor and its switches, drawbridges, teleporters and option deck. The floor is
// read from the board file's own elements, not from the tables the engine plays from, so a check
// built on it does not share the engine's mistakes.
import type { GameEvent } from '../../src/engine/events.js'
import { formatSquare, neighbour, opposite, parseSquare, sameSquare } from '../../src/engine/geometry.js'
import { DIRECTIONS, type RobotSnapshot } from '../../src/engine/types.js'
import type {
  Board, Card, Direction, DoubleWrenchChoice, FloorElement, GameState, LaserElement, OptionName, PusherElement, RobotMode, Square, TeleporterElement, TurnOrders,
} from '../../src/engine/types.js'

export interface ReplayedRobot {
  at: string | null; facing: Direction; hp: number; mode: RobotMode
  /** Held now, oldest first (R28, R32). */
  options: OptionName[]
  /** Standing choices, and whether it reboots this turn: none of them changes during a turn (R28, R31, R33). */
  sacrificeAt: number; doubleWrench: DoubleWrenchChoice; rebooting: boolean
  /** Flags tagged, checkpoint and stations visited, as the log leaves them (R30). */
  flags: number; checkpoint: string | null; stations: string[]
  /** The turn after which it was placed (R25). */
  placedAfterTurn: number
  /** Registers fused now (R27). */
  fused: Set<number>
  /** Robots the player still has, this one included (R29). */
  robotsLeft: number
  /** Out of the game before this turn began (its last robot lost earlier). */
  outAtStart: boolean
}

export interface World {
  /** The turn being played. */
  turn: number
  /** Players whose orders declare a reboot for the next turn (R33). */
  rebootsDeclared: Set<string>
  /** In seat order. */
  robots: Map<string, ReplayedRobot>
  floor: Map<string, FloorElement>
  /** `r2c3 N` for every side of a square a wall stands on, seen from both squares (R4; pushers and turrets stand on walls, FORMAT.md). */
  walls: Set<string>
  rows: number
  cols: number
  start: Board['start']
  lasers: LaserElement[]
  pushers: PusherElement[]
  /** In alphabetical order of colour, whatever its letter case (R17, A29). */
  teleporters: TeleporterElement[]
  switchedOn: Set<string>
  lowered: Set<string>
  active: Set<string>
  /** The option deck, top first (R32). */
  optionDeck: OptionName[]
  /** What the last moves make the floor do, not seen in the log yet (log-replay-floor.ts). */
  expected: string[]
  /**
   * The robot whose card step is pushing a chain, until its own move is seen: it is stepping out of
   * its square, so a pushed robot may be teleported onto it (A21).
   */
  stepping: string | null
  /** Each player's registers as played this turn (R27 fuses the card in a register). */
  registers: Record<string, (Card | null)[]>
  /**
   * Register events the robots' HP in this moment calls for, not seen in the log yet, and the
   * players who fused a register in it (log-replay-registers.ts).
   */
  registerEvents: { player: string; words: string }[]
  fusedThisMoment: Set<string>
  /** Belt moves whose arrival is still to be judged (log-replay-floor.ts). */
  arrivals: Map<string, Extract<GameEvent, { kind: 'moved' }>>
}

export const key = (square: Square | null) => (square === null ? null : formatSquare(square))

/** The square a key names (`r3c4`): keys are made by `key`, so always a square. */
export const squareOf = (at: string): Square => parseSquare(at)!

export const onBoard = (world: World, at: Square) => at.row >= 1 && at.row <= world.rows && at.col >= 1 && at.col <= world.cols

/** The world as a turn begins, from the state it was resolved from and the robots above stage 1. */
export function worldOf(board: Board, given: GameState, orders: Record<string, TurnOrders>, start: readonly RobotSnapshot[], registers: Record<string, (Card | null)[]>): World {
  const robots = new Map<string, ReplayedRobot>()
  for (const robot of start) {
    const state = given.robots.find((r) => r.player === robot.player)!
    robots.set(robot.player, {
      at: key(robot.at), facing: robot.facing, hp: robot.hp, mode: robot.mode,
      options: [...state.options], sacrificeAt: state.sacrificeAt, doubleWrench: state.doubleWrench, rebooting: robot.rebooting,
      flags: state.flags, checkpoint: key(state.checkpoint), stations: state.stations.map((s) => key(s)!), placedAfterTurn: state.placedAfterTurn,
      fused: new Set(Object.keys(state.fused).map(Number)), robotsLeft: state.robotsLeft,
      outAtStart: robot.mode === 'destroyed',
    })
  }
  const floor = new Map<string, FloorElement>()
  for (const element of board.elements) {
    if (element.type !== 'wall' && element.type !== 'pusher' && element.type !== 'laser') floor.set(key(element.at)!, element)
  }
  const walls = new Set<string>()
  const wall = (at: Square, side: Direction) => {
    walls.add(`${key(at)} ${side}`)
    walls.add(`${key(neighbour(at, side))} ${opposite(side)}`)
  }
  for (const element of board.elements) {
    if (element.type === 'wall' || element.type === 'pusher') wall(element.at, element.side)
    if (element.type === 'laser') wall(element.at, opposite(element.dir))
  }
  const states = given.board
  const keysWhere = (record: Record<string, string>, value: string) => new Set(Object.keys(record).filter((k) => record[k] === value))
  // R17 as A29 reads it, written apart from the engine's alphabeticalKey: a dictionary's order,
  // letter case and accents aside (`amber`, `Blue`, `cyan`, `écru`); colours that tie so are refused.
  const plain = (colour: string) => colour.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
  const alphabetically = (a: string, b: string) => (plain(a) < plain(b) ? -1 : 1)
  return {
    turn: given.turn,
    rebootsDeclared: new Set(Object.keys(orders).filter((player) => orders[player]!.rebootNext)),
    robots,
    floor,
    walls,
    rows: board.rows,
    cols: board.cols,
    start: board.start,
    lasers: board.elements.filter((e): e is LaserElement => e.type === 'laser'),
    pushers: board.elements.filter((e): e is PusherElement => e.type === 'pusher'),
    teleporters: [...floor.values()].filter((e): e is TeleporterElement => e.type === 'teleporter').sort((a, b) => alphabetically(a.colour, b.colour)),
    switchedOn: keysWhere(states.switches, 'on'),
    lowered: keysWhere(states.drawbridges, 'lowered'),
    active: keysWhere(states.teleporters, 'active'),
    optionDeck: [...given.optionDeck],
    expected: [],
    stepping: null,
    registers,
    registerEvents: [],
    fusedThisMoment: new Set(),
    arrivals: new Map(),
  }
}

/** The direction of a single step from one square to the next, or null if they do not touch. */
export function stepDirection(from: Square, to: Square): Direction | null {
  return DIRECTIONS.find((dir) => sameSquare(neighbour(from, dir), to)) ?? null
}

/** What stops a step from `at` towards `dir` (R3, R4, R15), with the drawbridges `lowered` (now, by default). */
export function barrier(world: World, at: string, dir: Direction, lowered: ReadonlySet<string> = world.lowered): 'fence' | 'wall' | 'bridge' | null {
  // A wall on the board's edge stands in front of the fence (R3).
  if (world.walls.has(`${at} ${dir}`)) return 'wall'
  const next = neighbour(squareOf(at), dir)
  if (!onBoard(world, next)) return 'fence'
  const to = key(next)!
  const bridge = world.floor.get(to)
  return bridge?.type === 'drawbridge' && !lowered.has(to) && bridge.side === opposite(dir) ? 'bridge' : null
}

/** Judges a run of events alongside the replay: `event` before each is applied to the world, `end` after the last. */
export interface Watch {
  event(event: GameEvent, where: string): void
  end(): void
}

/** Whether a robot other than `self` stands on the square (any robot, R17, R24, A8). */
export function someoneOn(world: World, at: string, self: string, leaving: string | null = null): boolean {
  for (const [player, robot] of world.robots) if (player !== self && player !== leaving && robot.at === at && robot.mode !== 'destroyed') return true
  return false
}
