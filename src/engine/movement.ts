// Robot movement, step 1 of a stage (R10, R12): every robot with a card in the stage's register
// plays it, highest priority first, one card completely before the next.
import { emit, now, isOnFloor, setPhase, setStep, type Resolution, type TurnRobot } from './context.js'
import { opposite, turnLeft, turnRight } from './geometry.js'
import { tryStep } from './push.js'
import type { Card, Direction } from './types.js'

export function runRobotMovement(ctx: Resolution, stage: number): void {
  const register = stage - 1
  // The seats with a card to play, seats[0] to seats[count - 1], highest priority first, put in
  // order as they are found (an insertion sort, stable like Array#sort): a stage has at most one
  // card per robot, and sorting with a comparator cost more than the few comparisons. The sort
  // compares the priorities it has read into `priorities` (kept in the same order as `seats`), not
  // the cards': each card is read once. The lists are the turn's scratch lists, made at their full
  // size once, not once per stage.
  const seats = (ctx.cardOrder ??= new Array<number>(ctx.robots.length))
  const priorities = (ctx.cardPriorities ??= new Array<number>(ctx.robots.length))
  let count = 0
  // Whether a register was fused is read before any card plays: damage during the stage fuses
  // registers for the next turn, not this one (R27).
  const fusedAtStart = (ctx.fusedAtStart ??= new Array<boolean>(ctx.robots.length))
  for (let seat = 0; seat < ctx.robots.length; seat++) {
    const robot = ctx.robots[seat]!
    const card = ctx.registers[seat]![register]
    if (card && isOnFloor(robot) && !robot.rebooting) {
      const priority = card.priority
      let at = count++
      while (at > 0 && priorities[at - 1]! < priority) {
        seats[at] = seats[at - 1]!
        priorities[at] = priorities[at - 1]!
        at--
      }
      seats[at] = seat
      priorities[at] = priority
      fusedAtStart[seat] = robot.fused[stage] !== undefined
    }
  }
  for (let i = 0; i < count; i++) {
    const seat = seats[i]!
    const robot = ctx.robots[seat]!
    // R11: a robot destroyed earlier in this stage plays no further card.
    if (!isOnFloor(robot)) continue
    const card = ctx.registers[seat]![register]!
    setPhase(ctx, 'movement', card.priority, 0)
    emit(ctx, { time: now(ctx), kind: 'card-played', player: robot.player, card, register: stage, fused: fusedAtStart[seat]! })
    playCard(ctx, robot, card)
  }
}

/**
 * What a card does (R2, R12): single steps towards a direction taken from the robot's facing, or
 * a turn. A switch on the kind, not a table of actions: looking a table up by twelve different
 * kinds is a slow, megamorphic access, and every card played makes one.
 */
function playCard(ctx: Resolution, robot: TurnRobot, card: Card): void {
  switch (card.kind) {
    case 'FWD1': return moveSteps(ctx, robot, robot.facing, 1)
    case 'FWD2': return moveSteps(ctx, robot, robot.facing, 2)
    case 'FWD3': return moveSteps(ctx, robot, robot.facing, 3)
    case 'RVS1': return moveSteps(ctx, robot, opposite(robot.facing), 1)
    case 'RVS2': return moveSteps(ctx, robot, opposite(robot.facing), 2)
    case 'RVS3': return moveSteps(ctx, robot, opposite(robot.facing), 3)
    case 'SLF1': return moveSteps(ctx, robot, turnLeft(robot.facing), 1)
    case 'SRT1': return moveSteps(ctx, robot, turnRight(robot.facing), 1)
    case 'LF90': return turnTo(ctx, robot, turnLeft(robot.facing))
    case 'RT90': return turnTo(ctx, robot, turnRight(robot.facing))
    case 'UTRN': return turnTo(ctx, robot, opposite(robot.facing))
    case 'IDLE': return
    default: throw new Error(`playCard: no such card kind ${String(card.kind)}`)
  }
}

function turnTo(ctx: Resolution, robot: TurnRobot, facing: Direction): void {
  robot.facing = facing
  emit(ctx, { time: now(ctx), kind: 'turned', player: robot.player, facing: robot.facing, cause: 'card' })
}

/** R12: each step on its own; R17: after a teleport the rest goes on in the same direction. */
function moveSteps(ctx: Resolution, robot: TurnRobot, dir: Direction, steps: number): void {
  for (let step = 1; step <= steps; step++) {
    setStep(ctx, step)
    if (tryStep(ctx, robot, dir, 'card') !== 'moved') return
  }
}
