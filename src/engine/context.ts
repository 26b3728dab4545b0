// The working state of one turn being resolved. `resolveTurn` copies the game state into a
// Resolution, the rules change that copy as the turn unfolds, and the copy becomes the new
// state: the caller's data is never touched, so the engine stays pure from outside. Parts the
// rules never change in place (squares, the stations list) are shared rather than copied, and
// the board state is copied only when a mechanism changes (changeBoardState).
import type { EventTime, GameEvent, Phase } from './events.js'
import { squareIndex } from './board.js'
import { tablesOf, type BoardTables } from './board-tables.js'
import type { Board, BoardState, Card, OptionName, RobotState, Square } from './types.js'

/**
 * A robot's working copy during a turn: its state, plus its seat and the board index of its
 * square. Every rule asks where a robot stands and whose registers it plays, at every step; the
 * square's index read from the copy is one load, where working it out from `at` read `row` and
 * `col` from square objects of several shapes (the board's own, and those parsed from the stored
 * state's JSON), and finding the seat was a search of the robots. The result holds plain
 * RobotStates (see turn.ts), never these.
 */
export interface TurnRobot extends RobotState {
  /** Its place in `Resolution.robots` and `Resolution.registers`. */
  readonly seat: number
  /** The board index of `at`, or -1 while `at` is null. Changed only with `at`, by placeRobot. */
  atIndex: number
}

/** A robot a pusher push has moved, and the square a teleporter may not send it to (A21): see enterSquare. */
export interface PusherArrival {
  robot: TurnRobot
  taken: number
}

/** A robot hurt while damage lands at once, and its HP before (see Resolution.fallen). */
export interface Fallen { robot: TurnRobot; hpBefore: number }

export interface Resolution {
  readonly board: Board
  /** The board's own lookup tables (board-tables.ts). */
  readonly tables: BoardTables
  readonly turn: number
  boardState: BoardState
  /** Robots in seat order (working copies). */
  robots: TurnRobot[]
  /** This turn's registers per seat: index 0 is register 1 (R8, R27). */
  registers: (Card | null)[][]
  optionDeck: OptionName[]
  /**
   * The events of the part of the turn being resolved: the orders, one stage, or the end.
   * resolveTurn gives each part a new list, which goes into the result as it is.
   */
  events: GameEvent[]
  /** When the next event happens. Change it only through setStage/setPhase/setStep. */
  time: EventTime
  /**
   * The stamp events of the current moment share, made when the first of them is emitted: most
   * phases of most stages emit nothing, so no stamp is made for them.
   */
  stamp: Readonly<EventTime> | null
  /**
   * Robots destroyed this turn that were their player's last (R29, R34): those players are out,
   * and the game may end. Kept here so the end of the turn need not search the event log.
   */
  lostLastRobot: TurnRobot[]
  /**
   * Whether `boardState` is shared, with the caller's game state or with a board picture already
   * taken (the start's or a stage's), and so must be copied before it changes: see changeBoardState.
   */
  boardStateShared: boolean
  /**
   * While a pusher phase runs (pushers.ts), the robots its pushes have moved, whose new squares act
   * on them only once every push is played (R20 "all at once", A3); otherwise null, and a square
   * acts on a robot as it enters (floor.ts, enterSquare).
   */
  pusherArrivals: PusherArrival[] | null
  /**
   * While damage lands at once (a board laser volley, a round of robot lasers, a pusher phase:
   * damage.ts, beginAtOnce), the robots it has hurt and their HP before it, whose registers are fused
   * when it ends; null otherwise, and a hurt robot's registers are fused at once.
   */
  fallen: Fallen[] | null
  /** A scratch grid the size of the board, reused by every board laser volley of the turn (see lasers.ts). */
  seatGrid?: number[]
  /**
   * Scratch lists by seat, reused by every stage's robot movement (movement.ts): the seats in the
   * order their cards play and those cards' priorities, and whether each card's register was fused
   * as the stage began.
   */
  cardOrder?: number[]
  cardPriorities?: number[]
  fusedAtStart?: boolean[]
  /**
   * The real robot on each square, by board index, or null: real robots never share a square, and
   * every step, push and beam asks who stands where. Kept true by placeRobot, destroyRobot and
   * becomeReal, the only places a real robot's square changes or a robot becomes or stops being real.
   */
  realAt: (TurnRobot | null)[]
  /** The caller's robots, by seat: the working copies share their fused registers until ownFused. */
  readonly given: readonly RobotState[]
}

/**
 * A robot's working copy, written field by field: it runs for every robot of every turn, and a
 * literal is fastest. The options list, which the rules change in place, is copied. Squares and the
 * stations list are shared: the rules never change them in place (moving, tagging a checkpoint and
 * visiting a station replace them), so the caller's state stays untouched. The fused registers are
 * shared until the rules change them (copy on write, see ownFused): most turns fuse nothing.
 */
export function workingCopy(board: Board, robot: RobotState, seat: number): TurnRobot {
  return {
    player: robot.player,
    at: robot.at,
    facing: robot.facing,
    hp: robot.hp,
    mode: robot.mode,
    robotsLeft: robot.robotsLeft,
    flags: robot.flags,
    checkpoint: robot.checkpoint,
    stations: robot.stations,
    // Most robots hold no option: an empty literal is cheaper than a call.
    options: robot.options.length === 0 ? [] : robot.options.slice(),
    sacrificeAt: robot.sacrificeAt,
    doubleWrench: robot.doubleWrench,
    fused: robot.fused,
    rebooting: robot.rebooting,
    rebootNext: robot.rebootNext,
    placedAfterTurn: robot.placedAfterTurn,
    seat,
    atIndex: robot.at === null ? -1 : squareIndex(board, robot.at),
  }
}

/**
 * The fused registers of a robot, ready to be changed: copied first if the working copy still
 * shares them with the caller's robot (copy on write, as for the board state).
 */
export function ownFused(ctx: Resolution, robot: TurnRobot): RobotState['fused'] {
  if (robot.fused === ctx.given[robot.seat]?.fused) robot.fused = { ...robot.fused }
  return robot.fused
}

/** The grid of real robots as `robots` stand: for a new Resolution. */
export function realRobotGrid(board: Board, robots: readonly TurnRobot[], tables: BoardTables = tablesOf(board)): (TurnRobot | null)[] {
  // Copying an empty grid is cheaper than making one and filling it.
  const grid: (TurnRobot | null)[] = tables.noRobots.slice()
  for (const robot of robots) if (robot.mode === 'real' && robot.atIndex >= 0) grid[robot.atIndex] = robot
  return grid
}

/**
 * Puts a robot on the square at board index `to` (or takes it off the floor, with -1), keeping
 * `at`, `atIndex` and `realAt` true. Its `at` becomes the board's own square object. A real robot's
 * old square is cleared only if it still holds that robot: when belts move robots at once,
 * another may already have moved in.
 */
export function placeRobot(ctx: Resolution, robot: TurnRobot, to: number): void {
  if (robot.mode === 'real') {
    const from = robot.atIndex
    if (from >= 0 && ctx.realAt[from] === robot) ctx.realAt[from] = null
    if (to >= 0) ctx.realAt[to] = robot
  }
  robot.atIndex = to
  robot.at = to >= 0 ? ctx.board.squares[to]! : null
}

export function copyBoardState(state: BoardState): BoardState {
  return { switches: { ...state.switches }, drawbridges: { ...state.drawbridges }, teleporters: { ...state.teleporters } }
}

/**
 * The board state, ready to be changed: copied first if it is shared (copy on write). Most turns
 * change no switch, drawbridge or teleporter, so most never copy it, and the start and the stages
 * in which nothing changed share one picture of it.
 */
export function changeBoardState(ctx: Resolution): BoardState {
  if (ctx.boardStateShared) {
    ctx.boardState = copyBoardState(ctx.boardState)
    ctx.boardStateShared = false
  }
  return ctx.boardState
}

/**
 * Records an event. Call sites write `time: now(ctx)` first in the literal, so every event is
 * built whole in one go (adding the stamp afterwards made a slow, many-shaped store).
 */
export function emit(ctx: Resolution, event: GameEvent): void {
  ctx.events.push(event)
}

/** The stamp the events of the current moment share, made when the first of them is emitted. */
export function now(ctx: Resolution): Readonly<EventTime> {
  return (ctx.stamp ??= { stage: ctx.time.stage, phase: ctx.time.phase, priority: ctx.time.priority, step: ctx.time.step })
}

export function setStage(ctx: Resolution, stage: number): void {
  ctx.time.stage = stage
  ctx.stamp = null
}

export function setStep(ctx: Resolution, step: number): void {
  ctx.time.step = step
  ctx.stamp = null
}

export function setPhase(ctx: Resolution, phase: Phase, priority: number | null = null, step = 0): void {
  ctx.time.phase = phase
  ctx.time.priority = priority
  ctx.time.step = step
  ctx.stamp = null
}

/**
 * Puts what happens to robots at once (hits, arrivals) robot by robot in seat order, wherever the
 * rules act at once but an order still shows (A25): in the option deck, the HP each event tells.
 * Array#sort is stable, so what happens to one robot keeps its order.
 */
export function inSeatOrder<T extends { robot: TurnRobot }>(list: T[]): void {
  if (list.length > 1) list.sort((a, b) => a.robot.seat - b.robot.seat)
}

export function isOnFloor<R extends RobotState>(robot: R): robot is R & { at: Square } {
  return robot.at !== null && robot.mode !== 'destroyed'
}

/** The real robot on the square at board index `index`, other than `except`; real robots never share a square. */
export function realRobotAt(ctx: Resolution, index: number, except: TurnRobot): TurnRobot | null {
  const robot = ctx.realAt[index] ?? null
  return robot === except ? null : robot
}

/** Whether any robot on the floor (real or virtual) other than `except` stands on the square at board index `index`. */
export function anyRobotAt(ctx: Resolution, index: number, except: TurnRobot, leaving: TurnRobot | null = null): boolean {
  for (const robot of ctx.robots) {
    if (robot !== except && robot !== leaving && robot.atIndex === index && robot.mode !== 'destroyed') return true
  }
  return false
}
