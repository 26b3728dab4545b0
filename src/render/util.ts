// Small helpers shared by the picture code: text escaping, number formatting, the square
// geometry of R1 (row 1 at the bottom), direction angles and colours.
//
// Every picture is drawn in "units": one square is U = 100 units wide. The SVG's viewBox is in
// units and its width/height attributes scale it to the requested pixels per square, so the
// drawing code never thinks about pixels.
import type { Direction, Square } from '../engine/types.js'
import { DIRECTIONS } from '../engine/types.js'

export const U = 100

/** Escapes text for use in SVG content and attribute values. */
export function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** A number as the SVG writes it: at most two decimals, no trailing zeros, never "-0". */
export function n(value: number): string {
  const rounded = Math.round(value * 100) / 100
  return String(rounded === 0 ? 0 : rounded)
}

export function sq(square: Square): string {
  return `r${square.row}c${square.col}`
}

/** Clockwise angle of a direction from north, for SVG `rotate()` (north is up in the picture). */
export function angle(dir: Direction): number {
  return DIRECTIONS.indexOf(dir) * 90
}

/** `rotate(a 50 50)` about the middle of a square, or '' for no rotation. */
export function rotateSquare(dir: Direction): string {
  const a = angle(dir)
  return a === 0 ? '' : ` transform="rotate(${a} 50 50)"`
}

/** Where a board's squares lie on the picture, in units (R1: row 1 at the bottom, column 1 at the left). */
export interface Layout {
  rows: number
  cols: number
  left: number
  top: number
  width: number
  height: number
  titleHeight: number
}

export const MARGIN = { side: 70, top: 60, bottom: 60, title: 70 } as const

export function makeLayout(rows: number, cols: number, withTitle: boolean): Layout {
  const titleHeight = withTitle ? MARGIN.title : 0
  return {
    rows,
    cols,
    left: MARGIN.side,
    top: titleHeight + MARGIN.top,
    width: MARGIN.side * 2 + cols * U,
    height: titleHeight + MARGIN.top + rows * U + MARGIN.bottom,
    titleHeight,
  }
}

/** Top-left corner of a square, in units. */
export function origin(layout: Layout, square: Square): { x: number; y: number } {
  return { x: layout.left + (square.col - 1) * U, y: layout.top + (layout.rows - square.row) * U }
}

export function centre(layout: Layout, square: Square): { x: number; y: number } {
  const o = origin(layout, square)
  return { x: o.x + U / 2, y: o.y + U / 2 }
}

/** Unit vector of a direction in picture coordinates (y grows downwards, so north is -y). */
export function vector(dir: Direction): { dx: number; dy: number } {
  switch (dir) {
    case 'N': return { dx: 0, dy: -1 }
    case 'E': return { dx: 1, dy: 0 }
    case 'S': return { dx: 0, dy: 1 }
    case 'W': return { dx: -1, dy: 0 }
  }
}

/** Player colours used when the caller names none: distinct, readable with white text on them. */
export const DEFAULT_PALETTE = [
  '#d62828', '#1d6fd1', '#2a9d3f', '#f77f00', '#8e44ad', '#00a6a6', '#d63384', '#7a5230',
  '#5c6bc0', '#9e9d24',
] as const

/** Colours for teleporter names that are not CSS colour words, and a few that are but look poor. */
const NAMED_COLOURS: Record<string, string> = {
  amber: '#ffbf00', red: '#e53935', orange: '#fb8c00', yellow: '#fdd835', green: '#43a047',
  blue: '#1e88e5', indigo: '#3949ab', violet: '#8e24aa', purple: '#8e24aa', pink: '#ec407a',
  cyan: '#00acc1', teal: '#00897b', lime: '#c0ca33', brown: '#8d6e63', grey: '#9e9e9e',
  gray: '#9e9e9e', black: '#424242', white: '#f5f5f5', gold: '#ffc107', silver: '#b0bec5',
  magenta: '#d81b60', crimson: '#c62828', navy: '#283593', olive: '#827717', maroon: '#880e4f',
  turquoise: '#26c6da', emerald: '#2e7d32', ruby: '#b71c1c', sapphire: '#1565c0', jade: '#00a86b',
  coral: '#ff7f50', azure: '#2f8fff', scarlet: '#ff2400', ochre: '#cc7722', lavender: '#9575cd',
}
const TELEPORTER_FALLBACK = ['#26a69a', '#ab47bc', '#ffa726', '#5c6bc0', '#ef5350', '#66bb6a', '#8d6e63', '#29b6f6']

/** A fill for a teleporter from its colour word; unknown words get a fixed colour from their letters. */
export function teleporterFill(name: string): string {
  const known = NAMED_COLOURS[name.trim().toLowerCase()]
  if (known) return known
  let hash = 0
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0
  return TELEPORTER_FALLBACK[hash % TELEPORTER_FALLBACK.length]!
}

/** The first letter of a name, upper-cased (a whole code point, so emoji and accents survive). */
export function initial(name: string): string {
  const first = [...name.trim()][0]
  return first ? first.toUpperCase() : '?'
}

/** Shortens a label to at most `max` characters with an ellipsis. */
export function shorten(text: string, max: number): string {
  const chars = [...text]
  return chars.length <= max ? text : chars.slice(0, max - 1).join('') + '…'
}

export const FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

/** Text with a light halo so it reads on any background. */
export function label(x: number, y: number, text: string, opts: { size: number; fill?: string; halo?: string; weight?: string; anchor?: string; cls?: string } ): string {
  const fill = opts.fill ?? '#1b1f24'
  const halo = opts.halo ?? '#ffffff'
  const weight = opts.weight ?? 'bold'
  const cls = opts.cls ? ` class="${opts.cls}"` : ''
  return `<text${cls} x="${n(x)}" y="${n(y)}" font-size="${n(opts.size)}" font-weight="${weight}" text-anchor="${opts.anchor ?? 'middle'}" dominant-baseline="central" fill="${fill}" stroke="${halo}" stroke-width="${n(opts.size / 6)}" stroke-linejoin="round" paint-order="stroke">${esc(text)}</text>`
}
