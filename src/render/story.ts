// A turn as a story: one plain line per player ("Alice: r3c6 → r5c6, shot by Bob (−1 HP),
// touched flag 2"), and the same words stage by stage for the planning preview. Pure: drawn only
// from the engine's event log and snapshots, like the report tables (src/engine/report.ts).
import type { GameEvent } from '../engine/events.js'
import { formatSquare } from '../engine/geometry.js'
import type { Direction, Square } from '../engine/types.js'
import { cardLabel } from './cards.js'

export interface StoryRobot { player: string; at: Square | null }

/** What a turn's story is told from: a TurnResult, or its page view. */
export interface StoryTurn {
  start: { robots: readonly StoryRobot[]; events?: readonly GameEvent[] }
  stages: readonly { events: readonly GameEvent[] }[]
  end: { events: readonly GameEvent[]; robots: readonly StoryRobot[] }
}

export interface StoryLine { player: string; name: string; text: string }

const FACING: Record<Direction, string> = { N: 'north', E: 'east', S: 'south', W: 'west' }
const where = (square: Square | null | undefined) => (square ? formatSquare(square) : 'off the board')

type Names = Readonly<Record<string, string>>

/** "−2 HP" with a real minus sign. */
const hp = (amount: number) => `\u2212${amount} HP`

/**
 * The things that happened to one player in these events, in order, in words. Own card moves
 * are left to the caller (the line starts with where the robot went); `withCards` adds them,
 * for the stage-by-stage preview.
 */
export function eventPhrases(events: readonly GameEvent[], player: string, names: Names, withCards = false): string[] {
  const name = (p: string | undefined) => (p === undefined ? 'someone' : names[p] ?? p)
  const out: string[] = []
  /** Whom the player's own laser hit: told last, after what happened to the robot itself. */
  const targets: string[] = []
  const once = (phrase: string) => { if (!out.includes(phrase)) out.push(phrase) }
  // Damage is added up per source, at the place the first point of it was told.
  const damage = new Map<string, { index: number; amount: number }>()
  const hurt = (what: string, amount: number) => {
    const seen = damage.get(what)
    if (seen) seen.amount += amount
    else { damage.set(what, { index: out.length, amount }); out.push(what) }
  }
  for (const event of events) {
    switch (event.kind) {
      case 'card-played':
        if (withCards && event.player === player) out.push(`${cardLabel(event.card)}${event.fused ? ' (fused)' : ''}`)
        break
      case 'moved':
        if (event.player !== player) break
        if (event.cause === 'card') { if (withCards) out.push(`to ${where(event.to)}`) }
        else if (event.cause === 'push') once(`pushed by ${name(event.by)} to ${where(event.to)}`)
        else if (event.cause === 'conveyor') out.push(`carried by a conveyor to ${where(event.to)}`)
        else if (event.cause === 'pusher') out.push(`shoved by a pusher to ${where(event.to)}`)
        break
      case 'teleported':
        if (event.player === player) out.push(`teleported (${event.colour}) to ${where(event.to)}`)
        break
      case 'turned':
        if (event.player !== player) break
        if (event.cause === 'card') { if (withCards) out.push(`now facing ${FACING[event.facing]}`) }
        else out.push(`turned by a ${event.cause} to face ${FACING[event.facing]}`)
        break
      case 'obstructed':
        if (event.player === player && (withCards || event.reason === 'fence')) {
          once(event.reason === 'robot' ? 'blocked by a robot' : event.reason === 'fence' ? 'stopped at the fence' : `blocked by a ${event.reason === 'bridge' ? 'drawbridge' : 'wall'}`)
        }
        break
      case 'damaged':
        if (event.player !== player) break
        hurt(event.source === 'robot-laser' ? `shot by ${name(event.by)}` : event.source === 'board-laser' ? 'hit by a board laser' : 'burnt by the fence', event.amount)
        break
      case 'robot-laser':
        if (event.player === player && event.hit && !targets.includes(name(event.hit))) targets.push(name(event.hit))
        break
      case 'destroyed':
        if (event.player !== player) break
        out.push(event.cause === 'pit' ? `fell into the pit at ${where(event.at)}`
          : event.cause === 'crusher' ? `crushed at ${where(event.at)}`
          : event.cause === 'drawbridge' ? `caught by the drawbridge at ${where(event.at)}`
          : `destroyed at ${where(event.at)}`)
        out.push(event.robotsLeft === 1 ? '1 robot left' : `${event.robotsLeft} robots left`)
        break
      case 'switch-flipped':
        if (event.player === player) out.push(`switched ${where(event.at)} ${event.on ? 'on' : 'off'}`)
        break
      case 'flag-tagged':
        if (event.player === player) out.push(`touched flag ${event.number}`)
        break
      case 'station-visited':
        if (event.player === player) out.push(event.unlocked ? `unlocked the ${event.unlocked} cards` : 'visited an upgrade station')
        break
      case 'option-sacrificed':
        if (event.player === player) out.push(`gave up ${event.option}`)
        break
      case 'option-taken':
        if (event.player === player) out.push(`took ${event.option}`)
        break
      case 'register-fused':
        if (event.player === player) out.push(`register ${event.register} fused`)
        break
      case 'register-unfused':
        if (event.player === player) out.push(`register ${event.register} freed`)
        break
      case 'repaired':
        if (event.player === player && event.amount > 0) out.push(`repaired ${event.amount} HP`)
        break
      case 'program-filled':
        if (event.player === player) out.push('no program came in: the server dealt the cards')
        break
      case 'reboot':
        if (event.player === player) out.push('rebooting')
        break
      case 'reinstated':
        if (event.player === player) out.push(`new robot at ${where(event.at)} facing ${FACING[event.facing]}`)
        break
      case 'player-out':
        if (event.player === player) out.push('out of the game')
        break
      case 'game-over':
        if (event.winners.includes(player)) out.push('won the game')
        break
      default:
        break
    }
  }
  for (const [what, { index, amount }] of damage) out[index] = `${what} (${hp(amount)})`
  for (const target of targets) out.push(`hit ${target}`)
  return out
}

/** All of a turn's events, in order. */
export function turnEvents(turn: StoryTurn): GameEvent[] {
  return [...(turn.start.events ?? []), ...turn.stages.flatMap((s) => s.events), ...turn.end.events]
}

/** One line per player, in seat order: where the robot went and what happened to it. */
export function turnStory(turn: StoryTurn, names: Names): StoryLine[] {
  const events = turnEvents(turn)
  return turn.start.robots.map((robot) => {
    const name = names[robot.player] ?? robot.player
    const end = turn.end.robots.find((r) => r.player === robot.player)
    const from = where(robot.at)
    const to = where(end?.at)
    // A robot off the board from start to end is out of the game: it "stayed on" nothing.
    const path = !robot.at && !end?.at ? 'off the board' : from === to ? `stayed on ${from}` : `${from} \u2192 ${to}`
    const phrases = eventPhrases(events, robot.player, names)
    return { player: robot.player, name, text: [path, ...phrases].join(', ') }
  })
}
