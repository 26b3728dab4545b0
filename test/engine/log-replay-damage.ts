// Damage and option sacrifice as the log tells them (R27, R28, R32, A13), checked point by point.
// A hit is taken one point at a time: while the robot holds an option and its HP is at or below its
// threshold, its oldest option goes instead of the point. The log tells a hit's sacrifices first and
// then the HP it lost, so a run of sacrifices stays open until that damage (or any other event) comes;
// two hits on one robot in one moment fold into one run, which gives the same points.
import type { GameEvent } from '../../src/engine/events.js'
import type { OptionName } from '../../src/engine/types.js'
import type { ReplayedRobot, Watch, World } from './log-replay-world.js'

/** A run of sacrifices and damage to one robot, from where it began. */
export interface OpenHit { player: string; hp: number; sacrificeAt: number; options: OptionName[]; sacrificed: OptionName[] }

/** Ends the open hit, if any, unless `event` belongs to it (a sacrifice or damage of the same robot). */
export function closeUnlessSameHit(hit: { open: OpenHit | null }, event: GameEvent, where: string, problems: string[]): void {
  const open = hit.open
  if (open && !('player' in event && event.player === open.player && (event.kind === 'option-sacrificed' || event.kind === 'damaged'))) {
    closeHit(hit, where, problems)
  }
}

export function sacrificed(world: World, hit: { open: OpenHit | null }, robot: ReplayedRobot, event: Extract<GameEvent, { kind: 'option-sacrificed' }>, where: string, problems: string[]): void {
  hit.open ??= openHit(event.player, robot)
  hit.open.sacrificed.push(event.option)
  if (robot.options[0] !== event.option) problems.push(`${where}: ${event.player} sacrificed ${event.option}, its oldest option is ${robot.options[0] ?? 'none'} (R28)`)
  robot.options = robot.options.filter((option) => option !== event.option)
  world.optionDeck.push(event.option) // R32: to the bottom of the deck
}

export function damaged(hit: { open: OpenHit | null }, robot: ReplayedRobot, event: Extract<GameEvent, { kind: 'damaged' }>, where: string, problems: string[]): void {
  hit.open ??= openHit(event.player, robot)
  closeHit(hit, where, problems, event.amount)
}

const openHit = (player: string, robot: ReplayedRobot): OpenHit =>
  ({ player, hp: robot.hp, sacrificeAt: robot.sacrificeAt, options: [...robot.options], sacrificed: [] })

/** The open hit's sacrifices and the HP it lost (`taken`) must be what its points, one by one, give. */
export function closeHit(hit: { open: OpenHit | null }, where: string, problems: string[], taken = 0): void {
  const open = hit.open
  if (!open) return
  hit.open = null
  let hp = open.hp
  const options = [...open.options]
  const gone: OptionName[] = []
  for (let point = 0; point < open.sacrificed.length + taken && hp > 0; point++) {
    if (options.length > 0 && hp <= open.sacrificeAt) gone.push(options.shift()!)
    else hp--
  }
  if (gone.join() !== open.sacrificed.join() || hp !== open.hp - taken) {
    problems.push(`${where}: ${open.player} at ${open.hp} HP (sacrifice at ${open.sacrificeAt}, holding ${open.options.join(', ') || 'nothing'}) lost ${taken} HP and ${open.sacrificed.join(', ') || 'no option'}; point by point it loses ${open.hp - hp} HP and ${gone.join(', ') || 'no option'} (R28)`)
  }
}

/**
 * R23, R26, R28: in the board-laser and combat steps, every robot takes, point by point, the
 * damage of the beams that hit it (a turret's strength, a robot laser's 1 or 2): HP lost and options
 * sacrificed together, fewer only if it is destroyed on the way (R11).
 */
export function beamDamageWatch(label: string, problems: string[]): Watch {
  const due = new Map<string, number>()
  const taken = new Map<string, number>()
  const destroyed = new Set<string>()
  let phase: string | null = null
  const add = (map: Map<string, number>, player: string, points: number) => map.set(player, (map.get(player) ?? 0) + points)
  const close = () => {
    for (const player of new Set([...due.keys(), ...taken.keys()])) {
      const called = due.get(player) ?? 0
      const shown = taken.get(player) ?? 0
      if (shown > called || (shown < called && !destroyed.has(player))) {
        problems.push(`${label} ${phase}: ${player} lost ${shown} point(s) to beams that did ${called} (R23, R26, R28)`)
      }
    }
    due.clear()
    taken.clear()
    destroyed.clear()
  }
  return {
    event(event) {
      const now = event.time.phase === 'board-laser' || event.time.phase === 'combat' ? event.time.phase : null
      if (now !== phase) {
        if (phase !== null) close()
        phase = now
      }
      if (phase === null) return
      if (event.kind === 'board-laser') for (const player of event.hits) add(due, player, event.strength)
      if (event.kind === 'robot-laser' && event.hit !== null) add(due, event.hit, event.damage)
      if (event.kind === 'damaged') add(taken, event.player, event.amount)
      if (event.kind === 'option-sacrificed') add(taken, event.player, 1)
      if (event.kind === 'destroyed') destroyed.add(event.player)
    },
    end() {
      if (phase !== null) close()
      phase = null
    },
  }
}
