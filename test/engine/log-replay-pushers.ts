// The pusher phase as the log tells it, against R20, R24, A3 and A22, from the board file and the
// replayed robots as the phase begins:
// - a robot moved by a pusher stood on a pusher acting in this stage and moved away from its wall,
//   and no other of its square's pushers could move it too (A22; a push that a wall, a bridge side
//   or the fence stops, or that meets another push or chain, does not count, A3); a robot pushed
//   along moved the way of the push that drove the chain;
// - a virtual robot on one acting pusher moves unless a wall, a bridge side or the fence stops it
//   (R24);
// - two real robots pushed into one square, or toward each other's squares, both stay (R20);
// - the real robots move as R13 and R20 call for, worked out from the phase's start, wherever A3's
//   order does not decide (plainOutcome): chains that a barrier stops fail first, the fence hurting
//   the last robot of each (A22: a robot's stopped pushes before its others); chains that meet fail
//   before any push waits; a chain moves unless its far end is stopped, and ends at a robot whose
//   own pusher moves it; a cycle of waiting pushes is broken by its first push in the board file.
//   Every real robot's HP and options after the fence are judged with its moves. Moves that meet
//   only after a push waited are left to the rules cases.
import { PHASES, type GameEvent } from '../../src/engine/events.js'
import { neighbour, opposite } from '../../src/engine/geometry.js'
import type { Direction, PusherElement } from '../../src/engine/types.js'
import { barrier, key, squareOf, stepDirection, type Watch, type World } from './log-replay-world.js'

interface Push {
  player: string
  from: string
  dir: Direction
  real: boolean
  twice: boolean
  /** Its pusher's place among the stage's pushers in the board file: a cycle is played in this order (R20). */
  order: number
}

/**
 * The board and robots as the phase begins: everything is judged on them, since pushes act at once.
 * `fenceGone`: the real robots that the fence destroys through pushes stopped at their own squares,
 * tried before anything else (A3, walls first; A22): their other pushes meet nothing.
 */
interface Before { world: World; at: Map<string, StartOf>; lowered: Set<string>; pushes: Push[]; fenceGone: Set<string> }

/** A robot as the phase begins: where it stands, whether it is real, its HP, how many options it holds and its sacrifice threshold (R28). */
interface StartOf { at: string | null; real: boolean; hp: number; options: number; sacrificeAt: number }

/** Whether a step from `at` towards `dir` is stopped by a wall, a raised bridge side or the fence, as the phase began. */
const stopped = (before: Before, at: string, dir: Direction) => barrier(before.world, at, dir, before.lowered) !== null

/** The real robot on `at` as the phase began, but for those the fence has destroyed since (`gone`). */
const realOn = (before: Before, at: string, gone: ReadonlySet<string> = new Set()) =>
  [...before.at].find(([player, r]) => r.at === at && r.real && !gone.has(player))?.[0] ?? null

/** The board, the robots and the pushes as the phase begins. */
function phaseStart(world: World, pushers: readonly PusherElement[]): Before {
  const pushes: Push[] = []
  const at = new Map<string, StartOf>()
  for (const [player, robot] of world.robots) {
    if (robot.at === null || robot.mode === 'destroyed') continue
    at.set(player, { at: robot.at, real: robot.mode === 'real', hp: robot.hp, options: robot.options.length, sacrificeAt: robot.sacrificeAt })
  }
  const start: Before = { world, at, lowered: new Set(world.lowered), pushes, fenceGone: new Set() }
  for (const [player, robot] of world.robots) {
    const from = robot.at
    if (from === null || robot.mode === 'destroyed') continue
    pushers.forEach((pusher, order) => {
      if (key(pusher.at) === from) pushes.push({ player, from, dir: opposite(pusher.side), real: robot.mode === 'real', twice: false, order })
    })
  }
  for (const [player, robot] of at) {
    if (!robot.real) continue
    const health = { hp: robot.hp, options: robot.options }
    for (const push of pushes) {
      if (push.player === player && barrier(world, push.from, push.dir, start.lowered) === 'fence') hurt(health, 2, robot.sacrificeAt)
    }
    if (health.hp === 0) start.fenceGone.add(player)
  }
  // A22, with A3's walls first and R20's meeting pushes: a push that a wall, a bridge side or the
  // fence stops, or that meets another real push (R20) or another robot's chain (A3), cannot move
  // its robot and does not count; nor here, to stay on the safe side, a real robot's push into
  // another real robot, or into a square any other chain might enter.
  const reach = new Map(pushes.map((p) => [p, p.real ? chainSquares(start, p) : []]))
  const meetsAChain = (push: Push) => pushes.some((o) => o.player !== push.player && reach.get(o)!.includes(target(push)))
  for (const push of pushes) {
    const could = pushes.filter((p) => p.player === push.player && !stopped(start, p.from, p.dir) &&
      (!p.real || (realOn(start, target(p)) === null && !meets(start, p) && !meetsAChain(p))))
    push.twice = could.length > 1
  }
  return start
}

/** The square one step from `from` towards `dir`. */
const ahead = (from: string, dir: Direction) => key(neighbour(squareOf(from), dir))!

/** The square a push moves its robot into. */
const target = (push: Push) => ahead(push.from, push.dir)

/** The squares a real push's chain (R13) would enter, walking the line of real robots ahead as the phase began. */
function chainSquares(before: Before, push: Push): string[] {
  const entered: string[] = []
  let at = push.from
  while (!stopped(before, at, push.dir)) {
    const next = ahead(at, push.dir)
    entered.push(next)
    if (realOn(before, next) === null) break
    at = next
  }
  return entered
}

/**
 * R20: another real push, not stopped, into the same square (even one of the same robot's, a wall
 * written twice) or into this one's square while this goes into its.
 */
function meets(before: Before, push: Push): boolean {
  if (before.fenceGone.has(push.player)) return false
  return before.pushes.some((o) => o.real && o !== push && !stopped(before, o.from, o.dir) && !before.fenceGone.has(o.player) &&
    (target(o) === target(push) || (target(o) === push.from && target(push) === o.from)))
}

/** What is wrong with the phase's moves (`moves`: player → its one move, as the log tells it). */
function pusherProblems(before: Before, moves: Map<string, Extract<GameEvent, { kind: 'moved' }>>): string[] {
  const pushes = before.pushes
  const problems: string[] = []
  const directionOf = (move: Extract<GameEvent, { kind: 'moved' }>) => stepDirection(move.from, move.to) ?? undefined
  for (const [player, move] of moves) {
    const dir = directionOf(move)
    if (move.cause === 'pusher') {
      const push = pushes.find((p) => p.player === player && p.dir === dir && !p.twice)
      if (!push) problems.push(`${player} moved ${dir} by a pusher that does not push it that way alone (R20, A22)`)
    } else if (move.cause === 'push') {
      const driver = move.by === undefined ? undefined : moves.get(move.by)
      const drive = driver && directionOf(driver)
      if (drive !== dir) problems.push(`${player} pushed ${dir} along a chain driven ${drive ?? 'by nobody'} (R13, R20)`)
    }
  }
  for (const push of pushes) {
    const moved = moves.get(push.player)?.cause === 'pusher'
    // The fence may have destroyed it first, through its square's other pusher (A22).
    const alive = before.world.robots.get(push.player)?.mode !== 'destroyed'
    if (!push.real && !push.twice && !stopped(before, push.from, push.dir) && !moved && alive) problems.push(`virtual ${push.player} stayed on its pusher (R24)`)
  }
  for (const push of pushes) {
    const move = moves.get(push.player)
    if (push.real && !stopped(before, push.from, push.dir) && meets(before, push) && move?.cause === 'pusher' && directionOf(move) === push.dir) {
      problems.push(`${push.player} moved though another push meets its own (R20)`)
    }
  }
  const plain = plainOutcome(before, moves)
  if (plain === null && pushes.some((push) => push.real)) modelCounts.phasesUnjudged++
  if (plain !== null) {
    // The fence's contacts all come before any push waits (R3, A3): every real robot's HP and
    // options are told.
    for (const [player, health] of plain.health) {
      const robot = before.world.robots.get(player)!
      if (!before.at.get(player)!.real || (robot.mode === 'destroyed' && moves.has(player))) continue
      // A destroyed robot's options go back to the deck (R32).
      const [hp, options] = health.hp > 0 ? [health.hp, health.options] : [0, 0]
      if (robot.hp !== hp || robot.options.length !== options) {
        problems.push(`${player} ends the phase at ${robot.hp} HP with ${robot.options.length} option(s), where the fence contacts the pushes call for leave ${hp} HP with ${options} (R3, R13, R28, A3, A22)`)
      }
    }
    for (const [player, { real }] of before.at) {
      if (!real) continue
      const want = plain.plan.get(player)
      const move = moves.get(player)
      const got = move === undefined ? undefined : { dir: directionOf(move), cause: move.cause }
      if (want?.dir === got?.dir && want?.cause === got?.cause) continue
      const told = (m: typeof want | typeof got) => (m === undefined ? 'stays' : `moves ${m.dir} (${m.cause})`)
      problems.push(`${player} ${told(got)}, where the pushes call for: ${told(want)} (R13, R20)`)
    }
  }
  return problems
}

/** A robot's move in the phase as R20 calls for it: its direction, and whether its own pusher or a chain moved it. */
interface Move { dir: Direction; cause: 'pusher' | 'push' }

/**
 * How often the model judged a phase in which pushes waited in a cycle (and how often it left one
 * to the rules cases), one in which chains met, and one in which the fence destroyed a robot; and
 * how often it left a phase with real robots on acting pushers to the rules cases: the property
 * tests read them to show that these corners are judged, not skipped.
 */
export const modelCounts = { cyclesJudged: 0, cyclesUnjudged: 0, meetingsJudged: 0, fenceDeathsJudged: 0, phasesUnjudged: 0 }

/** Thrown while working out the phase: the plain model does not judge it (A3 or another rule decides). */
const UNJUDGED = Symbol('unjudged')

/** Thrown when pushes wait on one another in a cycle: the pushes of the cycle, in waiting order. */
class WaitCycle { constructor(readonly pushes: Push[]) {} }

/**
 * R13 and R20 among the real robots, worked out from the phase's start: a robot moves by the one
 * of its pushes that can move it (A22: with two that can, neither), unless a wall, a bridge side or
 * the fence stops the chain ahead of it; a chain ends at a robot that its own push moves (its
 * square empties as the others move), and a robot whose own push fails is pushed along. Chains
 * that meet fail before any push waits, and so do chains that a barrier stops, the fence hurting
 * (and maybe destroying) the last robot (withoutMeetings). Pushes that wait on one another in a
 * cycle (R20, A3): the first of the cycle in board-file order is played as a plain R13 push,
 * shoving every robot ahead of it, whose own pushers then move them no more; the others move into
 * the squares as they empty. Returns the moves and each robot's HP and options after the fence;
 * null when A3's order or another rule decides instead: moves that meet after a push waited (one
 * robot in two chains, two robots into one square, a swap), a cycle whose breaking push fails or
 * involves a robot with two pushes, a robot two pushes could move where one of them waited or
 * would meet another move (A22 with A3), a robot destroyed in the phase the model cannot tell. A
 * teleporter or a switch a robot enters changes no push: the squares act once every push is played
 * (A3), and the floor's check judges them then (log-replay-floor.ts).
 */
function plainOutcome(before: Before, moves: ReadonlyMap<string, Extract<GameEvent, { kind: 'moved' }>>): { plan: Map<string, Move>; health: Map<string, Health> } | null {
  // Each real robot's pushes but those that meet another push (R20). A push that a barrier stops
  // meets nothing (A3, walls first): it fails first, and the fence hurts its robot.
  const own = new Map<string, Push[]>()
  for (const player of before.at.keys()) {
    const pushes = before.pushes.filter((p) => p.player === player && p.real && (stopped(before, p.from, p.dir) || !meets(before, p)))
    if (pushes.length > 0) own.set(player, pushes)
  }
  const settled = withoutMeetings(before, own)
  if (settled === null) return null
  const { pending: live, gone, health } = settled
  // A robot the fence destroys later in the phase (after a push waited) empties its square when
  // A3's rounds say: not judged. A robot a move took into a pit or a raised drawbridge is judged
  // by that move.
  for (const player of before.at.keys()) {
    if (before.world.robots.get(player)?.mode === 'destroyed' && !moves.has(player) && !gone.has(player)) return null
  }
  // The push that breaks each cycle met so far, with the robots of its cycle.
  const breakers = new Map<Push, Set<string>>()
  for (;;) {
    try {
      const plan = settledPlan(before, live, breakers, gone)
      if (breakers.size > 0) modelCounts.cyclesJudged++
      if (settled.met) modelCounts.meetingsJudged++
      if (gone.size > 0) modelCounts.fenceDeathsJudged++
      return { plan, health }
    } catch (thrown) {
      if (thrown === UNJUDGED) {
        if (breakers.size > 0) modelCounts.cyclesUnjudged++
        return null
      }
      if (!(thrown instanceof WaitCycle)) throw thrown
      // A cycle through a breaking push (a robot in its way waits on its cycle) is left to A3's
      // rounds, and so is one with a robot that two pushes could move (A22).
      if (thrown.pushes.some((push) => breakers.has(push) || live.get(push.player)!.length > 1)) {
        modelCounts.cyclesUnjudged++
        return null
      }
      // R20: the cycle is played in board-file order; A3: its first push goes as a plain R13 push.
      const first = thrown.pushes.reduce((first, push) => (push.order < first.order ? push : first))
      breakers.set(first, new Set(thrown.pushes.map((push) => push.player)))
    }
  }
}

/**
 * A3's first rounds, before any push waits: each push is walked as the phase begins, to a free
 * square, to a robot with a push of its own still to play (where it waits), or to a wall, a bridge
 * side or the fence. Chains that a barrier stops fail first (R13): the fence hurts the last robot
 * of each, 2 damage a contact (options first at the robot's threshold, R28), and a robot it
 * destroys leaves the board (R3, R27). Then pushes of different robots that would move one robot
 * or enter one square all fail (R20, A3), and their robots may be pushed as in R13 (a new attempt:
 * the fence may hurt them again, A3). Again, until neither is left. Returns the pushes still to play, whether any met, the robots the fence
 * destroyed and each robot's HP and options after it; null where a meeting push's robot has
 * another push (A22 with A3's order).
 */
function withoutMeetings(before: Before, own: ReadonlyMap<string, Push[]>): { pending: Map<string, Push[]>; met: boolean; gone: Set<string>; health: Map<string, Health> } | null {
  const pending = new Map(own)
  const gone = new Set<string>()
  const health = new Map([...before.at].map(([player, robot]): [string, Health] => [player, { hp: robot.hp, options: robot.options }]))
  let met = false
  const drop = (push: Push) => {
    const left = pending.get(push.player)!.filter((p) => p !== push)
    if (left.length > 0) pending.set(push.player, left)
    else pending.delete(push.player)
  }
  for (;;) {
    const walks = [...pending.values()].flat().map((push) => walk(before, push, pending, gone))
    const blocked = walks.filter((w) => w.stop !== null)
    if (blocked.length > 0) {
      // A22, A3 (walls first): the pushes a barrier stops at their own squares are tried first and
      // alone; a robot the fence destroys so tries no other push, and the other pushes are walked
      // again, as if those pushers were plain walls. The last robot of a stopped chain has no push to try.
      const atOwnSquare = blocked.filter((w) => w.entered.length === 0)
      const failing = atOwnSquare.length > 0 ? atOwnSquare : blocked
      failing.forEach((w) => drop(w.push))
      for (const { push, moved, stop } of failing) {
        if (stop === 'fence' && health.get(push.player)!.hp > 0) hurt(health.get(moved.at(-1)!)!, 2, before.at.get(moved.at(-1)!)!.sacrificeAt)
      }
      for (const [player, { hp }] of health) {
        if (hp > 0 || gone.has(player)) continue
        gone.add(player)
        pending.delete(player)
      }
      continue
    }
    const claims = new Map<string, Push[]>()
    for (const w of walks) {
      for (const what of [...w.moved.map((robot) => `robot ${robot}`), ...w.entered]) claims.set(what, [...(claims.get(what) ?? []), w.push])
    }
    const meeting = new Set([...claims.values()].filter((pushes) => pushes.some((p) => p.player !== pushes[0]!.player)).flat())
    if (meeting.size === 0) return { pending, met, gone, health }
    if ([...meeting].some((push) => pending.get(push.player)!.length > 1)) return null
    meeting.forEach(drop)
    met = true
  }
}

/** A robot's HP and the number of options it holds. */
interface Health { hp: number; options: number }

/** R3, R27, R28: `points` of damage, each taking the oldest option instead while HP is at or below `sacrificeAt`. */
function hurt(health: Health, points: number, sacrificeAt: number): void {
  for (let point = 0; point < points && health.hp > 0; point++) {
    if (health.options > 0 && health.hp <= sacrificeAt) health.options--
    else health.hp--
  }
}

/**
 * A push walked on the board as the phase began (less the robots `gone`): the robots it moves, the
 * squares they enter, and what stops it.
 */
function walk(before: Before, push: Push, pending: ReadonlyMap<string, Push[]>, gone: ReadonlySet<string>) {
  const moved = [push.player]
  const entered: string[] = []
  for (let at = push.from; ;) {
    const stop = barrier(before.world, at, push.dir, before.lowered)
    if (stop !== null) return { push, moved, entered, stop }
    at = ahead(at, push.dir)
    entered.push(at)
    const standing = realOn(before, at, gone)
    if (standing === null || pending.has(standing)) return { push, moved, entered, stop }
    moved.push(standing)
  }
}

/**
 * The plan of the phase, with each of `breakers` played as a plain R13 push into the robots of its
 * cycle, on the board less the robots the fence destroyed first (`gone`); throws WaitCycle or UNJUDGED.
 */
function settledPlan(before: Before, ownPushes: ReadonlyMap<string, Push[]>, breakers: ReadonlyMap<Push, ReadonlySet<string>>, gone: ReadonlySet<string>): Map<string, Move> {
  // The robots of its cycle that a breaking push shoves are moved by it, not by their own pushers
  // (R20). A robot of no cycle in its way is met as by any chain: it leaves if its own push moves
  // it, for that push is played before the cycle is broken, and is shoved along if not.
  const live = new Map(ownPushes)
  for (const [push, cycle] of breakers) {
    for (let at = push.from; !stopped(before, at, push.dir);) {
      at = ahead(at, push.dir)
      const standing = realOn(before, at, gone)
      if (standing === null || !cycle.has(standing)) break
      live.delete(standing)
    }
  }
  interface Outcome { ok: boolean; shoved: string[]; waited: boolean }
  const outcome = new Map<Push, Outcome | 'waiting'>()
  const movers = new Map<string, Push | 'none'>()
  const working: Push[] = []
  /** The push that moves `player`: the only one of its pushes that can (A22); or none. */
  const moverOf = (player: string): Push | 'none' => {
    const known = movers.get(player)
    if (known) return known
    const can = (live.get(player) ?? []).filter((push) => solve(push).ok)
    const mover = can.length === 1 ? can[0]! : 'none'
    movers.set(player, mover)
    return mover
  }
  /** Whether `push` moves its robot, whom it shoves, and whether it waited on another push. */
  const solve = (push: Push): Outcome => {
    const known = outcome.get(push)
    if (known === 'waiting') throw new WaitCycle(working.slice(working.indexOf(push)))
    if (known) return known
    outcome.set(push, 'waiting')
    working.push(push)
    const result: Outcome = { ok: false, shoved: [], waited: false }
    let at = push.from
    while (!stopped(before, at, push.dir)) {
      const next = ahead(at, push.dir)
      const standing = realOn(before, next, gone)
      if (standing === null) { result.ok = true; break }
      if (live.has(standing)) {
        result.waited = true
        if (moverOf(standing) !== 'none') { result.ok = true; break }
      }
      result.shoved.push(standing)
      at = next
    }
    // A3 leaves a cycle whose breaking push cannot move its chain to its order of rounds.
    if (breakers.has(push) && !result.ok) throw UNJUDGED
    working.pop()
    outcome.set(push, result)
    return result
  }
  const plan = new Map<string, Move>()
  for (const player of live.keys()) {
    const mover = moverOf(player)
    if (mover === 'none') continue
    const moved: [string, Move['cause']][] = [[player, 'pusher'], ...solve(mover).shoved.map((p): [string, Move['cause']] => [p, 'push'])]
    for (const [robot, cause] of moved) {
      if (plan.has(robot)) throw UNJUDGED
      plan.set(robot, { dir: mover.dir, cause })
    }
  }
  // Moves that meet are A3's: two robots into one square, or two swapping squares.
  const into = new Map<string, string>()
  for (const [player, move] of plan) {
    const from = before.at.get(player)!.at!
    const to = ahead(from, move.dir)
    if (into.has(to)) throw UNJUDGED
    into.set(to, from)
  }
  for (const [to, from] of into) if (into.get(from) === to) throw UNJUDGED
  // A robot two pushes could move: which of them count is A22's with A3's order whenever one of
  // them waited on another push, or would meet any other move, even another such robot's (a push
  // that a chain stops fails first and meets nothing). Not judged here.
  const squares = new Map([...into.keys()].map((square): [string, string] => [square, 'the plan']))
  const robots = new Map([...plan.keys()].map((robot): [string, string] => [robot, 'the plan']))
  const claim = (claims: Map<string, string>, what: string, owner: string) => {
    const other = claims.get(what)
    claims.set(what, owner)
    return other === undefined || other === owner
  }
  for (const [player, pushes] of live) {
    if (pushes.length < 2) continue
    for (const push of pushes) {
      const result = solve(push)
      if (result.waited) throw UNJUDGED
      if (!result.ok || push === movers.get(player)) continue
      if (!claim(squares, target(push), player)) throw UNJUDGED
      for (const robot of result.shoved) {
        if (!claim(robots, robot, player) || !claim(squares, ahead(before.at.get(robot)!.at!, push.dir), player)) throw UNJUDGED
      }
    }
  }
  return plan
}

/** Watches one stage's events (before each is applied) and judges its pusher phase. */
export function pusherWatch(world: World, stage: number, label: string, problems: string[]): Watch {
  const pushers = world.pushers.filter((p) => (p.stages as number[]).includes(stage))
  let start: Before | null = null
  const moves = new Map<string, Extract<GameEvent, { kind: 'moved' }>>()
  let judged = false
  const judge = () => {
    if (judged) return
    judged = true
    start ??= phaseStart(world, pushers)
    for (const problem of pusherProblems(start, moves)) problems.push(`${label} pusher: ${problem}`)
  }
  return {
    event(event) {
      if (judged) return
      if (event.time.phase === 'pusher') {
        start ??= phaseStart(world, pushers)
        if (event.kind === 'moved' && (event.cause === 'pusher' || event.cause === 'push')) moves.set(event.player, event)
      } else if (start !== null || PHASES.indexOf(event.time.phase) > PHASES.indexOf('pusher')) {
        judge()
      }
    },
    end: judge,
  }
}
