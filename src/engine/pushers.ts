// Pushers (R20): in the stages printed on them, all at once, each moves the robot on its square
// one square away from its wall, pushing a chain ahead as in R13.
//
// First the pushes that a barrier stops at their own squares are tried, and fail (A3 walls first,
// A22): a robot the fence so destroys pushes no chain and meets no push. Then R20's meetings are
// read (two pushers into one square, two robots pushed toward each other's squares). The rest of
// "all at once" is settled in rounds, so that the outcome never depends on the order of the
// pushers in the board file, except for a cycle of pushes that wait on one another (R20). In each
// round every push still pending works out its plan on the board as it stands (pusher-plans.ts):
// the chain it pushes, and how that chain ends - at a free square, at a barrier, or at the square
// of a robot that its own pusher is about to move, which the chain enters once it is empty. Then:
//   1. pushes that are blocked fail (R13: nothing moves; the fence hurts the last robot, R3);
//   2. pushes that would move one robot twice or move two robots into one square fail (R20, A3);
//      a robot's own two pushes (A22) fail only in a round with no other conflict;
//   3. otherwise the pushes that end at a free square are played; the ones that waited on them go
//      in a later round, into the squares they left;
//   4. if every pending push waits on another, they wait in a cycle: the first of the cycle in
//      board-file order is played now as a plain R13 push (R20).
// A push that fails leaves its robot standing, so later rounds may push it as in R13 (R20).
// Virtual robots ignore all this (R24): each moves unless a wall or the fence stops it, but, like
// a real robot, not when two pushers could push it at once (A22). Robots are taken in seat order,
// so nothing else the phase does depends on the order of the board file either.
// The rounds are only the way to play pushes that wait on one another: all the robots move at
// once, so the squares they enter act on them (pits, drawbridges, switches, teleporters: R14-R17)
// once every push has been played, robot by robot in seat order, on the board as the robots before
// it left it, as for the robots a belt moves (A24, A3). A teleporter or a switch one robot enters
// so changes no push of the phase, and a robot a teleporter sends away leaves its square to the
// robots that arrive after it.
import { inSeatOrder, isOnFloor, setPhase, type Resolution } from './context.js'
import { squareIndex } from './board.js'
import { beginAtOnce, endAtOnce } from './damage.js'
import { applyArrival, barrierAt, stepAhead } from './floor.js'
import { opposite } from './geometry.js'
import { moveChain, obstruct, tryStep } from './push.js'
import { findConflicts, planPush, waitCycleStart, type Plan, type Push } from './pusher-plans.js'

export function runPushers(ctx: Resolution, stage: number): void {
  const pushers = ctx.board.pushersByStage[stage]!
  if (pushers.length === 0 || !anyoneOnAPusher(ctx, stage)) return
  setPhase(ctx, 'pusher')
  // Robot by robot in seat order, each robot's pushes in board-file order: the pushes are tried,
  // and what they do is told, in an order that does not depend on the board file; only a cycle of
  // waiting pushes goes by the pushers' own order there (`order`, R20).
  const pushes: Push[] = []
  for (const robot of ctx.robots) {
    if (!isOnFloor(robot)) continue
    pushers.forEach((pusher, order) => {
      if (squareIndex(ctx.board, pusher.at) === robot.atIndex) pushes.push({ robot, dir: opposite(pusher.side), order, state: 'pending' })
    })
  }
  if (pushes.length === 0) return
  // All at once (R20): a robot two pushes hurt, or hurt and then destroyed where it arrives, fuses
  // its registers when the phase ends, if it is still on the board (damage.ts).
  beginAtOnce(ctx)
  ctx.pusherArrivals = []
  for (const push of pushes) if (push.robot.mode !== 'real' && push.state === 'pending') pushVirtual(ctx, pushes, push.robot)
  const real = pushes.filter((push) => push.state === 'pending')
  failStoppedAtOwnSquares(ctx, real)
  const left = real.filter((push) => push.state === 'pending' && isOnFloor(push.robot))
  cancelMeetingPushes(ctx, left)
  settleRealPushes(ctx, left)
  settleArrivals(ctx)
  endAtOnce(ctx)
}

/**
 * Walls first (A3, A22): the pushes a wall, a bridge side or the fence stops at their own squares
 * are tried before anything else and fail (the fence hurts the robot, R3), so every other push is
 * judged as if those pushers were plain walls: a chain does not wait on such a push, and a robot
 * the fence destroys so leaves at once (R11), pushing into no square and meeting nobody. Those a
 * wall or a bridge side stops are told before those the fence stops, so that the log of a robot
 * the fence destroys tells every push that stopped it, whatever the order of the board file (A25).
 * Nothing in the phase changes a barrier at a robot's own square (the squares act after the last
 * push), so the rounds meet no such push again.
 */
function failStoppedAtOwnSquares(ctx: Resolution, pushes: readonly Push[]): void {
  const stopped: Plan[] = []
  for (const push of pushes) {
    const barrier = barrierAt(ctx.board, ctx.boardState, stepAhead(ctx.board, push.robot.atIndex, push.dir), push.dir)
    if (barrier) stopped.push({ push, chain: [], end: 'blocked', barrier, waitsOn: null })
  }
  for (const plan of stopped) if (plan.barrier !== 'fence') fail(ctx, plan)
  for (const plan of stopped) if (plan.barrier === 'fence') fail(ctx, plan)
}

/** The squares the phase's pushes moved robots onto act on them, robot by robot in seat order (A3, A24). */
function settleArrivals(ctx: Resolution): void {
  const arrivals = ctx.pusherArrivals!
  ctx.pusherArrivals = null
  inSeatOrder(arrivals)
  for (const { robot, taken } of arrivals) if (isOnFloor(robot)) applyArrival(ctx, robot, taken)
}

/**
 * R24: a virtual robot moves unless a wall or the fence stops it, and takes no part in conflicts
 * with other robots. Like a real one (settleRealPushes) it is moved by at most one pusher push:
 * its pushes that a wall, a bridge side or the fence stops are tried first and fail (the fence
 * hurts it, R3), as they are not into any square (A3, walls first); if more than one push could
 * still move it, none does (R20, A22). All are judged from the square it stands on.
 */
function pushVirtual(ctx: Resolution, pushes: readonly Push[], robot: Push['robot']): void {
  const own = pushes.filter((push) => push.robot === robot)
  const from = robot.atIndex
  const barriers = own.map((push) => barrierAt(ctx.board, ctx.boardState, stepAhead(ctx.board, from, push.dir), push.dir))
  for (const push of own) push.state = 'done'
  // The harmless stops before the fence's, so that what the log tells of a robot the fence
  // destroys does not depend on the order of the pushers in the board file (see failBlocked).
  own.forEach((push, i) => { if (barriers[i] !== null && barriers[i] !== 'fence' && isOnFloor(robot)) tryStep(ctx, robot, push.dir, 'pusher') })
  own.forEach((push, i) => { if (barriers[i] === 'fence' && isOnFloor(robot)) tryStep(ctx, robot, push.dir, 'pusher') })
  const free = own.filter((_, i) => barriers[i] === null)
  if (free.length === 1 && isOnFloor(robot)) tryStep(ctx, robot, free[0]!.dir, 'pusher')
}

/**
 * Whether any robot on the floor stands on a pusher that acts in `stage`: most stages none does,
 * and one look per robot tells so before any list is made. Nothing is recorded in a pusher phase
 * in which no pusher pushes, so skipping it changes no event and no event's time.
 */
function anyoneOnAPusher(ctx: Resolution, stage: number): boolean {
  const bit = 1 << stage
  for (const robot of ctx.robots) {
    if (isOnFloor(robot) && (ctx.tables.pusherStages[robot.atIndex]! & bit) !== 0) return true
  }
  return false
}

/**
 * R20, as written: two pushers into one square, neither moves; two robots pushed toward each
 * other's squares both stay. Read before any push moves a robot, so neither is hurt by a fence
 * behind, but after the pushes stopped at their own squares: a push into a wall meets the wall,
 * not the other push, and a robot the fence has destroyed there pushes no more (A22).
 */
function cancelMeetingPushes(ctx: Resolution, pushes: readonly Push[]): void {
  const targets = pushes.map((push) => {
    const ahead = stepAhead(ctx.board, push.robot.atIndex, push.dir)
    return barrierAt(ctx.board, ctx.boardState, ahead, push.dir) ? null : ahead
  })
  const squareOf = (push: Push) => push.robot.atIndex
  pushes.forEach((push, i) => {
    pushes.forEach((other, j) => {
      if (i === j || targets[i] === null) return
      const meet = targets[i] === targets[j]
      const swap = targets[i] === squareOf(other) && targets[j] === squareOf(push)
      if (meet || swap) push.state = 'failed'
    })
  })
}

function settleRealPushes(ctx: Resolution, pushes: readonly Push[]): void {
  // Robots a pusher push has moved in this phase: none of them moves again (R20).
  const moved = new Set<Push['robot']>()
  for (;;) {
    for (const push of pushes) {
      // A robot destroyed or shoved off its pusher meanwhile is no longer pushed by it.
      if (push.state === 'pending' && (!isOnFloor(push.robot) || moved.has(push.robot))) push.state = 'failed'
    }
    const pending = pushes.filter((push) => push.state === 'pending')
    if (pending.length === 0) return
    const plans = pending.map((push) => planPush(ctx, push, pushes, moved, false))
    const blocked = plans.filter((plan) => plan.end === 'blocked')
    if (blocked.length > 0) {
      failBlocked(ctx, blocked)
      continue
    }
    const conflicted = findConflicts(ctx, plans)
    if (conflicted.length > 0) {
      for (const plan of conflicted) plan.push.state = 'failed'
      continue
    }
    const free = plans.filter((plan) => plan.end === 'free')
    if (free.length > 0) {
      // No two of them move one robot or enter one square (findConflicts), and nobody's new
      // square acts before the phase ends (settleArrivals): played one after another, as planned.
      for (const plan of free) play(ctx, plan, moved)
      continue
    }
    // Every pending push waits on another: a cycle. Its first push in board order goes now (R20).
    const first = waitCycleStart(plans)
    const forced = planPush(ctx, first, pushes, moved, true)
    if (forced.end === 'blocked') fail(ctx, forced)
    else play(ctx, forced, moved)
  }
}

function play(ctx: Resolution, plan: Plan, moved: Set<Push['robot']>): void {
  plan.push.state = 'done'
  for (const robot of plan.chain) moved.add(robot)
  moved.add(plan.push.robot)
  moveChain(ctx, plan.push.robot, plan.chain, plan.push.dir, 'pusher')
}

/**
 * R13, R20: blocked pushes move nobody, and the fence hurts the last robot of each chain it stops
 * (R3). They cannot destroy one another's robots (a chain ends before a robot whose own push is
 * pending), but the hurt may make robots give up options, which go to the deck in the order they
 * are given up (R32). So the pushes fail robot by robot in the seat order of the robot each one
 * hurts, or pushes (A25), not in the order of the pushers in the board file: one robot pushed by
 * two pushers into two chains that end at the fence hurts both chains' last robots in seat order.
 */
function failBlocked(ctx: Resolution, blocked: readonly Plan[]): void {
  const hurt = (plan: Plan) => (plan.barrier === 'fence' ? plan.chain.at(-1) ?? plan.push.robot : plan.push.robot).seat
  // Array#sort is stable: a robot's own pushes keep their order.
  for (const plan of [...blocked].sort((a, b) => hurt(a) - hurt(b))) fail(ctx, plan)
}

/** R13, R20: a blocked push moves nobody; the fence hurts the last robot of the chain (R3). */
function fail(ctx: Resolution, plan: Plan): void {
  plan.push.state = 'failed'
  // The fence may already have destroyed this robot, through its other push.
  if (!isOnFloor(plan.push.robot)) return
  obstruct(ctx, plan.push.robot, plan.push.robot.at!, plan.chain.at(-1) ?? null, plan.barrier ?? 'robot')
}
