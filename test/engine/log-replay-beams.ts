// Beams as the log shows them, against the board file and where the replayed robots stand (R23,
// R24, R26, R32, A5): each beam's squares and hits are worked out here on their own and must be
// exactly the log's.
import type { GameEvent } from '../../src/engine/events.js'
import { neighbour } from '../../src/engine/geometry.js'
import type { Direction, LaserColour, Square } from '../../src/engine/types.js'
import { key, onBoard, squareOf, type World } from './log-replay-world.js'

type Beam = Extract<GameEvent, { kind: 'robot-laser' | 'board-laser' }>

/** The players on a square: every robot on the floor, or the real ones only. */
export function playersOn(world: World, at: string, realOnly: boolean): string[] {
  return [...world.robots].filter(([, r]) => r.at === at && r.mode !== 'destroyed' && (!realOnly || r.mode === 'real')).map(([player]) => player)
}

/**
 * The squares a beam crosses from `first` towards `dir`: on until a wall, the edge, or (not
 * crossed, A5) a raised drawbridge; it stops after the first square `stops` says it stops on.
 */
function path(world: World, first: Square, dir: Direction, stops: (at: string) => boolean): string[] {
  const squares: string[] = []
  for (let at = first; onBoard(world, at); at = neighbour(at, dir)) {
    const square = key(at)!
    if (world.floor.get(square)?.type === 'drawbridge' && !world.lowered.has(square)) break
    squares.push(square)
    if (stops(square) || world.walls.has(`${square} ${dir}`)) break
  }
  return squares
}

/**
 * A robot's laser starts in the square in front (unless a wall stands between), passes virtual
 * robots and stops at the first real robot, which it hits for 1, or 2 with Double Laser (R24, R26,
 * R32). A turret's beam crosses its own square first; a blue one stops at the first square holding
 * any robot and hits them all, a red one hits every robot on its way (R23).
 */
/** The squares a turret's beam crosses: its own first; a blue beam stops on the first square holding any robot (R23). */
export function boardBeam(world: World, from: Square, dir: Direction, colour: LaserColour): string[] {
  return path(world, from, dir, (at) => colour === 'blue' && playersOn(world, at, false).length > 0)
}

export function beamProblems(world: World, event: Beam, where: string): string[] {
  let squares: string[]
  let told: string
  let due: string
  if (event.kind === 'robot-laser') {
    const shooter = world.robots.get(event.player)
    if (shooter?.mode !== 'real' || shooter.at === null) return [`${where}: ${event.player} fired, ${shooter?.mode ?? 'unknown'}`]
    const from = squareOf(shooter.at)
    squares = world.walls.has(`${shooter.at} ${event.dir}`) ? [] : path(world, neighbour(from, event.dir), event.dir, (at) => playersOn(world, at, true).length > 0)
    const hit = squares.length > 0 ? playersOn(world, squares.at(-1)!, true)[0] ?? null : null
    due = `squares ${squares.join(' ')}, hit ${hit} for ${hit === null ? 0 : shooter.options.includes('Double Laser') ? 2 : 1}`
    told = `squares ${event.squares.map((s) => key(s)).join(' ')}, hit ${event.hit} for ${event.damage}`
  } else {
    squares = boardBeam(world, event.from, event.dir, event.colour)
    const hits = squares.flatMap((at) => playersOn(world, at, false)).sort()
    due = `squares ${squares.join(' ')}, hits ${hits.join(' ')}`
    told = `squares ${event.squares.map((s) => key(s)).join(' ')}, hits ${[...event.hits].sort().join(' ')}`
  }
  return told === due ? [] : [`${where}: ${event.kind === 'robot-laser' ? `${event.player}'s laser` : `the ${event.colour} beam from ${key(event.from)}`} ${event.dir}: the log has ${told}; R23-R26 call for ${due}`]
}
