// Robot movement, step 1 of a stage (R10, R12): every robot with a card in the stage's register
// plays it, highest priority first, one card completely before the next.
import { emit, now, isOnFloor, setPhase, setStep, type Resolution } from './context.js'
import { opposite, turnLeft, turnRight } from './geometry.js'
import { tryStep } from './push.js'
import type { Card, CardKind, Direction, RobotState } from './types.js'

/** Register numbers as the keys of `RobotState.fused`, made once. */
const REGISTER_KEYS = ['0', '1', '2', '3', '4', '5'] as const

/** What a card does: `steps` single steps towards `towards(facing)`, or a turn to `towards(facing)` (R2, R12). */
interface CardAction {
  action: 'move' | 'turn' | 'idle'
  steps: number
  towards: (facing: Direction) => Direction
}

const forward = (f: Direction) => f
const move = (steps: number, towards: (facing: Direction) => Direction): CardAction => ({ action: 'move', steps, towards })
const turn = (towards: (facing: Direction) => Direction): CardAction => ({ action: 'turn', steps: 0, towards })
const CARD_ACTIONS: Record<CardKind, CardAction> = {
  FWD1: move(1, forward), FWD2: move(2, forward), FWD3: move(3, forward),
  RVS1: move(1, opposite), RVS2: move(2, opposite), RVS3: move(3, opposite),
  SLF1: move(1, turnLeft), SRT1: move(1, turnRight),
  LF90: turn(turnLeft), RT90: turn(turnRight), UTRN: turn(opposite),
  IDLE: { action: 'idle', steps: 0, towards: forward },
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
  if (action.action === 'turn') {
    robot.facing = action.towards(robot.facing)
    emit(ctx, { time: now(ctx), kind: 'turned', player: robot.player, facing: robot.facing, cause: 'card' })
    return
  }
  if (action.action === 'idle') return
  // R12: each step on its own; R17: after a teleport the rest goes on in the same direction.
  const dir = action.towards(robot.facing)
  for (let step = 1; step <= action.steps; step++) {
    setStep(ctx, step)
    if (tryStep(ctx, robot, dir, 'card') !== 'moved') return
  }
}
