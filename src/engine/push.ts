// One step of a robot and the pushing it causes (R3, R12, R13, R24).
import { emit, now, realRobotAt, type Resolution } from './context.js'
import { dealDamage } from './damage.js'
import { barrierAt, enterSquare, squareAhead, stepAhead } from './floor.js'
import type { Direction, RobotState } from './types.js'

export type StepOutcome = 'moved' | 'obstructed' | 'destroyed'

/**
 * Tries one step of `mover` towards `dir`, under its own card or moved by a pusher. A real mover
 * pushes the chain of real robots ahead of it (R13): if the last of the chain is stopped by a wall
 * nothing moves; if by the fence, that robot takes 2 damage (R3) and nothing moves; either way the
 * mover's move ends with "obstruction encountered". Virtual robots neither push nor are pushed (R24).
 */
export function tryStep(ctx: Resolution, mover: RobotState, dir: Direction, cause: 'card' | 'pusher'): StepOutcome {
  const from = mover.at!
  const ahead = stepAhead(ctx.board, from, dir)
  const barrier = barrierAt(ctx.board, ctx.boardState, ahead, dir)
  if (barrier) {
    if (barrier === 'fence') dealDamage(ctx, mover, 2, 'fence')
    emit(ctx, { time: now(ctx), kind: 'obstructed', player: mover.player, at: from, reason: barrier })
    return mover.mode === 'destroyed' ? 'destroyed' : 'obstructed'
  }
  const to = ctx.board.squares[ahead]!
  if (mover.mode === 'real') {
    const inTheWay = realRobotAt(ctx, to, mover)
    if (inTheWay && !pushChain(ctx, mover, inTheWay, dir)) return 'obstructed'
  }
  enterSquare(ctx, mover, to, cause === 'card' ? 'card' : 'pusher')
  return mover.mode === 'destroyed' ? 'destroyed' : 'moved'
}

/**
 * R13: pushes the chain of real robots that starts with `first`, just ahead of a real `mover`,
 * one step towards `dir`. Returns false, having moved nobody, when the chain is stopped. Split out
 * of tryStep so the chain's list is only made when there is someone to push: most steps push nobody.
 */
function pushChain(ctx: Resolution, mover: RobotState, first: RobotState, dir: Direction): boolean {
  const from = mover.at!
  const chain: RobotState[] = []
  let next: RobotState | null = first
  while (next) {
    chain.push(next)
    const ahead = stepAhead(ctx.board, next.at!, dir)
    const blocked = barrierAt(ctx.board, ctx.boardState, ahead, dir)
    if (blocked) {
      if (blocked === 'fence') dealDamage(ctx, next, 2, 'fence', mover.player)
      emit(ctx, { time: now(ctx), kind: 'obstructed', player: mover.player, at: from, reason: 'robot' })
      return false
    }
    next = realRobotAt(ctx, ctx.board.squares[ahead]!, mover)
  }
  // The far end of the chain moves first, so each pushed robot steps into a free square.
  for (let i = chain.length - 1; i >= 0; i--) {
    const pushed = chain[i]!
    enterSquare(ctx, pushed, squareAhead(ctx.board, pushed.at!, dir), 'push', mover.player)
  }
  return true
}
