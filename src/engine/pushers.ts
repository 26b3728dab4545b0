// Pushers (R20): in the stages printed on them, all at once, each moves the robot on its square
// one square away from its wall, pushing a chain ahead as in R13.
import { isOnFloor, realRobotAt, setPhase, type Resolution } from './context.js'
import { neighbour, opposite, sameSquare } from './geometry.js'
import { tryStep } from './push.js'
import type { Direction, RobotState, Square } from './types.js'

interface Shove {
  robot: RobotState
  dir: Direction
  to: Square
  cancelled: boolean
}

export function runPushers(ctx: Resolution, stage: number): void {
  const pushers = ctx.board.pushersByStage[stage]!
  if (pushers.length === 0) return
  setPhase(ctx, 'pusher')
  const shoves: Shove[] = []
  for (const pusher of pushers) {
    for (const robot of ctx.robots) {
      if (isOnFloor(robot) && sameSquare(robot.at, pusher.at)) {
        const dir = opposite(pusher.side)
        shoves.push({ robot, dir, to: neighbour(robot.at, dir), cancelled: false })
      }
    }
  }
  if (shoves.length === 0) return
  // R20: two pushers into one square, or two robots pushed into each other's squares: neither
  // moves. Only real robots contend; virtual robots ignore other robots (R24).
  const real = shoves.filter((s) => s.robot.mode === 'real')
  for (const shove of real) {
    for (const other of real) {
      if (other === shove) continue
      if (sameSquare(other.to, shove.to) || (sameSquare(other.to, shove.robot.at) && sameSquare(shove.to, other.robot.at))) {
        shove.cancelled = true
      }
    }
  }
  // Simultaneous in effect: a shove whose square ahead holds another pushed robot waits until
  // that robot has gone, so no robot is moved twice.
  const pending = shoves.filter((s) => !s.cancelled)
  while (pending.length > 0) {
    let index = pending.findIndex((s) => {
      if (s.robot.mode !== 'real' || !isOnFloor(s.robot)) return true
      const ahead = realRobotAt(ctx, neighbour(s.robot.at, s.dir), s.robot)
      return !ahead || !pending.some((p) => p.robot === ahead)
    })
    if (index < 0) index = 0
    const [shove] = pending.splice(index, 1)
    if (shove && isOnFloor(shove.robot)) tryStep(ctx, shove.robot, shove.dir, 'pusher')
  }
}
