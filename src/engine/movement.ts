// Robot movement, step 1 of a stage (R10, R12): every robot with a card in the stage's register
// plays it, highest priority first, one card completely before the next.
import { emit, now, isOnFloor, setPhase, setStep, type Resolution } from './context.js'
import { opposite, turnLeft, turnRight } from './geometry.js'
import { tryStep } from './push.js'
import type { Card, CardKind, Direction, RobotState } from './types.js'

/** Register numbers as the keys of `RobotState.fused`, made once. */
const REGISTER_KEYS = ['0', '1', '2', '3', '4', '5'] as const

type CardAction =
  | { steps: number; towards: (facing: Direction) => Direction }
  | { turn: (facing: Direction) => Direction }
  | { idle: true }

const forward = (f: Direction) => f
const CARD_ACTIONS: Record<CardKind, CardAction> = {
  FWD1: { steps: 1, towards: forward }, FWD2: { steps: 2, towards: forward }, FWD3: { steps: 3, towards: forward },
  RVS1: { steps: 1, towards: opposite }, RVS2: { steps: 2, towards: opposite }, RVS3: { steps: 3, towards: opposite },
  SLF1: { steps: 1, towards: turnLeft }, SRT1: { steps: 1, towards: turnRight },
  LF90: { turn: turnLeft }, RT90: { turn: turnRight }, UTRN: { turn: opposite },
  IDLE: { idle: true },
}

export function runRobotMovement(ctx: Resolution, stage: number): void {
  const key = REGISTER_KEYS[stage]!
  const seats: number[] = []
  // Whether a register was fused is read before any card plays: damage during the stage fuses
  // registers for the next turn, not this one (R27).
  const fusedAtStart: boolean[] = []
  for (let seat = 0; seat < ctx.robots.length; seat++) {
    const robot = ctx.robots[seat]!
    if (ctx.registers[seat]![stage - 1] && isOnFloor(robot) && !robot.rebooting) {
      seats.push(seat)
      fusedAtStart[seat] = robot.fused[key] !== undefined
    }
  }
  const register = stage - 1
  seats.sort((a, b) => ctx.registers[b]![register]!.priority - ctx.registers[a]![register]!.priority)
  for (const seat of seats) {
    const robot = ctx.robots[seat]!
    // R11: a robot destroyed earlier in this stage plays no further card.
    if (!isOnFloor(robot)) continue
    const card = ctx.registers[seat]![register]!
    setPhase(ctx, 'movement', card.priority, 0)
    emit(ctx, { time: now(ctx), kind: 'card-played', player: robot.player, card, register: stage, fused: fusedAtStart[seat]! })
    playCard(ctx, robot, card)
  }
}

function playCard(ctx: Resolution, robot: RobotState, card: Card): void {
  const action = CARD_ACTIONS[card.kind]
  if ('turn' in action) {
    robot.facing = action.turn(robot.facing)
    emit(ctx, { time: now(ctx), kind: 'turned', player: robot.player, facing: robot.facing, cause: 'card' })
    return
  }
  if ('idle' in action) return
  // R12: each step on its own; R17: after a teleport the rest goes on in the same direction.
  const dir = action.towards(robot.facing)
  for (let step = 1; step <= action.steps; step++) {
    setStep(ctx, step)
    if (tryStep(ctx, robot, dir, 'card') !== 'moved') return
  }
}
