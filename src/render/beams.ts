// Laser beams: the standing beam of every turret across the squares it covers (R23), and the
// shots fired in a stage, read from its 'board-laser' and 'robot-laser' events (R23, R26).
// Nothing here re-runs a rule: the standing beam is only the reach of the turret (walls, the
// edge and raised drawbridges stop it), and shots are drawn from the squares the events list.
import { squareIndex } from '../engine/board.js'
import type { GameEvent } from '../engine/events.js'
import { openLength, rayFrom } from '../engine/rays.js'
import type { Board, BoardState, Direction, LaserElement, RobotSnapshot, Square } from '../engine/types.js'
import { LASER_STYLE } from './symbols.js'
import { centre, esc, n, sq, U, vector, type Layout } from './util.js'

/** The squares a turret's beam covers: its own square first, then on until a wall, the edge or a raised drawbridge. */
export function beamSquares(board: Board, state: BoardState, laser: LaserElement): Square[] {
  const ray = rayFrom(board, laser.dir, squareIndex(board, laser.at))
  return [laser.at, ...ray.squares.slice(0, openLength(board, state, ray))]
}

/** The point where a run of squares in `dir` begins (on the side it is entered from) or ends, plus an inset. */
function edgePoint(layout: Layout, square: Square, dir: Direction, end: 'enter' | 'leave', inset: number): { x: number; y: number } {
  const c = centre(layout, square)
  const v = vector(dir)
  const sign = end === 'leave' ? 1 : -1
  const reach = U / 2 - inset
  return { x: c.x + v.dx * reach * sign, y: c.y + v.dy * reach * sign }
}

function parallelLines(from: { x: number; y: number }, to: { x: number; y: number }, dir: Direction, count: number, gap: number, attrs: string): string {
  const v = vector(dir)
  const lines: string[] = []
  for (let i = 0; i < count; i++) {
    const off = (i - (count - 1) / 2) * gap
    const ox = -v.dy * off
    const oy = v.dx * off
    lines.push(`<line x1="${n(from.x + ox)}" y1="${n(from.y + oy)}" x2="${n(to.x + ox)}" y2="${n(to.y + oy)}"${attrs}/>`)
  }
  return lines.join('')
}

/** The standing beam of each turret: thin translucent lines, one per point of strength. */
export function standingBeams(board: Board, state: BoardState, layout: Layout): string {
  return board.lasers.map((laser) => {
    const squares = beamSquares(board, state, laser)
    // From the turret's nozzle (a little in front of the wall behind it) to the far side of the last square.
    const from = edgePoint(layout, laser.at, laser.dir, 'enter', 38)
    const to = edgePoint(layout, squares[squares.length - 1]!, laser.dir, 'leave', 2)
    const colour = LASER_STYLE[laser.colour]
    return `<g class="beam" data-square="${sq(laser.at)}" data-dir="${laser.dir}" data-colour="${laser.colour}" data-squares="${squares.map(sq).join(' ')}" opacity="0.55">` +
      parallelLines(from, to, laser.dir, laser.strength, 7, ` stroke="${colour}" stroke-width="3" stroke-linecap="round"`) + '</g>'
  }).join('')
}

/** A small burst; `cls` marks it for queries. */
export function hitMarker(x: number, y: number, colour: string, radius = 16): string {
  const points: string[] = []
  for (let i = 0; i < 16; i++) {
    const a = (i / 16) * Math.PI * 2
    const r = i % 2 === 0 ? radius : radius * 0.45
    points.push(`${n(x + r * Math.sin(a))},${n(y - r * Math.cos(a))}`)
  }
  return `<polygon points="${points.join(' ')}" fill="#fff36b" stroke="${colour}" stroke-width="3" stroke-linejoin="round"/>`
}

/** Direction of travel from one square to the next of a straight run. */
function runDirection(squares: Square[], fallback: Direction): Direction {
  if (squares.length < 2) return fallback
  const [a, b] = [squares[0]!, squares[1]!]
  return b.row > a.row ? 'N' : b.row < a.row ? 'S' : b.col > a.col ? 'E' : 'W'
}

/** The shots of a stage: beams to draw under the robots, and hit bursts to draw over them. */
export interface Shots {
  lines: string
  hits: string
}

/** A burst at the rim of the robot disc the beam reaches, so the robot itself stays readable. */
function hit(layout: Layout, square: Square, dir: Direction, colour: string, kind: string, player: string): string {
  const c = centre(layout, square)
  const v = vector(dir)
  return `<g class="hit" data-shot="${kind}" data-player="${esc(player)}" data-square="${sq(square)}">` +
    hitMarker(c.x - v.dx * 28, c.y - v.dy * 28, colour) + '</g>'
}

/**
 * The shots of a stage: every 'board-laser' and 'robot-laser' event with at least one square,
 * drawn over those squares, with a burst where a robot was hit. Robot lasers take the
 * shooter's colour so one can tell who fired.
 */
export function shots(events: readonly GameEvent[], layout: Layout, robots: readonly RobotSnapshot[], colourOf: (player: string) => string): Shots {
  const lines: string[] = []
  const hits: string[] = []
  const squareOf = (player: string): Square | null => robots.find((r) => r.player === player && r.mode !== 'destroyed')?.at ?? null
  for (const event of events) {
    if (event.kind === 'robot-laser') {
      if (event.squares.length === 0) continue
      const dir = runDirection(event.squares, event.dir)
      const first = event.squares[0]!
      const last = event.squares[event.squares.length - 1]!
      const from = edgePoint(layout, first, dir, 'enter', 0)
      const to = event.hit ? centre(layout, last) : edgePoint(layout, last, dir, 'leave', 2)
      const colour = colourOf(event.player)
      lines.push(`<g class="shot robot-laser" data-player="${esc(event.player)}" data-dir="${dir}" data-squares="${event.squares.map(sq).join(' ')}"${event.hit ? ` data-hit="${esc(event.hit)}"` : ''}>` +
        parallelLines(from, to, dir, 1, 0, ' stroke="#ffffff" stroke-width="12" stroke-linecap="round" opacity="0.85"') +
        parallelLines(from, to, dir, 1, 0, ` stroke="${colour}" stroke-width="6" stroke-linecap="round"`) + '</g>')
      if (event.hit) hits.push(hit(layout, last, dir, colour, 'robot-laser', event.hit))
    } else if (event.kind === 'board-laser') {
      if (event.squares.length === 0) continue
      const dir = event.dir
      const last = event.squares[event.squares.length - 1]!
      const from = edgePoint(layout, event.squares[0]!, dir, 'enter', 30)
      // A blue beam ends in the square it stopped at; a red one runs on through its last square.
      const to = event.colour === 'blue' ? centre(layout, last) : edgePoint(layout, last, dir, 'leave', 2)
      const colour = LASER_STYLE[event.colour]
      lines.push(`<g class="shot board-laser" data-square="${sq(event.squares[0]!)}" data-dir="${dir}" data-colour="${event.colour}" data-squares="${event.squares.map(sq).join(' ')}" data-hits="${esc(event.hits.join(' '))}">` +
        parallelLines(from, to, dir, event.strength, 8, ' stroke="#ffffff" stroke-width="9" stroke-linecap="round" opacity="0.8"') +
        parallelLines(from, to, dir, event.strength, 8, ` stroke="${colour}" stroke-width="5" stroke-linecap="round"`) + '</g>')
      for (const player of event.hits) {
        // A robot destroyed by the shot has left the board: mark the square where the beam ended.
        const at = squareOf(player)
        const square = at && event.squares.some((s) => s.row === at.row && s.col === at.col) ? at : last
        hits.push(hit(layout, square, dir, colour, 'board-laser', player))
      }
    }
  }
  return { lines: lines.join(''), hits: hits.join('') }
}
