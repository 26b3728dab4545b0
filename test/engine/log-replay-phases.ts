// What each step of a stage, and the end of the turn, must do, worked out from the replayed world
// (log-replay-world.ts) as the step begins, in words that its events are then matched against:
// gears turn (R21, R32 Gyroscope), crushers destroy (R22), board lasers hit (R23), robots fire (R26, R32), checkpoints are
// touched (R6, R30), virtual robots become real (R25, A8), robots are repaired or take options
// (R31, A10, A12), reboot (R33) and come back (R29). Every robot the rule names must show in the log, and no other.
import { PHASES, type GameEvent, type Phase } from '../../src/engine/events.js'
import { opposite, turnLeft, turnRight } from '../../src/engine/geometry.js'
import { CARD_SETS, MAX_HP } from '../../src/engine/types.js'
import { boardBeam, playersOn } from './log-replay-beams.js'
import { key, someoneOn, type ReplayedRobot, type Watch, type World } from './log-replay-world.js'

export interface PhaseCheck {
  phase: Phase
  /** The rulings it checks, for the message. */
  rules: string
  /** What must happen in the phase, from the world as it begins. */
  due(world: World, stage: number): string[]
  /** What an event of the phase did, in the same words; null for events the check does not judge. */
  seen(event: GameEvent): string | null
}

const onFloor = (robot: ReplayedRobot): robot is ReplayedRobot & { at: string } => robot.at !== null && robot.mode !== 'destroyed'

function each(world: World, pick: (player: string, robot: ReplayedRobot & { at: string }) => string[] | string | null): string[] {
  const out: string[] = []
  for (const [player, robot] of world.robots) if (onFloor(robot)) out.push(...[pick(player, robot) ?? []].flat())
  return out
}

const GEAR_TURNS = { left: turnLeft, right: turnRight, uturn: opposite } as const

const gears: PhaseCheck = {
  phase: 'gear', rules: 'R21, R32',
  due: (world) => each(world, (player, robot) => {
    const gear = world.floor.get(robot.at)
    return gear?.type === 'gear' && !robot.options.includes('Gyroscope') ? `${player} turned ${GEAR_TURNS[gear.turn](robot.facing)}` : null
  }),
  seen: (e) => (e.kind === 'turned' && e.cause === 'gear' ? `${e.player} turned ${e.facing}` : null),
}

const crushers: PhaseCheck = {
  phase: 'crusher', rules: 'R22',
  due: (world, stage) => each(world, (player, robot) => {
    const crusher = world.floor.get(robot.at)
    return crusher?.type === 'crusher' && (crusher.stages as number[]).includes(stage) ? `${player} crushed on ${robot.at}` : null
  }),
  seen: (e) => (e.kind === 'destroyed' && e.cause === 'crusher' ? `${e.player} crushed on ${key(e.at)}` : null),
}

/**
 * R23, A5, A6: every turret fires across its own square and on until a wall, a raised drawbridge
 * (its square not crossed) or the edge; a blue beam hits every robot on the first square that holds
 * one, a red beam every robot on its way. The log shows the beams that hit someone.
 */
const boardLasers: PhaseCheck = {
  phase: 'board-laser', rules: 'R23, A5, A6',
  due: (world) => world.lasers.flatMap((laser) => {
    const hits = boardBeam(world, laser.at, laser.dir, laser.colour).flatMap((at) => playersOn(world, at, false))
    return hits.length > 0 ? [`${key(laser.at)} ${laser.dir} hit ${hits.sort().join(' ')}`] : []
  }),
  seen: (e) => (e.kind === 'board-laser' ? `${key(e.from)} ${e.dir} hit ${[...e.hits].sort().join(' ')}` : null),
}

const combat: PhaseCheck = {
  phase: 'combat', rules: 'R26, R32',
  due: (world) => each(world, (player, robot) => {
    if (robot.mode !== 'real' || robot.rebooting) return null
    return robot.options.includes('Rear Laser') ? [`${player} fired ${robot.facing}`, `${player} fired ${opposite(robot.facing)}`] : `${player} fired ${robot.facing}`
  }),
  seen: (e) => (e.kind === 'robot-laser' ? `${e.player} fired ${e.dir}` : null),
}

/** R6: one card set for every two different stations, in order. */
const setsFor = (stations: number) => Math.min(CARD_SETS.length, Math.floor(stations / 2))

const checkpoints: PhaseCheck = {
  phase: 'checkpoint', rules: 'R6, R30',
  due: (world) => each(world, (player, robot) => {
    if (robot.rebooting) return null
    const element = world.floor.get(robot.at)
    const out: string[] = []
    if ((element?.type === 'flag' || element?.type === 'wrench') && robot.checkpoint !== robot.at) out.push(`${player} checkpoint ${robot.at}`)
    if (element?.type === 'flag' && element.number === robot.flags + 1) out.push(`${player} tagged flag ${element.number} on ${robot.at}`)
    if (element?.type === 'upgrade' && !robot.stations.includes(robot.at)) {
      const unlocked = setsFor(robot.stations.length + 1) > setsFor(robot.stations.length) ? CARD_SETS[setsFor(robot.stations.length + 1) - 1] : null
      out.push(`${player} visited ${robot.at} unlocking ${unlocked}`)
    }
    return out
  }),
  seen: (e) => {
    if (e.kind === 'checkpoint') return `${e.player} checkpoint ${key(e.at)}`
    if (e.kind === 'flag-tagged') return `${e.player} tagged flag ${e.number} on ${key(e.at)}`
    if (e.kind === 'station-visited') return `${e.player} visited ${key(e.at)} unlocking ${e.unlocked}`
    return null
  },
}

const modes: PhaseCheck = {
  phase: 'mode', rules: 'R25, A8',
  due: (world, stage) => each(world, (player, robot) => {
    const firstFullTurn = robot.placedAfterTurn + 1
    const longEnough = world.turn > firstFullTurn || (world.turn === firstFullTurn && stage === 5)
    return robot.mode === 'virtual' && longEnough && !someoneOn(world, robot.at, player) ? `${player} became real` : null
  }),
  seen: (e) => (e.kind === 'became-real' ? `${e.player} became real` : null),
}

/** R31, A10, A12: in seat order, +1 HP per wrench and +1 on a flag, up to 10; on a double wrench, the top option instead for a player who chose options, while the deck has one. */
const repairs: PhaseCheck = {
  phase: 'end', rules: 'R31, A10, A12',
  due: (world) => {
    const deck = [...world.optionDeck]
    return each(world, (player, robot) => {
      const element = world.floor.get(robot.at)
      if (robot.rebooting || (element?.type !== 'wrench' && element?.type !== 'flag')) return null
      if (element.type === 'wrench' && element.count === 2 && robot.doubleWrench === 'option' && deck.length > 0) return `${player} took ${deck.shift()}`
      const healed = Math.min(MAX_HP, robot.hp + (element.type === 'flag' ? 1 : element.count)) - robot.hp
      return healed > 0 ? `${player} repaired ${healed}` : null
    })
  },
  seen: (e) => (e.kind === 'option-taken' ? `${e.player} took ${e.option}` : e.kind === 'repaired' ? `${e.player} repaired ${e.amount}` : null),
}

/**
 * R29: at the end of the turn a robot destroyed in it comes back, virtual, on its checkpoint (the
 * start square if none) facing the start's way, while its player has robots left; a player who
 * lost the last one in this turn is out. (Judged after the repairs, which touch no destroyed robot.)
 */
const reinstatements: PhaseCheck = {
  phase: 'end', rules: 'R29',
  due: (world) => [...world.robots].flatMap(([player, robot]) => {
    if (robot.mode !== 'destroyed') return []
    if (robot.robotsLeft > 0) return [`${player} reinstated on ${robot.checkpoint ?? key(world.start.at)} facing ${world.start.facing}`]
    return robot.outAtStart ? [] : [`${player} out`]
  }),
  seen: (e) => (e.kind === 'reinstated' ? `${e.player} reinstated on ${key(e.at)} facing ${e.facing}` : e.kind === 'player-out' ? `${e.player} out` : null),
}

/** R33: after the repairs, a robot still on the board whose orders declared a reboot reboots; destroyed, its reboot lapses. */
const reboots: PhaseCheck = {
  phase: 'end', rules: 'R33',
  due: (world) => each(world, (player) => (world.rebootsDeclared.has(player) ? `${player} reboots` : null)),
  seen: (e) => (e.kind === 'reboot' ? `${e.player} reboots` : null),
}

export const STAGE_CHECKS: readonly PhaseCheck[] = [gears, crushers, boardLasers, combat, checkpoints, modes]
export const END_CHECKS: readonly PhaseCheck[] = [repairs, reboots, reinstatements]

/**
 * Runs checks alongside a replay (a Watch). What a check calls for is worked out at the first event of its phase or later (so
 * from the world as the phase begins), or at the end if no such event came.
 */
export function phaseWatch(world: World, checks: readonly PhaseCheck[], stage: number, label: string, problems: string[]): Watch {
  const due: (string[] | null)[] = checks.map(() => null)
  const seen: string[][] = checks.map(() => [])
  return {
    event(event: GameEvent) {
      const at = PHASES.indexOf(event.time.phase)
      checks.forEach((check, i) => {
        if (due[i] === null && at >= PHASES.indexOf(check.phase)) due[i] = check.due(world, stage)
        const words = event.time.phase === check.phase ? check.seen(event) : null
        if (words !== null) seen[i]!.push(words)
      })
    },
    end() {
      checks.forEach((check, i) => {
        const called = [...(due[i] ?? check.due(world, stage))].sort()
        const shown = [...seen[i]!].sort()
        if (called.join('; ') !== shown.join('; ')) {
          problems.push(`${label} ${check.phase}: the log shows ${shown.join('; ') || 'nothing'}; ${check.rules} call for ${called.join('; ') || 'nothing'}`)
        }
      })
    },
  }
}
