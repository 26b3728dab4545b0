// Board lasers (R23) and robot lasers (R26). Every beam of a volley is traced first and its
// damage dealt afterwards, so all beams fire at once: a robot destroyed by one still fires its own.
import { emit, now, inSeatOrder, isOnFloor, setPhase, type Resolution, type TurnRobot } from './context.js'
import { dealVolley, type Hit } from './damage.js'
import { opposite } from './geometry.js'
import { boardBeams, firstSquares, openLength, rayFrom } from './rays.js'

/**
 * Which seats stand where, for a board laser volley: `grid[index]` is 1 + the seat of a robot on
 * that square (the last one listed where virtual robots share), 0 or a hole where there is none.
 * Board beams strike virtual robots too (R23, R24), so the grid of real robots (Resolution.realAt)
 * is not enough. One scratch grid serves the whole turn: it holds no seat between volleys, so
 * marking needs no clearing first. It is a plain array with holes, not a typed array: a typed array
 * this size lives outside the heap, and allocating and freeing one cost more than all the volleys.
 */
function markSeats(ctx: Resolution): number[] {
  const grid = (ctx.seatGrid ??= new Array<number>(ctx.board.squares.length))
  for (let seat = 0; seat < ctx.robots.length; seat++) {
    const robot = ctx.robots[seat]!
    if (robot.atIndex >= 0 && robot.mode !== 'destroyed') grid[robot.atIndex] = seat + 1
  }
  return grid
}

/** Zeroes what markSeats marked, before any damage of the volley moves or removes a robot. */
function clearSeats(ctx: Resolution, grid: number[]): void {
  for (const robot of ctx.robots) {
    if (robot.atIndex >= 0) grid[robot.atIndex] = 0
  }
}

/** Whether a robot on the floor stands where some board beam could reach (beams.reach). */
function anyRobotInReach(ctx: Resolution, reach: Uint8Array): boolean {
  for (const robot of ctx.robots) {
    if (robot.atIndex >= 0 && robot.mode !== 'destroyed' && reach[robot.atIndex] !== 0) return true
  }
  return false
}

export function fireBoardLasers(ctx: Resolution): void {
  if (ctx.board.lasers.length === 0) return
  setPhase(ctx, 'board-laser')
  const beams = boardBeams(ctx.board)
  // Most volleys strike nobody, and a volley that strikes nobody records nothing: when no robot
  // stands on a square any beam crosses (drawbridges aside), no beam is traced at all.
  if (!anyRobotInReach(ctx, beams.reach)) return
  const hits: Hit[] = []
  const occupied = markSeats(ctx)
  for (let b = 0; b < beams.paths.length; b++) {
    const laser = beams.lasers[b]!
    // The beam starts on the turret's own square and goes on along the ray beyond it (BoardBeams).
    const path = beams.paths[b]!
    const open = openLength(ctx.board, ctx.boardState, path)
    // Most beams strike nobody and are not recorded, so the beam is traced before anything is built.
    let count = 0
    let strikes = false
    for (let i = 0; i < open; i++) {
      count++
      if (occupied[path.indices[i]!]) {
        strikes = true
        // R23: a blue beam stops at the first square holding a robot.
        if (laser.colour === 'blue') break
      }
    }
    if (!strikes) continue
    const struck: string[] = []
    for (let i = 0; i < count; i++) {
      const index = path.indices[i]!
      if (!occupied[index]) continue
      // Every robot on the square is hit, real or virtual (R23, R24).
      for (const robot of ctx.robots) {
        if (robot.atIndex === index && robot.mode !== 'destroyed') {
          hits.push({ robot, amount: laser.strength })
          struck.push(robot.player)
        }
      }
    }
    emit(ctx, { time: now(ctx), kind: 'board-laser', from: laser.at, dir: laser.dir, colour: laser.colour, strength: laser.strength, squares: firstSquares(path, count), hits: struck })
  }
  clearSeats(ctx, occupied)
  // All beams strike at once (R23): the damage goes robot by robot in seat order, as everything
  // the rules do at once does (A25), each robot's in the beams' order. Which robot is destroyed
  // first decides the order its options go back to the deck (R32); it must not depend on where the
  // turrets stand (Array#sort is stable, and most volleys strike one robot or none).
  inSeatOrder(hits)
  dealVolley(ctx, hits, 'board-laser')
}

/**
 * R26: every real robot that is not rebooting fires forward (and backward with Rear Laser, R32).
 * The beam starts in the square ahead, passes through virtual robots and stops at the first real
 * robot (1 damage, 2 with Double Laser), a wall, a raised drawbridge or the board's edge.
 */
export function fireRobotLasers(ctx: Resolution): void {
  setPhase(ctx, 'combat')
  const hits: Hit[] = []
  for (const shooter of ctx.robots) {
    if (!isOnFloor(shooter) || shooter.mode !== 'real' || shooter.rebooting) continue
    const hasOptions = shooter.options.length > 0
    const damage = hasOptions && shooter.options.includes('Double Laser') ? 2 : 1
    const rear = hasOptions && shooter.options.includes('Rear Laser')
    for (let beam = 0; beam < (rear ? 2 : 1); beam++) {
      const dir = beam === 0 ? shooter.facing : opposite(shooter.facing)
      const ray = rayFrom(ctx.board, dir, shooter.atIndex)
      const open = openLength(ctx.board, ctx.boardState, ray)
      // The beam crosses the open squares up to and including the first real robot's.
      let target: TurnRobot | null = null
      let count = open
      for (let i = 0; i < open; i++) {
        const robot = ctx.realAt[ray.indices[i]!] ?? null
        if (robot !== null) {
          target = robot
          count = i + 1
          break
        }
      }
      const squares = firstSquares(ray, count)
      emit(ctx, { time: now(ctx), kind: 'robot-laser', player: shooter.player, dir, squares, hit: target?.player ?? null, damage: target ? damage : 0 })
      if (target) hits.push({ robot: target, amount: damage, by: shooter.player })
    }
  }
  // All robot lasers strike at once (R26): as a board laser volley, the damage goes robot by robot
  // in the seat order of the robots hit (A25), each robot's shots in the shooters' seat order. It
  // decides the order the options of robots destroyed or giving options up go back to the deck (R32).
  inSeatOrder(hits)
  dealVolley(ctx, hits, 'robot-laser')
}
