// Replays a turn's event log from the picture above stage 1 and compares the story it tells with
// the robots the result shows after every stage and at the end. Every table, picture and mail is
// drawn from that log (events.ts), so a log that tells a different story from the robots, or one
// in which a robot walks into another's square, is a bug even when every snapshot looks legal: the
// pushed-robot teleport corner (A21) swapped two robots through the teleporters and left only the
// log to show it. It also counts what may happen to a robot at most once in a stage. Used by the
// property tests over random boards and over whole games.
import type { GameEvent } from '../../src/engine/events.js'
import { formatSquare } from '../../src/engine/geometry.js'
import type { TurnResult } from '../../src/engine/turn.js'
import { MAX_HP, type Direction, type RobotMode, type Square } from '../../src/engine/types.js'

interface Replayed { at: string | null; facing: Direction; hp: number; mode: RobotMode }

interface Shown { player: string; at: Square | null; facing: Direction; hp: number; mode: RobotMode }

const key = (square: Square | null) => (square === null ? null : formatSquare(square))

/** Where the log and the robots part ways in one turn; empty when they tell the same story. */
export function logProblems(result: TurnResult, where: string): string[] {
  const problems: string[] = []
  const robots = new Map<string, Replayed>()
  for (const robot of result.start.robots) {
    robots.set(robot.player, { at: key(robot.at), facing: robot.facing, hp: robot.hp, mode: robot.mode })
  }
  const replay = (events: readonly GameEvent[], label: string) => {
    let group: GameEvent['time'] | null = null
    for (const event of events) {
      // Events of one moment share one stamp: between moments, no two real robots share a square.
      if (group !== null && event.time !== group) sharedSquares(robots, `${label} ${stamp(group)}`, problems)
      group = event.time
      apply(robots, event, `${label} ${stamp(event.time)}`, problems)
    }
    if (group !== null) sharedSquares(robots, `${label} ${stamp(group)}`, problems)
  }
  for (const stage of result.stages) {
    replay(stage.events, `${where} stage ${stage.stage}`)
    compare(robots, stage.robots, `${where} stage ${stage.stage}`, problems)
    problems.push(...onceProblems(stage.events, `${where} stage ${stage.stage}`))
  }
  problems.push(...orderProblems(result, where))
  replay(result.end.events, `${where} end`)
  compare(robots, result.end.robots, `${where} end`, problems)
  return problems
}

/**
 * What may happen to a robot at most once in a stage: one pusher push (R20), one move per conveyor
 * step (R18), one fence contact in the conveyor phase (R19).
 */
function onceProblems(events: readonly GameEvent[], where: string): string[] {
  const counts = new Map<string, number>()
  const problems: string[] = []
  const once = (what: string) => {
    const n = (counts.get(what) ?? 0) + 1
    counts.set(what, n)
    if (n === 2) problems.push(`${where}: ${what} twice`)
  }
  for (const event of events) {
    const { phase, step } = event.time
    if (event.kind === 'moved' && phase === 'pusher') once(`${event.player} moved in the pusher phase (R20)`)
    if (event.kind === 'moved' && phase === 'conveyor') once(`${event.player} moved in conveyor step ${step} (R18)`)
    if (event.kind === 'damaged' && event.source === 'fence' && phase === 'conveyor') once(`${event.player} hurt by the fence in the conveyor phase (R19)`)
  }
  return problems
}

/**
 * Who may act when, over the stages: cards play highest priority first (R10); a rebooting robot plays no
 * card, does not fire and touches no flag, wrench or station (R33); flags, checkpoints and stations
 * are touched only in step 4 (R30), and flags one at a time in order (where: see apply).
 */
function orderProblems(result: TurnResult, where: string): string[] {
  const problems: string[] = []
  const rebooting = new Set(result.start.robots.filter((r) => r.rebooting).map((r) => r.player))
  const flags = new Map<string, number>()
  for (const stage of result.stages) {
    let lastPriority = Infinity
    for (const event of stage.events) {
      const label = `${where} stage ${stage.stage} ${stamp(event.time)}`
      if (!('player' in event)) continue
      const player = event.player
      if (event.kind === 'card-played') {
        if (event.card.priority >= lastPriority) problems.push(`${label}: ${player}'s ${event.card.priority} after ${lastPriority} (R10)`)
        lastPriority = event.card.priority
      }
      if ((event.kind === 'card-played' || event.kind === 'robot-laser') && rebooting.has(player)) problems.push(`${label}: rebooting ${player} ${event.kind} (R33)`)
      if (event.kind === 'flag-tagged' || event.kind === 'checkpoint' || event.kind === 'station-visited') {
        if (event.time.phase !== 'checkpoint') problems.push(`${label}: ${player} ${event.kind} outside step 4 (R30)`)
        if (rebooting.has(player)) problems.push(`${label}: rebooting ${player} ${event.kind} (R33)`)
      }
      if (event.kind === 'flag-tagged') {
        const had = flags.get(player) ?? result.state.robots.find((r) => r.player === player)!.flags - countTags(result, player)
        if (event.number !== had + 1) problems.push(`${label}: ${player} tagged flag ${event.number} with ${had} (R30)`)
        flags.set(player, event.number)
      }
    }
  }
  return problems
}

/** How many flags the log says a player tagged this turn. */
function countTags(result: TurnResult, player: string): number {
  let n = 0
  for (const stage of result.stages) for (const e of stage.events) if (e.kind === 'flag-tagged' && e.player === player) n++
  return n
}

function stamp(time: GameEvent['time']): string {
  return `${time.phase}${time.priority === null ? '' : ` ${time.priority}`} step ${time.step}`
}

function apply(robots: Map<string, Replayed>, event: GameEvent, where: string, problems: string[]): void {
  if (event.kind === 'robot-laser' || event.kind === 'board-laser') problems.push(...beamProblems(robots, event, where))
  if (!('player' in event)) return
  const robot = robots.get(event.player)
  if (!robot) {
    problems.push(`${where}: ${event.kind} of unknown ${event.player}`)
    return
  }
  // R11: nothing more happens to a destroyed robot this turn; only the end of the turn brings it back.
  if (robot.mode === 'destroyed' && event.time.phase !== 'end') problems.push(`${where}: ${event.kind} of ${event.player}, destroyed earlier this turn (R11)`)
  switch (event.kind) {
    case 'moved':
    case 'teleported': {
      const from = key(event.from), to = key(event.to)
      if (robot.at !== from) problems.push(`${where}: ${event.player} ${event.kind} from ${from} but stood on ${robot.at}`)
      // R13 and R20 move a chain far end first, so each robot steps into a free square; belts move
      // their robots all at once (R18), so only the end of their step is checked. A teleporter
      // sends a robot only to one that holds no robot at all (R17, R24).
      const entering = event.kind === 'teleported' ? 'any' : robot.mode === 'real' && event.cause !== 'conveyor' ? 'real' : null
      if (entering) {
        for (const [player, other] of robots) {
          if (player !== event.player && other.at === to && (entering === 'any' || other.mode === 'real')) {
            problems.push(`${where}: ${event.player} ${event.kind} onto ${to}, where ${player} stands`)
          }
        }
      }
      robot.at = to
      return
    }
    case 'turned': case 'facing-chosen': robot.facing = event.facing; return
    case 'damaged': case 'repaired': {
      const expected = event.kind === 'damaged' ? robot.hp - event.amount : robot.hp + event.amount
      if (expected !== event.hp) problems.push(`${where}: ${event.player} ${event.kind} by ${event.amount} from ${robot.hp} to ${event.hp}`)
      robot.hp = event.hp
      return
    }
    case 'destroyed':
      if (robot.at !== key(event.at)) problems.push(`${where}: ${event.player} destroyed on ${key(event.at)} but stood on ${robot.at}`)
      Object.assign(robot, { at: null, hp: 0, mode: 'destroyed' })
      return
    case 'flag-tagged': case 'checkpoint': case 'station-visited':
      if (robot.at !== key(event.at)) problems.push(`${where}: ${event.player} ${event.kind} on ${key(event.at)} but stands on ${robot.at}`)
      return
    case 'became-real': robot.mode = 'real'; return
    case 'reboot': robot.hp = MAX_HP; return
    case 'reinstated': Object.assign(robot, { at: key(event.at), facing: event.facing, hp: MAX_HP, mode: 'virtual' }); return
    default: return
  }
}

const STEP: Record<Direction, [number, number]> = { N: [1, 0], E: [0, 1], S: [-1, 0], W: [0, -1] }

/**
 * A beam as the log shows it, against where the robots stand: its squares run straight from where
 * it starts (a robot's laser from the square in front, R26; a turret's across its own square, R23);
 * a robot's laser passes virtual robots and stops at the first real one, which it hits (R24, R26); a
 * blue board beam stops at the first square holding any robot and hits them all, a red one hits
 * every robot on its squares (R23).
 */
function beamProblems(robots: Map<string, Replayed>, event: Extract<GameEvent, { kind: 'robot-laser' | 'board-laser' }>, where: string): string[] {
  const problems: string[] = []
  const [dr, dc] = STEP[event.dir]
  const origin = event.kind === 'board-laser' ? { row: event.from.row - dr, col: event.from.col - dc } : null
  const shooter = event.kind === 'robot-laser' ? robots.get(event.player) : undefined
  if (event.kind === 'robot-laser' && shooter?.mode !== 'real') problems.push(`${where}: ${event.player} fired, ${shooter?.mode ?? 'unknown'}`)
  const start = origin ?? (shooter?.at ? squareOf(shooter.at) : null)
  event.squares.forEach((square, i) => {
    if (start && (square.row !== start.row + dr * (i + 1) || square.col !== start.col + dc * (i + 1))) {
      problems.push(`${where}: ${event.kind} square ${i + 1} is ${key(square)}, off the line from ${key(start)} towards ${event.dir}`)
    }
  })
  const on = (square: Square, real: boolean) =>
    [...robots].filter(([, r]) => r.at === key(square) && r.mode !== 'destroyed' && (!real || r.mode === 'real')).map(([player]) => player)
  const last = event.squares.length - 1
  if (event.kind === 'robot-laser') {
    const before = event.squares.slice(0, Math.max(0, last)).flatMap((square) => on(square, true))
    const atEnd = last >= 0 ? on(event.squares[last]!, true) : []
    const hit = atEnd[0] ?? null
    if (before.length > 0 || hit !== event.hit || (hit === null) !== (event.damage === 0)) {
      problems.push(`${where}: ${event.player}'s laser hit ${event.hit} for ${event.damage}; real robots on its way ${before.join(' ') || 'none'}, at its end ${atEnd.join(' ') || 'none'}`)
    }
  } else {
    const struck = event.colour === 'blue'
      ? [...event.squares.slice(0, Math.max(0, last)).flatMap((square) => on(square, false)).map((p) => `${p} (before the end)`), ...(last >= 0 ? on(event.squares[last]!, false) : [])]
      : event.squares.flatMap((square) => on(square, false))
    if ([...struck].sort().join(' ') !== [...event.hits].sort().join(' ')) {
      problems.push(`${where}: ${event.colour} beam from ${key(event.from)} hit ${event.hits.join(' ') || 'nobody'}, robots on it ${struck.join(' ') || 'none'}`)
    }
  }
  return problems
}

function squareOf(at: string): Square {
  const match = /^r(\d+)c(\d+)$/.exec(at)!
  return { row: Number(match[1]), col: Number(match[2]) }
}

function sharedSquares(robots: Map<string, Replayed>, where: string, problems: string[]): void {
  const real = new Map<string, string>()
  for (const [player, robot] of robots) {
    if (robot.mode !== 'real' || robot.at === null) continue
    const other = real.get(robot.at)
    if (other) problems.push(`${where}: ${other} and ${player} are both real on ${robot.at}`)
    real.set(robot.at, player)
  }
}

function compare(robots: Map<string, Replayed>, shown: readonly Shown[], where: string, problems: string[]): void {
  for (const robot of shown) {
    const replayed = robots.get(robot.player)
    const told = { at: key(robot.at), facing: robot.facing, hp: robot.hp, mode: robot.mode }
    if (JSON.stringify(replayed) !== JSON.stringify(told)) {
      problems.push(`${where}: the log leaves ${robot.player} ${JSON.stringify(replayed)}, the result shows ${JSON.stringify(told)}`)
    }
  }
}
