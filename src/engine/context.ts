// The working state of one turn being resolved. `resolveTurn` copies the game state into a
// Resolution, the rules change that copy as the turn unfolds, and the copy becomes the new
// state: the caller's data is never touched, so the engine stays pure from outside. Parts the
// rules never change in place (squares, the stations list) are shared rather than copied, and
// the board state is copied only when a mechanism changes (changeBoardState).
import type { EventTime, GameEvent, Phase } from './events.js'
import { sameSquare } from './geometry.js'
import { isOnBoard, squareIndex } from './board.js'
import { tablesOf, type BoardTables } from './board-tables.js'
import type { Board, BoardState, Card, OptionName, RobotState, Square } from './types.js'

export interface Resolution {
  readonly board: Board
  /** The board's own lookup tables (board-tables.ts). */
  readonly tables: BoardTables
  readonly turn: number
  boardState: BoardState
  /** Robots in seat order (working copies). */
  robots: RobotState[]
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
  lostLastRobot: RobotState[]
  /**
   * Whether `boardState` is shared, with the caller's game state or with a board picture already
   * taken (the start's or a stage's), and so must be copied before it changes: see changeBoardState.
   */
  boardStateShared: boolean
  /** A scratch grid the size of the board, reused by every board laser volley of the turn (see lasers.ts). */
  seatGrid?: number[]
  /**
   * The real robot on each square, by board index, or null: real robots never share a square, and
   * every step, push and beam asks who stands where. Kept true by placeRobot, destroyRobot and
   * becomeReal, the only places a real robot's square changes or a robot becomes or stops being real.
   */
  realAt: (RobotState | null)[]
  /** The caller's robots, by seat: the working copies share their fused registers until ownFused. */
  readonly given: readonly RobotState[]
}

/**
 * The fused registers of the robot in `seat`, ready to be changed: copied first if the working copy
 * still shares them with the caller's robot (copy on write, as for the board state).
 */
export function ownFused(ctx: Resolution, robot: RobotState, seat: number): RobotState['fused'] {
  if (robot.fused === ctx.given[seat]?.fused) robot.fused = { ...robot.fused }
  return robot.fused
}

/** The grid of real robots as `robots` stand: for a new Resolution. */
export function realRobotGrid(board: Board, robots: readonly RobotState[], tables: BoardTables = tablesOf(board)): (RobotState | null)[] {
  // Copying an empty grid is cheaper than making one and filling it.
  const grid = tables.noRobots.slice()
  for (const robot of robots) if (robot.mode === 'real' && robot.at !== null) grid[squareIndex(board, robot.at)] = robot
  return grid
}

/**
 * Puts a robot on a square (or takes it off the floor, with null), keeping `realAt` true. A real
 * robot's old square is cleared only if it still holds that robot: when belts move robots at once,
 * another may already have moved in.
 */
export function placeRobot(ctx: Resolution, robot: RobotState, to: Square | null): void {
  if (robot.mode === 'real') {
    if (robot.at !== null) {
      const from = squareIndex(ctx.board, robot.at)
      if (ctx.realAt[from] === robot) ctx.realAt[from] = null
    }
    if (to !== null) ctx.realAt[squareIndex(ctx.board, to)] = robot
  }
  robot.at = to
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

export function isOnFloor(robot: RobotState): robot is RobotState & { at: Square } {
  return robot.at !== null && robot.mode !== 'destroyed'
}

/** The real robot on `square` (which may be off the board), other than `except`; real robots never share a square. */
export function realRobotAt(ctx: Resolution, square: Square, except?: RobotState): RobotState | null {
  if (!isOnBoard(ctx.board, square)) return null
  const robot = ctx.realAt[squareIndex(ctx.board, square)] ?? null
  return robot === except ? null : robot
}

/** Whether any robot on the floor (real or virtual) other than `except` stands on `square`. */
export function anyRobotAt(ctx: Resolution, square: Square, except?: RobotState): boolean {
  for (const robot of ctx.robots) {
    if (robot !== except && isOnFloor(robot) && sameSquare(robot.at, square)) return true
  }
  return false
}
