// Board lasers (R23) and robot lasers (R26). Every beam of a volley is traced first and its
// damage dealt afterwards, so all beams fire at once: a robot destroyed by one still fires its own.
import { emit, now, isOnFloor, setPhase, type Resolution } from './context.js'
import { dealDamage } from './damage.js'
import { isRaisedDrawbridge } from './floor.js'
import { opposite } from './geometry.js'
import { squareIndex, stepsTowards } from './board.js'
import type { RobotState, Square } from './types.js'

/**
 * The index of the next square a beam enters, or -1 where a wall, the board's edge or a raised
 * drawbridge stops it (R23, R26, A5). Beams are traced for every robot in every stage, so this
 * reads the board's precomputed steps towards the beam's direction (`steps`, looked up once per
 * beam by its caller) and floor types, and allocates nothing.
 */
function beamContinues(ctx: Resolution, steps: readonly number[], from: number): number {
  const next = steps[from]!
  if (next < 0) return -1
  const type = ctx.board.floorTypes[next] ?? null
  if (type !== null && type === 'drawbridge' && isRaisedDrawbridge(ctx.board, ctx.boardState, ctx.board.squares[next]!)) return -1
  return next
}

/**
 * The `count` squares a beam crosses from index `first` on, in an array of exactly that size:
 * beams are traced first, allocating nothing, and copied out here (an array grown by pushing is
 * made with room for 17 squares, and there is one for every robot in every stage).
 */
function beamSquares(ctx: Resolution, steps: readonly number[], first: number, count: number): Square[] {
  const squares = new Array<Square>(count)
  let index = first
  for (let i = 0; i < count; i++) {
    squares[i] = ctx.board.squares[index]!
    index = steps[index]!
  }
  return squares
}

interface Hit { robot: RobotState; amount: number; by?: string }

/**
 * Which seats stand where, for one volley: `grid[index]` is 1 + the seat of the robot on that
 * square (the last one listed where virtual robots share), 0 or a hole where there is none. Every
 * beam looks squares up, so this is an array marked once, not a search per square. One scratch
 * grid serves the whole turn: it holds no seat between volleys, so marking needs no clearing
 * first. It is a plain array with holes, not a typed array: a typed array this size lives outside
 * the heap, and allocating and freeing one cost more than all the turn's volleys.
 */
function markSeats(ctx: Resolution, realOnly: boolean): number[] {
  const grid = (ctx.seatGrid ??= new Array<number>(ctx.board.squares.length))
  for (let seat = 0; seat < ctx.robots.length; seat++) {
    const robot = ctx.robots[seat]!
    if (robot.at !== null && robot.mode !== 'destroyed' && (!realOnly || robot.mode === 'real')) {
      grid[squareIndex(ctx.board, robot.at)] = seat + 1
    }
  }
  return grid
}

/** Zeroes what markSeats marked, before any damage of the volley moves or removes a robot. */
function clearSeats(ctx: Resolution, grid: number[]): void {
  for (const robot of ctx.robots) {
    if (robot.at !== null) grid[squareIndex(ctx.board, robot.at)] = 0
  }
}

export function fireBoardLasers(ctx: Resolution): void {
  if (ctx.board.lasers.length === 0) return
  setPhase(ctx, 'board-laser')
  const hits: Hit[] = []
  const occupied = markSeats(ctx, false)
  for (const laser of ctx.board.lasers) {
    const steps = stepsTowards(ctx.board, laser.dir)
    const first = squareIndex(ctx.board, laser.at)
    // Most beams strike nobody and are not recorded, so the beam is traced before anything is built.
    let count = 0
    let strikes = false
    for (let index = first; index >= 0; index = beamContinues(ctx, steps, index)) {
      count++
      if (occupied[index]) {
        strikes = true
        // R23: a blue beam stops at the first square holding a robot.
        if (laser.colour === 'blue') break
      }
    }
    if (!strikes) continue
    const squares = beamSquares(ctx, steps, first, count)
    const struck: string[] = []
    for (const square of squares) {
      if (!occupied[squareIndex(ctx.board, square)]) continue
      // Every robot on the square is hit, real or virtual (R23, R24).
      for (const robot of ctx.robots) {
        if (robot.at !== null && robot.at.row === square.row && robot.at.col === square.col && robot.mode !== 'destroyed') {
          hits.push({ robot, amount: laser.strength })
          struck.push(robot.player)
        }
      }
    }
    emit(ctx, { time: now(ctx), kind: 'board-laser', from: laser.at, dir: laser.dir, colour: laser.colour, strength: laser.strength, squares, hits: struck })
  }
  clearSeats(ctx, occupied)
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
  const realSeat = markSeats(ctx, true)
  for (const shooter of ctx.robots) {
    if (!isOnFloor(shooter) || shooter.mode !== 'real' || shooter.rebooting) continue
    const hasOptions = shooter.options.length > 0
    const damage = hasOptions && shooter.options.includes('Double Laser') ? 2 : 1
    const rear = hasOptions && shooter.options.includes('Rear Laser')
    for (let beam = 0; beam < (rear ? 2 : 1); beam++) {
      const dir = beam === 0 ? shooter.facing : opposite(shooter.facing)
      let target: RobotState | null = null
      const steps = stepsTowards(ctx.board, dir)
      const first = beamContinues(ctx, steps, squareIndex(ctx.board, shooter.at))
      let count = 0
      let index = first
      while (index >= 0) {
        count++
        const seat = realSeat[index] ?? 0
        if (seat > 0) {
          target = ctx.robots[seat - 1]!
          break
        }
        index = beamContinues(ctx, steps, index)
      }
      const squares = beamSquares(ctx, steps, first, count)
      emit(ctx, { time: now(ctx), kind: 'robot-laser', player: shooter.player, dir, squares, hit: target?.player ?? null, damage: target ? damage : 0 })
      if (target) hits.push({ robot: target, amount: damage, by: shooter.player })
    }
  }
  clearSeats(ctx, realSeat)
  for (const hit of hits) dealDamage(ctx, hit.robot, hit.amount, 'robot-laser', hit.by)
}
