// Mechanisms, part 1 (R14–R17): what a square does to a robot that enters it, at every step,
// also mid-card, and what stands between two squares (walls R4, the fence R3, bridge sides R15).
import { anyRobotAt, changeBoardState, emit, now, placeRobot, type Resolution, type TurnRobot } from './context.js'
import { destroyRobot } from './damage.js'
import type { MoveCause } from './events.js'
import { opposite } from './geometry.js'
import { floorAt, floorOfType, squareIndex, squareKey, stepsTowards } from './board.js'
import { STEP_OFF_BOARD, STEP_THROUGH_WALL, type Board, type BoardState, type Direction, type Square, type SwitchElement, type TeleporterElement } from './types.js'

export type Barrier = 'wall' | 'fence' | 'bridge' | null

/** Whether a wall stands between `from` and its neighbour towards `dir` (R4). */
export function wallBetween(board: Board, from: Square, dir: Direction): boolean {
  return stepsTowards(board, dir)[squareIndex(board, from)] === STEP_THROUGH_WALL
}

export function isRaisedDrawbridge(board: Board, state: BoardState, square: Square): boolean {
  return floorOfType(board, square, 'drawbridge') !== null && state.drawbridges[squareKey(board, square)] !== 'lowered'
}

/**
 * The index of the square one step from the square at index `from` towards `dir`, or
 * STEP_OFF_BOARD / STEP_THROUGH_WALL (see Board.steps). A step reads it once and passes it on, to
 * barrierAt and to the grid of real robots.
 */
export function stepAhead(board: Board, from: number, dir: Direction): number {
  return stepsTowards(board, dir)[from]!
}

/**
 * What stops a step towards `dir` that stepAhead gave as `to`: a wall (R4; a wall on the edge
 * stands in front of the fence, R3), the fence, or the bridge side of a raised drawbridge, which
 * acts as a wall (R15). Null when the step is free.
 */
export function barrierAt(board: Board, state: BoardState, to: number, dir: Direction): Barrier {
  if (to === STEP_THROUGH_WALL) return 'wall'
  if (to === STEP_OFF_BOARD) return 'fence'
  const element = board.floor[to] ?? null
  if (element !== null && element.type === 'drawbridge' && element.side === opposite(dir) && state.drawbridges[board.keys[to]!] !== 'lowered') return 'bridge'
  return null
}

/** The index of the square one step ahead, known to be on the board. */
export function indexAhead(board: Board, from: number, dir: Direction): number {
  const to = stepsTowards(board, dir)[from]!
  if (to < 0) throw new Error(`indexAhead: no square ${dir} of ${board.keys[from] ?? from}`)
  return to
}

/**
 * Puts a robot on the square at index `to` it moves into and applies what is there: a pit or
 * raised drawbridge destroys it (R14, R15), a switch flips (R16), an active teleporter sends it on (R17).
 * `taken` is a square that counts as holding a robot though none stands there yet: for a pushed
 * robot, the square it leaves, which the robot pushing it is stepping into (A21). `leaving` is the
 * robot whose step pushes it: its square counts as free, for it is stepping out of it (A21). In a
 * pusher phase the square acts only when every push has been played (pushers.ts, A3), so every
 * pusher has moved by then.
 */
export function enterSquare(ctx: Resolution, robot: TurnRobot, to: number, cause: MoveCause, by?: string, taken = -1, leaving: TurnRobot | null = null): void {
  const from = robot.at!
  placeRobot(ctx, robot, to)
  emit(ctx, { time: now(ctx), kind: 'moved', player: robot.player, from, to: robot.at!, cause, by })
  if (ctx.pusherArrivals !== null) ctx.pusherArrivals.push({ robot, taken })
  else applyArrival(ctx, robot, taken, leaving)
}

/** What the square a robot has just been moved onto does to it (split out for simultaneous conveyor moves). */
export function applyArrival(ctx: Resolution, robot: TurnRobot, taken = -1, leaving: TurnRobot | null = null): void {
  const to = robot.at!
  // From floorTypes (see there): most squares a robot enters hold nothing that acts on arrival.
  const type = ctx.board.floorTypes[robot.atIndex] ?? null
  if (type === null) return
  switch (type) {
    case 'pit': destroyRobot(ctx, robot, 'pit'); return
    case 'drawbridge':
      if (ctx.boardState.drawbridges[squareKey(ctx.board, to)] !== 'lowered') destroyRobot(ctx, robot, 'drawbridge')
      return
    case 'switch': flipSwitch(ctx, robot, floorOfType(ctx.board, to, 'switch')!); return
    case 'teleporter': teleport(ctx, robot, floorOfType(ctx.board, to, 'teleporter')!, taken, leaving); return
    default: return
  }
}

/** R16: pressure switches go on once and stay on; toggle switches flip their teleporters every time. */
function flipSwitch(ctx: Resolution, robot: TurnRobot, element: SwitchElement): void {
  const key = squareKey(ctx.board, element.at)
  const wasOn = ctx.boardState.switches[key] === 'on'
  if (element.kind === 'pressure' && wasOn) return
  const state = changeBoardState(ctx)
  state.switches[key] = wasOn ? 'off' : 'on'
  emit(ctx, { time: now(ctx), kind: 'switch-flipped', player: robot.player, at: element.at, on: !wasOn })
  for (const target of element.targets) {
    const targetKey = squareKey(ctx.board, target)
    const found = floorAt(ctx.board, target)
    if (found?.type === 'drawbridge') {
      if (state.drawbridges[targetKey] !== 'lowered') {
        state.drawbridges[targetKey] = 'lowered'
        emit(ctx, { time: now(ctx), kind: 'drawbridge-lowered', at: target })
      }
    } else if (found?.type === 'teleporter') {
      const active = element.kind === 'pressure' ? true : state.teleporters[targetKey] !== 'active'
      if ((state.teleporters[targetKey] === 'active') !== active) {
        state.teleporters[targetKey] = active ? 'active' : 'inactive'
        emit(ctx, { time: now(ctx), kind: 'teleporter-changed', at: target, active })
      }
    }
  }
}

export function isActiveTeleporter(ctx: Resolution, element: TeleporterElement): boolean {
  return ctx.boardState.teleporters[squareKey(ctx.board, element.at)] === 'active'
}

/**
 * R17: on to the next teleporter in alphabetical order of colour, wrapping round, that is active
 * and holds no robot (real or virtual, R24). If there is none the robot stays. Arriving does not
 * teleport again. The square `taken` holds a robot arriving in the same step, and the robot
 * `leaving` is stepping out of its square in that step, so it holds nothing (A21).
 */
function teleport(ctx: Resolution, robot: TurnRobot, source: TeleporterElement, taken: number, leaving: TurnRobot | null): void {
  if (!isActiveTeleporter(ctx, source)) return
  const ring = ctx.board.teleporters
  const start = ring.indexOf(source)
  for (let i = 1; i < ring.length; i++) {
    const candidate = ring[(start + i) % ring.length]!
    const index = squareIndex(ctx.board, candidate.at)
    if (index !== taken && isActiveTeleporter(ctx, candidate) && !anyRobotAt(ctx, index, robot, leaving)) {
      const from = robot.at!
      placeRobot(ctx, robot, index)
      emit(ctx, { time: now(ctx), kind: 'teleported', player: robot.player, from, to: candidate.at, colour: candidate.colour })
      return
    }
  }
}
