// What one pusher push would do on the board as it stands (R13, R20), and which plans cannot all
// be played at once. pushers.ts settles the pusher phase from these plans in rounds.
import { realRobotAt, type Resolution, type TurnRobot } from './context.js'
import { barrierAt, stepAhead, type Barrier } from './floor.js'
import type { Direction } from './types.js'

/** One robot on an acting pusher's square, to be moved one square towards `dir`. */
export interface Push {
  robot: TurnRobot
  dir: Direction
  /** Its pusher's place in the board file: cycles are played in this order (R20). */
  order: number
  state: 'pending' | 'done' | 'failed'
}

export interface Plan {
  push: Push
  /** The real robots it pushes ahead of its own (R13), nearest first. */
  chain: TurnRobot[]
  /**
   * `free`: the square ahead of the chain is empty, so the push can be played. `waits`: that
   * square holds a robot its own pusher is about to move (`waitsOn`), and the chain enters it once
   * it is empty (R20). `blocked`: `barrier` stops the chain, or a robot already moved by a pusher
   * push this phase stands in its way ('robot'), which no push may move again (R20): one the push
   * that broke a cycle moved (A3).
   */
  end: 'free' | 'waits' | 'blocked'
  barrier: Barrier | 'robot'
  waitsOn: Push | null
}

/**
 * Walks from the push's robot towards its direction, gathering the chain it pushes. `forced` plays
 * it as a plain R13 push, pushing robots that their own pushers would move too: for the push that
 * breaks a cycle (R20).
 */
export function planPush(ctx: Resolution, push: Push, pushes: readonly Push[], moved: ReadonlySet<TurnRobot>, forced: boolean): Plan {
  const chain: TurnRobot[] = []
  const plan = (end: Plan['end'], barrier: Barrier | 'robot' = null, waitsOn: Push | null = null): Plan =>
    ({ push, chain, end, barrier, waitsOn })
  let at = push.robot.atIndex
  for (;;) {
    const ahead = stepAhead(ctx.board, at, push.dir)
    const barrier = barrierAt(ctx.board, ctx.boardState, ahead, push.dir)
    if (barrier) return plan('blocked', barrier)
    const next = realRobotAt(ctx, ahead, push.robot)
    if (!next) return plan('free')
    if (moved.has(next)) return plan('blocked', 'robot')
    if (!forced) {
      const leaving = pushes.find((other) => other.state === 'pending' && other.robot === next)
      if (leaving) return plan('waits', null, leaving)
    }
    chain.push(next)
    at = next.atIndex
  }
}

/**
 * R20 "at most one pusher push" and "two pushers into one square", for whole chains (A3): plans
 * that would move the same robot, or move robots into the same square, all fail. A plan that waits
 * enters the square of the robot it waits on, which that robot's own plan leaves: no conflict.
 * Two plans of one robot (pushers on two walls of its square, A22) are judged only when no other
 * conflict is left: a push that meets another robot's chain cannot move its robot, so it does not
 * count, and the robot's other push may still move it.
 */
export function findConflicts(ctx: Resolution, plans: readonly Plan[]): Plan[] {
  const mover = new Map<TurnRobot, Plan>()
  const enterer = new Map<number, Plan>()
  const conflicted = new Set<Plan>()
  const sameRobot = new Set<Plan>()
  const claim = <K>(claims: Map<K, Plan>, key: K, plan: Plan) => {
    const other = claims.get(key)
    if (!other || other === plan) {
      claims.set(key, plan)
      return
    }
    const found = other.push.robot === plan.push.robot ? sameRobot : conflicted
    found.add(other)
    found.add(plan)
  }
  for (const plan of plans) {
    for (const robot of [plan.push.robot, ...plan.chain]) {
      claim(mover, robot, plan)
      claim(enterer, stepAhead(ctx.board, robot.atIndex, plan.push.dir), plan)
    }
  }
  const failing = conflicted.size > 0 ? conflicted : sameRobot
  return plans.filter((plan) => failing.has(plan))
}

/** When every pending push waits on another: the first push in board order that is on a cycle. */
export function waitCycleStart(plans: readonly Plan[]): Push {
  const planOf = new Map(plans.map((plan) => [plan.push, plan]))
  const inOrder = [...plans].sort((a, b) => a.push.order - b.push.order)
  for (const start of inOrder) {
    let at: Push | null = start.push
    for (let i = 0; i < plans.length && at; i++) {
      at = planOf.get(at)?.waitsOn ?? null
      if (at === start.push) return start.push
    }
  }
  throw new Error('waitCycleStart: pending pushes wait on one another but form no cycle')
}
