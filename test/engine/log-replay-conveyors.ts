// The conveyor steps as the log tells them, against what R18, R19 and R24 call for, worked out on
// their own from the board file and the replayed robots: in the express step every robot on a blue
// belt rides, in the common step every robot on any belt; a wall, a raised bridge side or the fence
// stops a rider; among real robots, several riders into one square move only the one going the
// way of the belt there (none if it is no belt), a rider into a square whose real robot stays
// stays too, and two riders swapping squares both stay; virtual robots ride unless a wall or the
// fence stops them, and stop nobody. A rider that lands on a belt turned a quarter from its own
// turns with it, unless it has a Gyroscope (R32).
//
// A step is judged on the robots as they stand after its fence contacts (a robot the fence
// destroys frees its square for the robots behind it, R19) and before its first move.
import { PHASES, type GameEvent } from '../../src/engine/events.js'
import { neighbour, quarterTurnBetween, turnLeft, turnRight } from '../../src/engine/geometry.js'
import type { ConveyorElement, Direction } from '../../src/engine/types.js'
import { barrier, key, squareOf, type Watch, type World } from './log-replay-world.js'

interface Ride { player: string; from: string; to: string; dir: Direction; real: boolean; moves: boolean }

const CONVEYOR = PHASES.indexOf('conveyor')

/** What one conveyor step must do: each move and each turn, in words. */
function conveyorStep(world: World, express: boolean): string[] {
  const belt = (at: string) => {
    const element = world.floor.get(at)
    return element?.type === 'conveyor' ? (element as ConveyorElement) : null
  }
  const rides: Ride[] = []
  for (const [player, robot] of world.robots) {
    if (robot.at === null || robot.mode === 'destroyed') continue
    const on = belt(robot.at)
    if (!on || (express && on.colour !== 'blue')) continue
    const to = key(neighbour(squareOf(robot.at), on.dir))!
    if (barrier(world, robot.at, on.dir) === null) rides.push({ player, from: robot.at, to, dir: on.dir, real: robot.mode === 'real', moves: true })
  }
  const real = rides.filter((ride) => ride.real)
  // Several real riders into one square: only the one going the way of the belt there.
  for (const ride of real) {
    const rivals = real.filter((other) => other.to === ride.to)
    if (rivals.length > 1 && belt(ride.to)?.dir !== ride.dir) ride.moves = false
  }
  // Into a square whose real robot stays, or swapping squares: the rider stays. Until nothing changes.
  const realOn = (at: string) => [...world.robots].find(([, r]) => r.at === at && r.mode === 'real')?.[0] ?? null
  for (let changed = true; changed;) {
    changed = false
    for (const ride of real) {
      if (!ride.moves) continue
      const occupant = realOn(ride.to)
      if (occupant === null || occupant === ride.player) continue
      const theirs = real.find((other) => other.player === occupant)
      if (!theirs || !theirs.moves || theirs.to === ride.from) {
        ride.moves = false
        changed = true
      }
    }
  }
  const words: string[] = []
  for (const ride of rides) {
    if (!ride.moves) continue
    words.push(`${ride.player} rode ${ride.from} to ${ride.to}`)
    const landing = belt(ride.to)
    const robot = world.robots.get(ride.player)!
    if (!landing || robot.options.includes('Gyroscope')) continue
    const quarter = quarterTurnBetween(ride.dir, landing.dir)
    if (quarter === 1) words.push(`${ride.player} turned ${turnRight(robot.facing)}`)
    if (quarter === -1) words.push(`${ride.player} turned ${turnLeft(robot.facing)}`)
  }
  return words
}

function said(event: GameEvent): string | null {
  if (event.kind === 'moved' && event.cause === 'conveyor') return `${event.player} rode ${key(event.from)} to ${key(event.to)}`
  if (event.kind === 'turned' && event.cause === 'conveyor') return `${event.player} turned ${event.facing}`
  return null
}

/** Watches one stage's events (before each is applied) and judges its two conveyor steps. */
export function conveyorWatch(world: World, label: string, problems: string[]): Watch {
  let step = 1
  let due: string[] | null = null
  let seen: string[] = []
  const close = () => {
    const called = [...(due ?? conveyorStep(world, step === 1))].sort()
    if (called.join('; ') !== [...seen].sort().join('; ')) {
      problems.push(`${label} conveyor step ${step}: the log shows ${seen.join('; ') || 'nothing'}; R18, R19, R24 call for ${called.join('; ') || 'nothing'}`)
    }
    step++
    due = null
    seen = []
  }
  return {
    event(event: GameEvent) {
      const phase = PHASES.indexOf(event.time.phase)
      while (step <= 2 && (phase > CONVEYOR || (phase === CONVEYOR && event.time.step > step))) close()
      if (step > 2 || phase !== CONVEYOR || event.time.step !== step) return
      if (event.kind === 'moved' && due === null) due = conveyorStep(world, step === 1)
      const words = said(event)
      if (words !== null) seen.push(words)
    },
    end() {
      while (step <= 2) close()
    },
  }
}
