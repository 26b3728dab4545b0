// The pusher phase as the log tells it, against R20, R24, A3 and A22, from the board file and the
// replayed robots as the phase begins:
// - a robot moved by a pusher stood on a pusher acting in this stage and moved away from its wall,
//   and no other of its square's pushers could move it too (A22; a push that a wall, a bridge side
//   or the fence stops, or that meets another push or chain, does not count, A3); a robot pushed
//   along moved the way of the push that drove the chain;
// - a virtual robot on one acting pusher moves unless a wall, a bridge side or the fence stops it
//   (R24);
// - two real robots pushed into one square, or toward each other's squares, both stay (R20);
// - the real robots move as R13 and R20 call for, worked out from the phase's start, wherever A3
//   does not decide: a chain moves unless its far end is stopped, and ends at a robot whose own
//   pusher moves it (plainOutcome). Cycles and moves that meet are left to the rules cases.
import { PHASES, type GameEvent } from '../../src/engine/events.js'
import { neighbour, opposite } from '../../src/engine/geometry.js'
import type { Direction, PusherElement } from '../../src/engine/types.js'
import { barrier, key, squareOf, stepDirection, type Watch, type World } from './log-replay-world.js'

interface Push { player: string; from: string; dir: Direction; real: boolean; twice: boolean }

/** The board and robots as the phase begins: everything is judged on them, since pushes act at once. */
interface Before { world: World; at: Map<string, { at: string | null; real: boolean }>; lowered: Set<string>; pushes: Push[] }

/** Whether a step from `at` towards `dir` is stopped by a wall, a raised bridge side or the fence, as the phase began. */
const stopped = (before: Before, at: string, dir: Direction) => barrier(before.world, at, dir, before.lowered) !== null

const realOn = (before: Before, at: string) => [...before.at].find(([, r]) => r.at === at && r.real)?.[0] ?? null

/** The board, the robots and the pushes as the phase begins. */
function phaseStart(world: World, pushers: readonly PusherElement[]): Before {
  const pushes: Push[] = []
  const at = new Map<string, { at: string | null; real: boolean }>()
  for (const [player, robot] of world.robots) {
    if (robot.at === null || robot.mode === 'destroyed') continue
    at.set(player, { at: robot.at, real: robot.mode === 'real' })
  }
  const start: Before = { world, at, lowered: new Set(world.lowered), pushes }
  for (const [player, robot] of world.robots) {
    if (robot.at === null || robot.mode === 'destroyed') continue
    for (const pusher of pushers) if (key(pusher.at) === robot.at) pushes.push({ player, from: robot.at, dir: opposite(pusher.side), real: robot.mode === 'real', twice: false })
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
  return before.pushes.some((o) => o.real && o !== push && !stopped(before, o.from, o.dir) &&
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
  if (plain !== null) {
    for (const [player, { real }] of before.at) {
      if (!real) continue
      const want = plain.get(player)
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
 * R13 and R20 among the real robots, worked out from the phase's start, when nothing in it is
 * left to A3: a robot moves by the one of its pushes that can move it (A22: with two that can,
 * neither), unless a wall, a bridge side or the fence stops the chain ahead of it; a chain ends
 * at a robot that its own push moves (its square empties as the others move), and a robot whose
 * own push fails is pushed along. Null when A3 or another rule decides instead: pushes that wait
 * on one another in a cycle, moves that meet (one robot in two chains, two robots into one
 * square, a swap), a robot two pushes could move where one of them waited or would meet another
 * move (A22 with A3), a robot destroyed in the phase, a teleporter or switch entered.
 */
function plainOutcome(before: Before, moves: ReadonlyMap<string, Extract<GameEvent, { kind: 'moved' }>>): Map<string, Move> | null {
  // Each real robot's pushes that could move it as far as walls and meetings of pushes tell (A22).
  const live = new Map<string, Push[]>()
  for (const player of before.at.keys()) {
    const could = before.pushes.filter((p) => p.player === player && p.real && !stopped(before, p.from, p.dir) && !meets(before, p))
    if (could.length > 0) live.set(player, could)
  }
  for (const player of before.at.keys()) if (before.world.robots.get(player)?.mode === 'destroyed') return null
  const entered = [...moves.values()].map((m) => key(m.to)!)
  for (const push of before.pushes) if (!stopped(before, push.from, push.dir)) entered.push(target(push))
  if (entered.some((at) => ['teleporter', 'switch'].includes(before.world.floor.get(at)?.type ?? ''))) return null

  interface Outcome { ok: boolean; shoved: string[]; waited: boolean }
  const outcome = new Map<Push, Outcome | 'waiting'>()
  const movers = new Map<string, Push | 'none'>()
  /** The push that moves `player`: the only one of its pushes that can (A22); or none; null in a cycle. */
  const moverOf = (player: string): Push | 'none' | null => {
    const known = movers.get(player)
    if (known) return known
    const can: Push[] = []
    for (const push of live.get(player) ?? []) {
      const result = solve(push)
      if (result === null) return null
      if (result.ok) can.push(push)
    }
    const mover = can.length === 1 ? can[0]! : 'none'
    movers.set(player, mover)
    return mover
  }
  /** Whether `push` moves its robot, whom it shoves, and whether it waited on another push; null in a cycle. */
  const solve = (push: Push): Outcome | null => {
    const known = outcome.get(push)
    if (known === 'waiting') return null
    if (known) return known
    outcome.set(push, 'waiting')
    const result: Outcome = { ok: false, shoved: [], waited: false }
    let at = push.from
    while (!stopped(before, at, push.dir)) {
      const next = ahead(at, push.dir)
      const standing = realOn(before, next)
      if (standing === null) { result.ok = true; break }
      if (live.has(standing)) {
        result.waited = true
        const mover = moverOf(standing)
        if (mover === null) return null
        if (mover !== 'none') { result.ok = true; break }
      }
      result.shoved.push(standing)
      at = next
    }
    outcome.set(push, result)
    return result
  }
  const plan = new Map<string, Move>()
  for (const player of live.keys()) {
    const mover = moverOf(player)
    if (mover === null) return null
    if (mover === 'none') continue
    const moved: [string, Move['cause']][] = [[player, 'pusher'], ...solve(mover)!.shoved.map((p): [string, Move['cause']] => [p, 'push'])]
    for (const [robot, cause] of moved) {
      if (plan.has(robot)) return null
      plan.set(robot, { dir: mover.dir, cause })
    }
  }
  // Moves that meet are A3's: two robots into one square, or two swapping squares.
  const into = new Map<string, string>()
  for (const [player, move] of plan) {
    const from = before.at.get(player)!.at!
    const to = ahead(from, move.dir)
    if (into.has(to)) return null
    into.set(to, from)
  }
  for (const [to, from] of into) if (into.get(from) === to) return null
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
      const result = solve(push)!
      if (result.waited) return null
      if (!result.ok || push === movers.get(player)) continue
      if (!claim(squares, target(push), player)) return null
      for (const robot of result.shoved) {
        if (!claim(robots, robot, player) || !claim(squares, ahead(before.at.get(robot)!.at!, push.dir), player)) return null
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
