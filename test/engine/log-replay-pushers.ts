// The pusher phase as the log tells it, against R20, R24, A3 and A22, from the board file and the
// replayed robots as the phase begins:
// - a robot moved by a pusher stood on a pusher acting in this stage and moved away from its wall,
//   and no other of its square's pushers could move it too (A22; a push that a wall, a bridge side
//   or the fence stops does not count, A3); a robot pushed along moved the way of the push that
//   drove the chain;
// - a virtual robot on one acting pusher moves unless a wall, a bridge side or the fence stops it
//   (R24);
// - two real robots pushed into one square, or toward each other's squares, both stay (R20);
// - when one real robot alone stands on an acting pusher, its push is a plain R13 push: the whole
//   chain ahead moves one square, unless a wall, a bridge side or the fence stops its far end.
// Pushes that wait on one another are left to the rules cases: their order is A3's.
import { PHASES, type GameEvent } from '../../src/engine/events.js'
import { neighbour, opposite } from '../../src/engine/geometry.js'
import type { Direction, PusherElement } from '../../src/engine/types.js'
import { barrier, key, squareOf, type Watch, type World } from './log-replay-world.js'

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
  // fence stops, or that meets another real push (R20), cannot move its robot and does not count;
  // nor here, to stay on the safe side, a real robot's push into another real robot.
  for (const push of pushes) {
    const could = pushes.filter((p) => p.player === push.player && !stopped(start, p.from, p.dir) &&
      (!p.real || (realOn(start, target(p)) === null && !meets(start, p))))
    push.twice = could.length > 1
  }
  return start
}

const target = (push: Push) => key(neighbour(squareOf(push.from), push.dir))!

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
  const directionOf = (move: Extract<GameEvent, { kind: 'moved' }>) => (['N', 'E', 'S', 'W'] as const).find((d) => key(neighbour(move.from, d)) === key(move.to))
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
  const lone = pushes.filter((p) => p.real)
  if (lone.length === 1 && !lone[0]!.twice) {
    // R13: the chain of real robots ahead moves one square, unless its far end is stopped.
    const push = lone[0]!
    const chain = [push.player]
    let at = push.from
    while (!stopped(before, at, push.dir)) {
      const next = key(neighbour(squareOf(at), push.dir))!
      const occupant = realOn(before, next)
      if (occupant === null) break
      chain.push(occupant)
      at = next
    }
    const free = !stopped(before, at, push.dir)
    // A fence that stopped another push of its square may have destroyed the pushed robot first.
    const standing = chain.filter((player) => before.world.robots.get(player)?.mode !== 'destroyed')
    for (const player of standing) {
      const cause = moves.get(player)?.cause
      if (free !== (cause === 'pusher' || cause === 'push')) problems.push(`${player} ${free ? 'stayed, though the push of' : 'moved, though the stopped push of'} ${push.player} ${free ? 'moves' : 'moves nobody in'} its chain (R13, R20)`)
    }
  }
  return problems
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
