// Board lasers (R23) and robot lasers (R26). Every beam of a volley is traced first and its
// damage dealt afterwards, so all beams fire at once: a robot destroyed by one still fires its own.
import { emit, isOnFloor, setPhase, type Resolution } from './context.js'
import { dealDamage } from './damage.js'
import { isRaisedDrawbridge } from './floor.js'
import { opposite } from './geometry.js'
import { squareIndex } from './board.js'
import type { Direction, RobotState, Square } from './types.js'

/**
 * The index of the next square a beam enters, or -1 where a wall, the board's edge or a raised
 * drawbridge stops it (R23, R26, A5). Beams are traced for every robot in every stage, so this
 * reads the board's precomputed steps and allocates nothing.
 */
function beamContinues(ctx: Resolution, from: number, dir: Direction): number {
  const next = ctx.board.steps[dir][from]!
  if (next < 0) return -1
  if (ctx.board.floor[next]?.type === 'drawbridge' && isRaisedDrawbridge(ctx.board, ctx.boardState, ctx.board.squares[next]!)) return -1
  return next
}

interface Hit { robot: RobotState; amount: number; by?: string }

/** Robots on the floor by square index: built once per volley, since every beam looks squares up. */
function occupancy(ctx: Resolution, realOnly: boolean): Map<number, RobotState[]> {
  const bySquare = new Map<number, RobotState[]>()
  for (const robot of ctx.robots) {
    if (!isOnFloor(robot) || (realOnly && robot.mode !== 'real')) continue
    const index = squareIndex(ctx.board, robot.at)
    const list = bySquare.get(index)
    if (list) list.push(robot)
    else bySquare.set(index, [robot])
  }
  return bySquare
}

export function fireBoardLasers(ctx: Resolution): void {
  if (ctx.board.lasers.length === 0) return
  setPhase(ctx, 'board-laser')
  const hits: Hit[] = []
  const robotsOn = occupancy(ctx, false)
  for (const laser of ctx.board.lasers) {
    const squares: Square[] = []
    const struck: string[] = []
    let index = squareIndex(ctx.board, laser.at)
    while (index >= 0) {
      squares.push(ctx.board.squares[index]!)
      const here = robotsOn.get(index)
      if (here) {
        for (const robot of here) {
          hits.push({ robot, amount: laser.strength })
          struck.push(robot.player)
        }
        // R23: a blue beam stops at the first square holding a robot, real or virtual.
        if (laser.colour === 'blue') break
      }
      index = beamContinues(ctx, index, laser.dir)
    }
    if (struck.length > 0) {
      emit(ctx, { kind: 'board-laser', from: laser.at, dir: laser.dir, colour: laser.colour, strength: laser.strength, squares, hits: struck })
    }
  }
  for (const hit of hits) dealDamage(ctx, hit.robot, hit.amount, 'board-laser')
}

/**
 * R26: every real robot that is not rebooting fires forward (and backward with Rear Laser, R32).
 * The beam starts in the square ahead, passes through virtual robots and stops at the first real
 * robot (1 damage, 2 with Double Laser), a wall, a raised drawbridge or the board's edge.
 */
export function fireRobotLasers(ctx: Resolution): void {
  setPhase(ctx, 'combat')
  const hits: Hit[] = []
  // Every beam of the volley looks up real robots square by square: one grid for all of them.
  const realOn = occupancy(ctx, true)
  for (const shooter of ctx.robots) {
    if (!isOnFloor(shooter) || shooter.mode !== 'real' || shooter.rebooting) continue
    const damage = shooter.options.includes('Double Laser') ? 2 : 1
    const directions = shooter.options.includes('Rear Laser') ? [shooter.facing, opposite(shooter.facing)] : [shooter.facing]
    for (const dir of directions) {
      const squares: Square[] = []
      let target: RobotState | null = null
      let index = beamContinues(ctx, squareIndex(ctx.board, shooter.at), dir)
      while (index >= 0) {
        squares.push(ctx.board.squares[index]!)
        target = realOn.get(index)?.[0] ?? null
        if (target) break
        index = beamContinues(ctx, index, dir)
      }
      emit(ctx, { kind: 'robot-laser', player: shooter.player, dir, squares, hit: target?.player ?? null, damage: target ? damage : 0 })
      if (target) hits.push({ robot: target, amount: damage, by: shooter.player })
    }
  }
  for (const hit of hits) dealDamage(ctx, hit.robot, hit.amount, 'robot-laser', hit.by)
}
