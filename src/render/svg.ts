// boardSvg: a board, and optionally its robots, mechanism state and a stage's shots, as one SVG
// string. Pure and deterministic: the same input always gives the same bytes (no ids, no
// clock), so a picture's URL can be cached forever once its turn is published.
//
// Layers, bottom to top: floor grid, floor elements, switch links, standing laser beams,
// walls/pushers/turrets, shots, robots, hit bursts, labels. Every element is a group with a
// class naming its type and a data-square naming its square (R1), so tests and pages can
// query the picture.
import { initialBoardState, isOnBoard, squareIndex } from '../engine/board.js'
import type { GameEvent } from '../engine/events.js'
import { wallBetween } from '../engine/floor.js'
import { neighbour, opposite } from '../engine/geometry.js'
import type { TurnResult } from '../engine/turn.js'
import { DIRECTIONS, type Board, type BoardState, type Direction, type FloorElement, type RobotSnapshot, type Square } from '../engine/types.js'
import { shots, standingBeams } from './beams.js'
import { markOf, robotFill } from './robot-looks.js'
import { drawRobots, type RobotLook } from './robots.js'
import {
  conveyorSymbol, crusherSymbol, drawbridgeSymbol, flagSymbol, gearSymbol, laserSymbol, pitSymbol,
  pusherSymbol, startSymbol, switchSymbol, teleporterSymbol, upgradeSymbol, wallSymbol, wrenchSymbol, type Place,
} from './symbols.js'
import { centre, DEFAULT_PALETTE, esc, FONT, label, makeLayout, n, origin, sq, U, type Layout } from './util.js'

export interface BoardSvgOptions {
  /** Robots to draw (a stage's snapshots); destroyed ones are skipped. */
  robots?: RobotSnapshot[]
  /** Switches, drawbridges and teleporters as they stand; default: as the board starts (R15, R16). */
  boardState?: BoardState
  /** Events of the stage; its 'robot-laser' and 'board-laser' shots are drawn. */
  events?: GameEvent[]
  /** Player → CSS colour. Players not named get a colour from the default palette. */
  colours?: Record<string, string>
  /** Player → display name (the robot's initial comes from it). */
  names?: Record<string, string>
  title?: string
  /** The viewer's own robot, drawn with a bright ring (class "mine"). */
  highlight?: string
  /** Pixels per square in the width/height attributes (default 40). */
  squareSize?: number
}

export const DEFAULT_SQUARE_SIZE = 40

/**
 * The robots, mechanisms and events of one picture of a turn: stage 0 is the turn's start
 * (before stage 1), stages 1–5 the end of that stage with its shots. Null past the last stage played.
 */
export function stageView(result: TurnResult, stage: number): Pick<BoardSvgOptions, 'robots' | 'boardState' | 'events'> | null {
  if (stage === 0) return { robots: result.start.robots, boardState: result.start.board, events: [] }
  const played = result.stages.find((s) => s.stage === stage)
  return played ? { robots: played.robots, boardState: played.board, events: played.events } : null
}

/** Sides of a conveyor from which another conveyor runs into it, with no wall between (R18). */
export function conveyorFeeders(board: Board, at: Square, dir: Direction): Direction[] {
  const feeders: Direction[] = []
  for (const side of DIRECTIONS) {
    if (side === dir) continue
    const from = neighbour(at, side)
    if (!isOnBoard(board, from) || wallBetween(board, at, side)) continue
    const other = board.floor[squareIndex(board, from)]
    if (other?.type === 'conveyor' && other.dir === opposite(side)) feeders.push(side)
  }
  return feeders
}

/** For each switch target, the switch squares that work it (the rules write them in the target square). */
function switchesByTarget(board: Board): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const element of board.elements) {
    if (element.type !== 'switch') continue
    for (const target of element.targets) {
      const key = sq(target)
      map.set(key, [...(map.get(key) ?? []), sq(element.at)])
    }
  }
  return map
}

function floorSymbol(board: Board, element: FloorElement, place: Place, state: BoardState, controllers: Map<string, string[]>): string {
  const key = place.square
  const switchAt = controllers.get(key) ?? []
  switch (element.type) {
    case 'pit': return pitSymbol(place)
    case 'conveyor': return conveyorSymbol(place, element.dir, element.colour, conveyorFeeders(board, element.at, element.dir))
    case 'gear': return gearSymbol(place, element.turn)
    case 'crusher': return crusherSymbol(place, element.stages)
    case 'drawbridge': return drawbridgeSymbol(place, element.side, state.drawbridges[key] ?? 'raised', switchAt)
    case 'teleporter': return teleporterSymbol(place, element.colour, state.teleporters[key] ?? (element.active ? 'active' : 'inactive'), switchAt)
    case 'switch': return switchSymbol(place, element.kind, state.switches[key] ?? 'off', element.targets.map(sq))
    case 'wrench': return wrenchSymbol(place, element.count)
    case 'flag': return flagSymbol(place, element.number)
    case 'upgrade': return upgradeSymbol(place)
  }
}

function placeOf(layout: Layout, square: Square): Place {
  const o = origin(layout, square)
  return { x: o.x, y: o.y, square: sq(square) }
}

function grid(layout: Layout): string {
  const x0 = layout.left
  const y0 = layout.top
  const w = layout.cols * U
  const h = layout.rows * U
  const squares: string[] = []
  for (let row = layout.rows; row >= 1; row--) {
    for (let col = 1; col <= layout.cols; col++) {
      const o = origin(layout, { row, col })
      squares.push(`<rect class="sq" data-square="r${row}c${col}" x="${n(o.x)}" y="${n(o.y)}" width="${U}" height="${U}"/>`)
    }
  }
  return `<rect class="fence" x="${x0 - 8}" y="${y0 - 8}" width="${w + 16}" height="${h + 16}" rx="6" fill="#e8a33d" stroke="#7d4f0c" stroke-width="3"/>` +
    `<g class="floor" fill="#d3d8de" stroke="#aab2bb" stroke-width="2">${squares.join('')}</g>`
}

/** Dashed lines from each switch to the squares it works (R16). */
function switchLinks(board: Board, layout: Layout): string {
  const out: string[] = []
  for (const element of board.elements) {
    if (element.type !== 'switch') continue
    const from = centre(layout, element.at)
    const colour = element.kind === 'pressure' ? '#1e8a43' : '#c0392b'
    for (const target of element.targets) {
      const to = centre(layout, target)
      out.push(`<line class="link" data-square="${sq(element.at)}" data-target="${sq(target)}" x1="${n(from.x)}" y1="${n(from.y)}" x2="${n(to.x)}" y2="${n(to.y)}" stroke="${colour}" stroke-width="3" stroke-dasharray="10 8" stroke-linecap="round" opacity="0.5"/>`)
    }
  }
  return out.join('')
}

function labels(layout: Layout, title: string | undefined): string {
  const out: string[] = []
  const style = { size: 28, fill: '#3a4048', halo: '#ffffff', weight: 'bold' }
  for (let col = 1; col <= layout.cols; col++) {
    const x = layout.left + (col - 1) * U + U / 2
    out.push(label(x, layout.top - 32, `c${col}`, { ...style, cls: 'label col' }))
    out.push(label(x, layout.top + layout.rows * U + 32, `c${col}`, { ...style, cls: 'label col' }))
  }
  for (let row = 1; row <= layout.rows; row++) {
    const y = origin(layout, { row, col: 1 }).y + U / 2
    out.push(label(layout.left - 38, y, `r${row}`, { ...style, cls: 'label row' }))
    out.push(label(layout.left + layout.cols * U + 38, y, `r${row}`, { ...style, cls: 'label row' }))
  }
  if (title) out.push(label(layout.width / 2, layout.titleHeight / 2 + 6, title, { size: 38, fill: '#1b1f24', cls: 'title' }))
  return out.join('')
}

/** Colours and display names of the players, in the order the robots are given. */
function looks(robots: readonly RobotSnapshot[], options: BoardSvgOptions): (player: string) => RobotLook {
  const seats = new Map<string, number>()
  for (const robot of robots) if (!seats.has(robot.player)) seats.set(robot.player, seats.size)
  return (player) => {
    const seat = seats.get(player) ?? seats.size
    const fallback = DEFAULT_PALETTE[seat % DEFAULT_PALETTE.length]!
    return { colour: robotFill(options.colours?.[player], fallback), name: options.names?.[player] ?? player, mark: markOf(player, seat) }
  }
}

export function boardSvg(board: Board, options: BoardSvgOptions = {}): string {
  const state = options.boardState ?? initialBoardState(board)
  const robots = options.robots ?? []
  const title = options.title
  const layout = makeLayout(board.rows, board.cols, title !== undefined && title !== '')
  const scale = (options.squareSize ?? DEFAULT_SQUARE_SIZE) / U
  const lookOf = looks(robots, options)
  const controllers = switchesByTarget(board)

  const floor: string[] = []
  const sides: string[] = []
  for (const element of board.elements) {
    const place = placeOf(layout, element.at)
    if (element.type === 'wall') sides.push(wallSymbol(place, element.side))
    else if (element.type === 'pusher') sides.push(pusherSymbol(place, element.side, element.stages))
    else if (element.type === 'laser') sides.push(laserSymbol(place, element.dir, element.colour, element.strength))
    else floor.push(floorSymbol(board, element, place, state, controllers))
  }
  const start = startSymbol(placeOf(layout, board.start.at), board.start.facing)
  // Shots go under the robots, so a beam never hides who stands there; the hit bursts go over them.
  const fired = shots(options.events ?? [], layout, robots, (p) => lookOf(p).colour)
  const heading = title ? `<title>${esc(title)}</title>` : ''

  return `<svg xmlns="http://www.w3.org/2000/svg" class="board" width="${n(layout.width * scale)}" height="${n(layout.height * scale)}" ` +
    `viewBox="0 0 ${layout.width} ${layout.height}" font-family="${FONT}" data-rows="${board.rows}" data-cols="${board.cols}">` +
    heading +
    `<rect class="background" width="${layout.width}" height="${layout.height}" fill="#f7f8fa"/>` +
    grid(layout) +
    `<g class="layer floor-elements">${floor.join('')}${start}</g>` +
    `<g class="layer links">${switchLinks(board, layout)}</g>` +
    `<g class="layer beams">${standingBeams(board, state, layout)}</g>` +
    `<g class="layer sides">${sides.join('')}</g>` +
    `<g class="layer shots">${fired.lines}</g>` +
    `<g class="layer robots">${drawRobots(robots, layout, lookOf, options.highlight)}</g>` +
    `<g class="layer hits">${fired.hits}</g>` +
    `<g class="layer labels">${labels(layout, title)}</g>` +
    '</svg>'
}
