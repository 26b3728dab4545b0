// One step of a robot and the pushing it causes (R3, R12, R13, R24).
import { emit, now, realRobotAt, type Resolution, type TurnRobot } from './context.js'
import { dealDamage } from './damage.js'
import { barrierAt, enterSquare, indexAhead, stepAhead, type Barrier } from './floor.js'
import type { Direction, Square } from './types.js'

export type StepOutcome = 'moved' | 'obstructed' | 'destroyed'

/**
 * Tries one step of `mover` towards `dir`, under its own card. A real mover pushes the chain of
 * real robots ahead of it (R13): if the last of the chain is stopped by a wall nothing moves; if by
 * the fence, that robot takes 2 damage (R3) and nothing moves; either way the mover's move ends
 * with "obstruction encountered". Virtual robots neither push nor are pushed (R24). Pushers, which
 * act all at once, work out their chains in pushers.ts and share `obstruct` and `moveChain`.
 */
export function tryStep(ctx: Resolution, mover: TurnRobot, dir: Direction, cause: 'card' | 'pusher'): StepOutcome {
  const from = mover.at!
  const ahead = stepAhead(ctx.board, mover.atIndex, dir)
  const barrier = barrierAt(ctx.board, ctx.boardState, ahead, dir)
  if (barrier) {
    obstruct(ctx, mover, from, null, barrier)
    return mover.mode === 'destroyed' ? 'destroyed' : 'obstructed'
  }
  let chain: readonly TurnRobot[] = NOBODY
  if (mover.mode === 'real') {
    const inTheWay = realRobotAt(ctx, ahead, mover)
    if (inTheWay) {
      const pushed = chainAhead(ctx, mover, inTheWay, dir)
      if (!pushed) return 'obstructed'
      chain = pushed
    }
  }
  moveChain(ctx, mover, chain, dir, cause)
  return mover.mode === 'destroyed' ? 'destroyed' : 'moved'
}

/**
 * A step that is stopped: by `barrier` in front of the mover itself (`last` null), or in front of
 * `last`, the far end of the chain it pushes (R13). The fence hurts whoever meets it (R3); then the
 * mover's move ends with "obstruction encountered", unless the fence destroyed the mover: nothing
 * more happens to a destroyed robot (R11), as on a belt (conveyors.ts). `from` is the mover's square.
 */
export function obstruct(ctx: Resolution, mover: TurnRobot, from: Square, last: TurnRobot | null, barrier: Barrier | 'robot'): void {
  if (barrier === 'fence') {
    if (last) dealDamage(ctx, last, 2, 'fence', mover.player)
    else dealDamage(ctx, mover, 2, 'fence')
  }
  if (mover.mode === 'destroyed') return
  emit(ctx, { time: now(ctx), kind: 'obstructed', player: mover.player, at: from, reason: last ? 'robot' : barrier ?? 'robot' })
}

/**
 * Moves a free chain one step towards `dir` (R13): the far end first, so each pushed robot steps
 * into a free square, then the mover. `chain` is nearest first. Each pushed robot leaves its square
 * to the robot behind it, which steps in as it goes: a teleporter there is not free for it (A21).
 * The push and the step are one movement, so the square the mover steps out of is free (A21).
 */
export function moveChain(ctx: Resolution, mover: TurnRobot, chain: readonly TurnRobot[], dir: Direction, cause: 'card' | 'pusher'): void {
  for (let i = chain.length - 1; i >= 0; i--) {
    const pushed = chain[i]!
    const from = pushed.atIndex
    if (from >= 0) enterSquare(ctx, pushed, indexAhead(ctx.board, from, dir), 'push', mover.player, from, mover)
  }
  enterSquare(ctx, mover, indexAhead(ctx.board, mover.atIndex, dir), cause)
}

/** The chain of a step that pushes nobody: most steps, so no list is made for them. */
const NOBODY: readonly TurnRobot[] = []

/**
 * R13: the chain of real robots that starts with `first`, just ahead of a real `mover`, to be
 * pushed one step towards `dir`; or null, having moved nobody, when the chain is stopped.
 */
function chainAhead(ctx: Resolution, mover: TurnRobot, first: TurnRobot, dir: Direction): TurnRobot[] | null {
  const from = mover.at!
  const chain: TurnRobot[] = []
  let next: TurnRobot | null = first
  while (next) {
    chain.push(next)
    const ahead = stepAhead(ctx.board, next.atIndex, dir)
    const blocked = barrierAt(ctx.board, ctx.boardState, ahead, dir)
    if (blocked) {
      obstruct(ctx, mover, from, next, blocked)
      return null
    }
    next = realRobotAt(ctx, ahead, mover)
  }
  return chain
}
