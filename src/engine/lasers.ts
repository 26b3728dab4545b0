// Board lasers (R23) and robot lasers (R26). Every beam of a volley is traced first and its
// damage dealt afterwards, so all beams fire at once: a robot destroyed by one still fires its own.
import { emit, now, isOnFloor, setPhase, type Resolution } from './context.js'
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

/**
 * Which seats stand where, for one volley: `grid[index]` is 1 + the seat of the robot on that
 * square (the last one listed where virtual robots share), 0 where there is none. Every beam looks
 * squares up, so this is a typed array filled once, not a search per square.
 */
function seatGrid(ctx: Resolution, realOnly: boolean): Int8Array {
  // One scratch grid per turn, cleared here before it is filled again.
  const grid = (ctx.scratchGrid ??= new Int8Array(ctx.board.squares.length))
  grid.fill(0)
  for (let seat = 0; seat < ctx.robots.length; seat++) {
    const robot = ctx.robots[seat]!
    if (robot.at !== null && robot.mode !== 'destroyed' && (!realOnly || robot.mode === 'real')) {
      grid[(robot.at.row - 1) * ctx.board.cols + robot.at.col - 1] = seat + 1
    }
  }
  return grid
}

export function fireBoardLasers(ctx: Resolution): void {
  if (ctx.board.lasers.length === 0) return
  setPhase(ctx, 'board-laser')
  const hits: Hit[] = []
  const occupied = seatGrid(ctx, false)
  for (const laser of ctx.board.lasers) {
    const squares: Square[] = []
    const struck: string[] = []
    let index = squareIndex(ctx.board, laser.at)
    while (index >= 0) {
      squares.push(ctx.board.squares[index]!)
      if (occupied[index]) {
        // Every robot on the square is hit, real or virtual (R23, R24).
        const square = ctx.board.squares[index]!
        for (const robot of ctx.robots) {
          if (robot.at !== null && robot.at.row === square.row && robot.at.col === square.col && robot.mode !== 'destroyed') {
            hits.push({ robot, amount: laser.strength })
            struck.push(robot.player)
          }
        }
        // R23: a blue beam stops at the first square holding a robot.
        if (laser.colour === 'blue') break
      }
      index = beamContinues(ctx, index, laser.dir)
    }
    if (struck.length > 0) {
      emit(ctx, { time: now(ctx), kind: 'board-laser', from: laser.at, dir: laser.dir, colour: laser.colour, strength: laser.strength, squares, hits: struck })
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
  const realSeat = seatGrid(ctx, true)
  for (const shooter of ctx.robots) {
    if (!isOnFloor(shooter) || shooter.mode !== 'real' || shooter.rebooting) continue
    const hasOptions = shooter.options.length > 0
    const damage = hasOptions && shooter.options.includes('Double Laser') ? 2 : 1
    const rear = hasOptions && shooter.options.includes('Rear Laser')
    for (let beam = 0; beam < (rear ? 2 : 1); beam++) {
      const dir = beam === 0 ? shooter.facing : opposite(shooter.facing)
      const squares: Square[] = []
      let target: RobotState | null = null
      let index = beamContinues(ctx, squareIndex(ctx.board, shooter.at), dir)
      while (index >= 0) {
        squares.push(ctx.board.squares[index]!)
        const seat = realSeat[index]!
        if (seat > 0) {
          target = ctx.robots[seat - 1]!
          break
        }
        index = beamContinues(ctx, index, dir)
      }
      emit(ctx, { time: now(ctx), kind: 'robot-laser', player: shooter.player, dir, squares, hit: target?.player ?? null, damage: target ? damage : 0 })
      if (target) hits.push({ robot: target, amount: damage, by: shooter.player })
    }
  }
  for (const hit of hits) dealDamage(ctx, hit.robot, hit.amount, 'robot-laser', hit.by)
}
