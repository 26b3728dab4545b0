// Gears (R21) and crushers (R22), mechanisms part 2 after conveyors and pushers.
import { emit, now, isOnFloor, setPhase, type Resolution } from './context.js'
import { destroyRobot } from './damage.js'
import { opposite, turnLeft, turnRight } from './geometry.js'
import type { GearElement } from './types.js'

export function runGears(ctx: Resolution): void {
  if (!ctx.board.hasGears) return
  setPhase(ctx, 'gear')
  for (const robot of ctx.robots) {
    if (!isOnFloor(robot)) continue
    // The type from floorTypes (see Board.floorTypes): most robots stand on no gear.
    const type = ctx.board.floorTypes[robot.atIndex] ?? null
    if (type === null || type !== 'gear' || robot.options.includes('Gyroscope')) continue // R32 Gyroscope
    const gear = ctx.board.floor[robot.atIndex] as GearElement
    robot.facing = gear.turn === 'left' ? turnLeft(robot.facing) : gear.turn === 'right' ? turnRight(robot.facing) : opposite(robot.facing)
    emit(ctx, { time: now(ctx), kind: 'turned', player: robot.player, facing: robot.facing, cause: 'gear' })
  }
}

export function runCrushers(ctx: Resolution, stage: number): void {
  if (!ctx.board.crushesInStage[stage]) return
  setPhase(ctx, 'crusher')
  // One look per robot in the board's table (board-tables.ts) rather than at the crusher's own stages.
  const bit = 1 << stage
  for (const robot of ctx.robots) {
    if (!isOnFloor(robot)) continue
    // R28: a crusher cannot be absorbed by an option; it destroys outright.
    if ((ctx.tables.crusherStages[robot.atIndex]! & bit) !== 0) destroyRobot(ctx, robot, 'crusher')
  }
}
