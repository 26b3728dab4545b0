// What the floor does to a robot that enters a square (R14–R17), judged from the replayed world
// (log-replay-world.ts): a move onto a pit or a raised drawbridge must destroy the robot, a move
// onto a switch must flip it (a pressure switch only once) and the flip must lower its drawbridges
// and work its teleporters, and a move onto an active teleporter must send the robot on to the next
// one in order of colour that is active and holds no robot. Each move says what must follow within
// the same moment; the log must show exactly that, no more and no less.
import type { GameEvent } from '../../src/engine/events.js'
import { key, someoneOn, type World } from './log-replay-world.js'

type Moved = Extract<GameEvent, { kind: 'moved' }>

/**
 * A robot has moved. What its new square does follows at once, except on a belt or a pusher: a
 * belt moves its robots all at once (R18), and so do the pushers of a stage (R20), and then each
 * square acts on the robot that arrived, in seat order (A24, A3), so what one arrival does can
 * change what the next does (a toggle switch two robots ride onto flips twice, a teleporter it works
 * may be off for a robot arriving after, and a robot a teleporter sends away leaves its square to
 * the robots arriving after it). Such an arrival is judged when the floor next acts on the robot in
 * the log (a belt's own turn of the robot comes before any arrival), or when the moment ends.
 */
export function moved(world: World, event: Moved): void {
  if (event.cause === 'conveyor' || event.time.phase === 'pusher') world.arrivals.set(event.player, event)
  else expectArrival(world, event)
}

/**
 * Judges the arrivals still waiting, on the board as it stands now, in seat order (A24, A3), up to
 * and including `player`'s (all of them when null).
 */
export function settleArrivals(world: World, player: string | null): void {
  if (player !== null && !world.arrivals.has(player)) return
  for (const who of world.robots.keys()) {
    const event = world.arrivals.get(who)
    if (!event) continue
    world.arrivals.delete(who)
    expectArrival(world, event)
    if (who === player) return
  }
}

/** What entering its new square makes the floor do: the events that must follow in the same moment. */
function expectArrival(world: World, event: Moved): void {
  const to = key(event.to)!
  const element = world.floor.get(to)
  if (!element) return
  const player = event.player
  if (element.type === 'pit') world.expected.push(`${player} destroyed by pit on ${to}`)
  if (element.type === 'drawbridge' && !world.lowered.has(to)) world.expected.push(`${player} destroyed by drawbridge on ${to}`)
  if (element.type === 'switch' && (element.kind === 'toggle' || !world.switchedOn.has(to))) {
    world.expected.push(`${player} flipped ${to} ${world.switchedOn.has(to) ? 'off' : 'on'}`)
  }
  if (element.type === 'teleporter' && world.active.has(to)) {
    // A21: a pushed robot's old square is being stepped into by the robot behind it, and the robot
    // whose card step pushes it is stepping out of its own. (In a pusher phase the squares act
    // after every push, A3: the pusher has moved, and may have been teleported on since.)
    const taken = event.cause === 'push' ? key(event.from) : null
    const leaving = event.cause === 'push' && event.time.phase === 'movement' ? event.by ?? null : null
    const ring = world.teleporters
    const start = ring.findIndex((t) => key(t.at) === to)
    for (let i = 1; i < ring.length; i++) {
      const next = key(ring[(start + i) % ring.length]!.at)!
      if (next !== taken && world.active.has(next) && !someoneOn(world, next, player, leaving)) {
        world.expected.push(`${player} teleported from ${to} to ${next}`)
        return
      }
    }
  }
}

/** What a floor event says, in the words expectArrival uses; null for events it does not judge. */
function said(event: GameEvent): string | null {
  switch (event.kind) {
    case 'destroyed': return event.cause === 'pit' || event.cause === 'drawbridge' ? `${event.player} destroyed by ${event.cause} on ${key(event.at)}` : null
    case 'switch-flipped': return `${event.player} flipped ${key(event.at)} ${event.on ? 'on' : 'off'}`
    case 'teleported': return `${event.player} teleported from ${key(event.from)} to ${key(event.to)}`
    case 'drawbridge-lowered': return `drawbridge ${key(event.at)} lowered`
    case 'teleporter-changed': return `teleporter ${key(event.at)} ${event.active ? 'active' : 'inactive'}`
    default: return null
  }
}

/**
 * Checks a floor event against what the moves before it call for, and plays it on the board: a
 * switch that flips calls for its targets (R16: a pressure switch lowers its drawbridges and makes
 * its teleporters active; a toggle switch flips its teleporters).
 */
export function floorEvent(world: World, event: GameEvent, where: string, problems: string[]): void {
  const words = said(event)
  if (words === null) return
  if ('player' in event) settleArrivals(world, event.player)
  const i = world.expected.indexOf(words)
  if (i >= 0) world.expected.splice(i, 1)
  else problems.push(`${where}: ${words}, which no move called for (R14-R17)`)
  if (event.kind === 'switch-flipped') {
    const at = key(event.at)!
    if (event.on) world.switchedOn.add(at)
    else world.switchedOn.delete(at)
    const element = world.floor.get(at)
    if (element?.type !== 'switch') return
    for (const target of element.targets.map((t) => key(t)!)) {
      const floor = world.floor.get(target)?.type
      if (floor === 'drawbridge' && !world.lowered.has(target)) world.expected.push(`drawbridge ${target} lowered`)
      if (floor === 'teleporter') {
        const active = element.kind === 'pressure' ? true : !world.active.has(target)
        if (active !== world.active.has(target)) world.expected.push(`teleporter ${target} ${active ? 'active' : 'inactive'}`)
      }
    }
  }
  if (event.kind === 'drawbridge-lowered') world.lowered.add(key(event.at)!)
  if (event.kind === 'teleporter-changed') {
    if (event.active) world.active.add(key(event.at)!)
    else world.active.delete(key(event.at)!)
  }
}

/** At the end of a moment: whatever the moves called for and the log did not show. */
export function floorLeftovers(world: World, where: string, problems: string[]): void {
  settleArrivals(world, null)
  for (const words of world.expected) problems.push(`${where}: the log does not show: ${words} (R14-R17)`)
  world.expected = []
}
