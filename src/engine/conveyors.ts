// Conveyors, the first of mechanisms part 2 (R18, R19): an express step for blue belts, then a
// common step for every belt, each step simultaneous for all the robots it moves.
import { emit, now, isOnFloor, placeRobot, setPhase, type Resolution, type TurnRobot } from './context.js'
import { dealDamage } from './damage.js'
import { applyArrival, barrierAt, stepAhead } from './floor.js'
import { quarterTurnBetween, turnLeft, turnRight } from './geometry.js'
import type { ConveyorElement } from './types.js'

interface Ride {
  robot: TurnRobot
  belt: ConveyorElement
  /** The board index of the square the belt takes it to. */
  to: number
  moves: boolean
}

export function runConveyors(ctx: Resolution): void {
  setPhase(ctx, 'conveyor', null, 1)
  const fenceTouched = conveyorStep(ctx, true, null)
  setPhase(ctx, 'conveyor', null, 2)
  conveyorStep(ctx, false, fenceTouched)
}

/** The belt on the square at board index `index`, or null: the type from floorTypes (see there). */
function beltAt(ctx: Resolution, index: number): ConveyorElement | null {
  const type = ctx.board.floorTypes[index] ?? null
  return type !== null && type === 'conveyor' ? ctx.board.floor[index] as ConveyorElement : null
}

/**
 * One conveyor step. `fenceTouched` lists the robots the fence has hurt in this stage's conveyor
 * phase, which it hurts at most once (R19); the step returns the list with those it hurt added.
 * Most stages' belts carry nobody into the fence, so the list is made (null until then) when one does.
 */
function conveyorStep(ctx: Resolution, expressOnly: boolean, fenceTouched: TurnRobot[] | null): TurnRobot[] | null {
  // Made when the first robot rides: in many steps nobody stands on a belt that moves.
  let rides: Ride[] | null = null
  for (const robot of ctx.robots) {
    if (!isOnFloor(robot)) continue
    const belt = beltAt(ctx, robot.atIndex)
    if (!belt || (expressOnly && belt.colour !== 'blue')) continue
    const ahead = stepAhead(ctx.board, robot.atIndex, belt.dir)
    const barrier = barrierAt(ctx.board, ctx.boardState, ahead, belt.dir)
    if (barrier === 'fence' && !(fenceTouched ??= []).includes(robot)) {
      // R19: into the fence, no move and 2 damage, at most once per robot in a stage's conveyor phase.
      fenceTouched.push(robot)
      dealDamage(ctx, robot, 2, 'fence')
    }
    if (barrier) {
      if (isOnFloor(robot)) emit(ctx, { time: now(ctx), kind: 'obstructed', player: robot.player, at: robot.at, reason: barrier })
      continue
    }
    ;(rides ??= []).push({ robot, belt, to: ahead, moves: true })
  }
  if (rides === null) return fenceTouched
  settleConflicts(ctx, rides)
  // All robots of the step move at once; then each meets what is on its new square.
  for (const ride of rides) {
    if (!ride.moves) continue
    const arrival = beltAt(ctx, ride.to)
    emit(ctx, { time: now(ctx), kind: 'moved', player: ride.robot.player, from: ride.robot.at!, to: ctx.board.squares[ride.to]!, cause: 'conveyor' })
    placeRobot(ctx, ride.robot, ride.to)
    if (arrival !== null && !ride.robot.options.includes('Gyroscope')) {
      const turn = quarterTurnBetween(ride.belt.dir, arrival.dir)
      if (turn !== 0) {
        ride.robot.facing = turn === 1 ? turnRight(ride.robot.facing) : turnLeft(ride.robot.facing)
        emit(ctx, { time: now(ctx), kind: 'turned', player: ride.robot.player, facing: ride.robot.facing, cause: 'conveyor' })
      }
    }
  }
  for (const ride of rides) {
    if (ride.moves && isOnFloor(ride.robot)) applyArrival(ctx, ride.robot)
  }
  return fenceTouched
}

/**
 * R19, among real robots (virtual robots ignore other robots, R24): several robots into one
 * square, a robot into a square whose robot stays, and two robots swapping squares all stay.
 * Staying can make others stay, so this runs until nothing changes.
 */
function settleConflicts(ctx: Resolution, rides: Ride[]): void {
  // Written as plain loops over the rides: this runs twice in every stage.
  for (const ride of rides) {
    if (ride.robot.mode !== 'real') continue
    let rivals = 0
    for (const other of rides) if (other.robot.mode === 'real' && other.to === ride.to) rivals++
    if (rivals < 2) continue
    const target = beltAt(ctx, ride.to)
    const winsTheSquare = target !== null && target.dir === ride.belt.dir
    if (!winsTheSquare) ride.moves = false
  }
  let changed = true
  while (changed) {
    changed = false
    for (const ride of rides) {
      if (!ride.moves || ride.robot.mode !== 'real') continue
      const occupant = ctx.realAt[ride.to] ?? null
      if (occupant === null || occupant === ride.robot) continue
      const occupantRide = rideOf(rides, occupant)
      const swaps = occupantRide !== null && occupantRide.to === ride.robot.atIndex
      if (!occupantRide || !occupantRide.moves || swaps) {
        ride.moves = false
        changed = true
      }
    }
  }
}

/** A robot's ride in this step, or null if it rides no belt. */
function rideOf(rides: readonly Ride[], robot: TurnRobot): Ride | null {
  for (const ride of rides) if (ride.robot === robot) return ride
  return null
}
