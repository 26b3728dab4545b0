// Gears (R21) and crushers (R22), mechanisms part 2 after conveyors and pushers.
import { emit, now, isOnFloor, setPhase, type Resolution } from './context.js'
import { destroyRobot } from './damage.js'
import { opposite, turnLeft, turnRight } from './geometry.js'
import { floorAt } from './board.js'

export function runGears(ctx: Resolution): void {
  setPhase(ctx, 'gear')
  for (const robot of ctx.robots) {
    if (!isOnFloor(robot)) continue
    const element = floorAt(ctx.board, robot.at)
    if (element === null || element.type !== 'gear' || robot.options.includes('Gyroscope')) continue // R32 Gyroscope
    robot.facing = element.turn === 'left' ? turnLeft(robot.facing) : element.turn === 'right' ? turnRight(robot.facing) : opposite(robot.facing)
    emit(ctx, { time: now(ctx), kind: 'turned', player: robot.player, facing: robot.facing, cause: 'gear' })
  }
}

export function runCrushers(ctx: Resolution, stage: number): void {
  setPhase(ctx, 'crusher')
  for (const robot of ctx.robots) {
    if (!isOnFloor(robot)) continue
    const element = floorAt(ctx.board, robot.at)
    // R28: a crusher cannot be absorbed by an option; it destroys outright.
    if (element !== null && element.type === 'crusher' && element.stages.includes(stage as 1)) destroyRobot(ctx, robot, 'crusher')
  }
}
