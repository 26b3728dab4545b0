// Step 4 of a stage (R30) and the virtual → real check of step 5 (R25).
import { anyRobotAt, emit, now, isOnFloor, setPhase, type Resolution, type TurnRobot } from './context.js'
import { cardSetsFor } from './deck.js'
import { sameSquare } from './geometry.js'
import type { FlagElement } from './types.js'

/** What touchCheckpoints returns in the stages nobody finishes in (nearly all): never added to. */
const NOBODY_FINISHED: string[] = []

/**
 * R30: a robot on the floor and not rebooting, on a flag: the flag becomes its checkpoint and is
 * tagged if it is the next in order; on a wrench: checkpoint; on an upgrade station it has not
 * visited: recorded (R6). Returns the players who tagged the board's last flag in this stage.
 */
export function touchCheckpoints(ctx: Resolution): string[] {
  setPhase(ctx, 'checkpoint')
  let finishers: string[] | null = null
  for (const robot of ctx.robots) {
    if (!isOnFloor(robot) || robot.rebooting) continue
    // The type from floorTypes (see Board.floorTypes): most robots stand on no checkpoint.
    const index = robot.atIndex
    const type = ctx.board.floorTypes[index] ?? null
    if (type === null) continue
    if (type === 'flag' || type === 'wrench') {
      if (!sameSquare(robot.checkpoint, robot.at)) {
        robot.checkpoint = robot.at
        emit(ctx, { time: now(ctx), kind: 'checkpoint', player: robot.player, at: robot.at })
      }
      if (type === 'flag' && (ctx.board.floor[index] as FlagElement).number === robot.flags + 1) {
        robot.flags += 1
        emit(ctx, { time: now(ctx), kind: 'flag-tagged', player: robot.player, number: robot.flags, at: robot.at })
        if (robot.flags === ctx.board.flagCount) (finishers ??= []).push(robot.player)
      }
    } else if (type === 'upgrade' && !robot.stations.some((s) => sameSquare(s, robot.at))) {
      const before = cardSetsFor(robot.stations.length).length
      robot.stations = [...robot.stations, robot.at]
      const after = cardSetsFor(robot.stations.length)
      emit(ctx, { time: now(ctx), kind: 'station-visited', player: robot.player, at: robot.at, unlocked: after.length > before ? after[after.length - 1]! : null })
    }
  }
  return finishers ?? NOBODY_FINISHED
}

/**
 * R25: a virtual robot becomes real at the end of a stage in which it is alone in its square, but
 * not before the end of stage 5 of the first full turn after it was placed.
 */
export function settleModes(ctx: Resolution, stage: number): void {
  setPhase(ctx, 'mode')
  for (const robot of ctx.robots) {
    if (robot.mode !== 'virtual' || !isOnFloor(robot)) continue
    const firstFullTurn = robot.placedAfterTurn + 1
    const longEnough = ctx.turn > firstFullTurn || (ctx.turn === firstFullTurn && stage === 5)
    if (longEnough && !anyRobotAt(ctx, robot.atIndex, robot)) becomeReal(ctx, robot)
  }
}

function becomeReal(ctx: Resolution, robot: TurnRobot): void {
  robot.mode = 'real'
  // Alone on its square (settleModes checked), so it takes the square in the grid of real robots.
  ctx.realAt[robot.atIndex] = robot
  emit(ctx, { time: now(ctx), kind: 'became-real', player: robot.player })
}
