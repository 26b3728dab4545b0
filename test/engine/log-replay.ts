// Replays a turn's event log from the picture above stage 1 and compares the story it tells with
// the robots the result shows after every stage and at the end. Every table, picture and mail is
// drawn from that log (events.ts), so a log that tells a different story from the robots, or one
// in which a robot walks into another's square, is a bug even when every snapshot looks legal: the
// pushed-robot teleport corner (A21) swapped two robots through the teleporters and left only the
// log to show it. Along the way the replay judges the log against the rules, from the board file
// and the robots as the log leaves them:
// - where robots go: moves from where they stand, never into a real robot's square (R13), as their
//   cards say and never through a wall (log-replay-moves.ts), and what the floor they enter does
//   (log-replay-floor.ts: pits, drawbridges, switches, teleporters, R14-R17);
// - what each step must do, to every robot it concerns (log-replay-conveyors.ts: belts;
//   log-replay-pushers.ts: pushers, as far as R20 says without A3's order;
//   log-replay-phases.ts: gears, crushers, lasers, checkpoints, becoming real, repairs, options);
// - beams (log-replay-beams.ts), damage and option sacrifice (log-replay-damage.ts), fused
//   registers (log-replay-registers.ts);
// - what may happen at most once in a stage, and in what order robots act.
// Used by the property tests over random boards and over whole games, and over every rules case.
import { PHASES, type GameEvent } from '../../src/engine/events.js'
import type { TurnResult } from '../../src/engine/turn.js'
import { MAX_HP, type Board, type Direction, type GameState, type RobotMode, type Square, type TurnOrders } from '../../src/engine/types.js'
import { beamProblems } from './log-replay-beams.js'
import { beamDamageWatch, closeHit, closeUnlessSameHit, damaged, sacrificed, type OpenHit } from './log-replay-damage.js'
import { conveyorWatch } from './log-replay-conveyors.js'
import { floorEvent, floorLeftovers, moved } from './log-replay-floor.js'
import { cardWatch } from './log-replay-moves.js'
import { expectRegisters, registerEvent, registerLeftovers } from './log-replay-registers.js'
import { pusherWatch } from './log-replay-pushers.js'
import { END_CHECKS, STAGE_CHECKS, phaseWatch } from './log-replay-phases.js'
import { key, worldOf, type ReplayedRobot, type Watch, type World } from './log-replay-world.js'

interface Shown { player: string; at: Square | null; facing: Direction; hp: number; mode: RobotMode }

/**
 * Where the log and the robots, or the log and the rules, part ways in one turn of `board`
 * resolved from `given` (the dealt state: options, standing choices, flags and checkpoints are read
 * there) with `orders`; empty when they tell the same story.
 */
export function logProblems(result: TurnResult, where: string, given: GameState, board: Board, orders: Record<string, TurnOrders>): string[] {
  const problems: string[] = []
  const world = worldOf(board, given, orders, result.start.robots, result.registers)
  const hit: { open: OpenHit | null } = { open: null }
  const replay = (events: readonly GameEvent[], label: string, watches: readonly Watch[]) => {
    // Events of one moment share one stamp. When a moment ends, its hits are whole, the floor has
    // done all the moves called for, and no two real robots share a square.
    const momentEnds = (time: GameEvent['time']) => {
      const at = `${label} ${stamp(time)}`
      closeHit(hit, at, problems)
      floorLeftovers(world, at, problems)
      registerLeftovers(world, at, problems)
      sharedSquares(world.robots, at, problems)
    }
    let moment: GameEvent['time'] | null = null
    for (const event of events) {
      if (moment !== null && event.time !== moment) momentEnds(moment)
      moment = event.time
      for (const watch of watches) watch.event(event, `${label} ${stamp(event.time)}`)
      apply(world, hit, event, `${label} ${stamp(event.time)}`, problems)
    }
    if (moment !== null) momentEnds(moment)
    for (const watch of watches) watch.end()
  }
  for (const stage of result.stages) {
    const label = `${where} stage ${stage.stage}`
    replay(stage.events, label, [
      phaseWatch(world, STAGE_CHECKS, stage.stage, label, problems), cardWatch(world, stage.stage, label, problems),
      conveyorWatch(world, label, problems), pusherWatch(world, stage.stage, label, problems), beamDamageWatch(label, problems),
    ])
    compare(world.robots, stage.robots, label, problems)
    problems.push(...onceProblems(stage.events, label))
  }
  problems.push(...orderProblems(result, where))
  // A7: a stage won on the last flag ends the turn; nothing of its end is played.
  const won = result.stages.some((stage) => stage.events.some((e) => e.kind === 'game-over'))
  if (won && result.end.events.length > 0) problems.push(`${where} end: the game was won in a stage, yet the turn's end was played (A7)`)
  replay(result.end.events, `${where} end`, [phaseWatch(world, won ? [] : END_CHECKS, 0, `${where} end`, problems)])
  compare(world.robots, result.end.robots, `${where} end`, problems)
  problems.push(...stateProblems(world, result.state, `${where} end`))
  return problems
}

/** What the snapshots do not show: the options, fused registers and option deck the log leaves must be the new state's. */
function stateProblems(world: World, state: GameState, where: string): string[] {
  const problems: string[] = []
  for (const robot of state.robots) {
    const replayed = world.robots.get(robot.player)
    const held = replayed?.options.join(', ')
    if (held !== robot.options.join(', ')) problems.push(`${where}: the log leaves ${robot.player} holding ${held || 'nothing'}, the state ${robot.options.join(', ') || 'nothing'}`)
    const fused = [...(replayed?.fused ?? [])].sort().join(' ')
    const stateFused = Object.keys(robot.fused).sort().join(' ')
    if (fused !== stateFused) problems.push(`${where}: the log leaves ${robot.player} with registers ${fused || 'none'} fused, the state ${stateFused || 'none'}`)
  }
  if (world.optionDeck.join(', ') !== state.optionDeck.join(', ')) {
    problems.push(`${where}: the log leaves the option deck ${world.optionDeck.join(', ') || 'empty'}, the state ${state.optionDeck.join(', ') || 'empty'} (R32)`)
  }
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
 * are touched only in step 4 (R30). Which of them step 4 must show, and in what order flags are
 * tagged, is log-replay-phases.ts's to check.
 */
function orderProblems(result: TurnResult, where: string): string[] {
  const problems: string[] = []
  const rebooting = new Set(result.start.robots.filter((r) => r.rebooting).map((r) => r.player))
  for (const stage of result.stages) {
    let lastPriority = Infinity
    let lastPhase = 0
    for (const event of stage.events) {
      const label = `${where} stage ${stage.stage} ${stamp(event.time)}`
      // R10: the steps of a stage come in their order, and each event belongs to its own stage.
      const phase = PHASES.indexOf(event.time.phase)
      if (phase < lastPhase || event.time.stage !== stage.stage) problems.push(`${label}: told after ${PHASES[lastPhase]} of stage ${stage.stage} (R10)`)
      lastPhase = Math.max(lastPhase, phase)
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
    }
  }
  return problems
}

function stamp(time: GameEvent['time']): string {
  return `${time.phase}${time.priority === null ? '' : ` ${time.priority}`} step ${time.step}`
}

function apply(world: World, hit: { open: OpenHit | null }, event: GameEvent, where: string, problems: string[]): void {
  if (event.kind === 'robot-laser' || event.kind === 'board-laser') problems.push(...beamProblems(world, event, where))
  closeUnlessSameHit(hit, event, where, problems)
  floorEvent(world, event, where, problems)
  if (!('player' in event)) return
  const robot = world.robots.get(event.player)
  if (!robot) {
    problems.push(`${where}: ${event.kind} of unknown ${event.player}`)
    return
  }
  // R11: nothing more happens to a destroyed robot this turn; only the end of the turn brings it back.
  if (robot.mode === 'destroyed' && event.time.phase !== 'end') problems.push(`${where}: ${event.kind} of ${event.player}, destroyed earlier this turn (R11)`)
  const standsOn = (at: Square) => {
    if (robot.at !== key(at)) problems.push(`${where}: ${event.player} ${event.kind} on ${key(at)} but stands on ${robot.at}`)
  }
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
        for (const [player, other] of world.robots) {
          if (player !== event.player && player !== world.stepping && other.at === to && (entering === 'any' || other.mode === 'real')) {
            problems.push(`${where}: ${event.player} ${event.kind} onto ${to}, where ${player} stands`)
          }
        }
      }
      robot.at = to
      if (event.kind === 'moved') {
        if (event.cause === 'push' && event.time.phase === 'movement') world.stepping = event.by ?? null
        else if (world.stepping === event.player) world.stepping = null
        moved(world, event)
      }
      return
    }
    case 'turned':
      // R32: gears and conveyors do not turn a robot with a Gyroscope.
      if (event.cause !== 'card' && robot.options.includes('Gyroscope')) problems.push(`${where}: ${event.player} turned by a ${event.cause} despite its Gyroscope (R32)`)
      robot.facing = event.facing
      return
    case 'facing-chosen': robot.facing = event.facing; return
    case 'option-sacrificed': sacrificed(world, hit, robot, event, where, problems); return
    case 'damaged': case 'repaired': {
      const expected = event.kind === 'damaged' ? robot.hp - event.amount : robot.hp + event.amount
      if (expected !== event.hp) problems.push(`${where}: ${event.player} ${event.kind} by ${event.amount} from ${robot.hp} to ${event.hp}`)
      if (event.kind === 'damaged') damaged(hit, robot, event, where, problems)
      robot.hp = event.hp
      expectRegisters(world, event.player, robot)
      return
    }
    case 'register-fused': case 'register-unfused': registerEvent(world, robot, event, where, problems); return
    case 'option-taken': {
      const i = world.optionDeck.indexOf(event.option)
      if (i < 0) problems.push(`${where}: ${event.player} took ${event.option}, which is not in the option deck (R32)`)
      else world.optionDeck.splice(i, 1)
      robot.options.push(event.option)
      return
    }
    case 'destroyed':
      standsOn(event.at)
      // R29: a destroyed robot costs its player one.
      if (event.robotsLeft !== robot.robotsLeft - 1) problems.push(`${where}: ${event.player} destroyed with ${robot.robotsLeft} robots, leaving ${event.robotsLeft} (R29)`)
      robot.robotsLeft = event.robotsLeft
      // R32: a destroyed robot's options go to the bottom of the deck.
      world.optionDeck.push(...robot.options)
      Object.assign(robot, { at: null, hp: 0, mode: 'destroyed', options: [], fused: new Set() })
      // What its damage earlier in the moment called for is void: a destroyed robot fuses nothing (R11, R27).
      expectRegisters(world, event.player, robot)
      return
    case 'checkpoint': standsOn(event.at); robot.checkpoint = key(event.at); return
    case 'flag-tagged': standsOn(event.at); robot.flags = event.number; return
    case 'station-visited': standsOn(event.at); robot.stations.push(key(event.at)!); return
    case 'became-real': robot.mode = 'real'; return
    case 'reboot': Object.assign(robot, { hp: MAX_HP, fused: new Set() }); return
    case 'reinstated': Object.assign(robot, { at: key(event.at), facing: event.facing, hp: MAX_HP, mode: 'virtual', placedAfterTurn: world.turn }); return
    default: return
  }
}

function sharedSquares(robots: Map<string, ReplayedRobot>, where: string, problems: string[]): void {
  const real = new Map<string, string>()
  for (const [player, robot] of robots) {
    if (robot.mode !== 'real' || robot.at === null) continue
    const other = real.get(robot.at)
    if (other) problems.push(`${where}: ${other} and ${player} are both real on ${robot.at}`)
    real.set(robot.at, player)
  }
}

function compare(robots: Map<string, ReplayedRobot>, shown: readonly Shown[], where: string, problems: string[]): void {
  for (const robot of shown) {
    const r = robots.get(robot.player)
    const replayed = r && { at: r.at, facing: r.facing, hp: r.hp, mode: r.mode }
    const told = { at: key(robot.at), facing: robot.facing, hp: robot.hp, mode: robot.mode }
    if (JSON.stringify(replayed) !== JSON.stringify(told)) {
      problems.push(`${where}: the log leaves ${robot.player} ${JSON.stringify(replayed)}, the result shows ${JSON.stringify(told)}`)
    }
  }
}
