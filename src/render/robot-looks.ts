// How robots tell apart beyond hue (issue 16): a player's colour word maps to a fill from a
// palette whose lightness steps apart, so colours that a red-green colour-blind player sees as one
// hue still differ in lightness; and each seat's robot has its own body shape (P1 a circle, P2 a
// square, P3 a diamond …), so two robots differ even where colour fails entirely. Pure functions;
// `simulate` (how a colour looks with protanopia or deuteranopia) is what the tests check with.
import cssColours from 'color-name'

/**
 * The robot colours players choose from (pages/forms.ts ROBOT_COLOURS) and the fills drawn for
 * them, darkest to lightest. Chosen so that every two of them stay apart (CIE76 ΔE of at least
 * 15) in normal vision and as protanopes and deuteranopes see them: the colours that those
 * players see as one yellowish hue (brown, red, orange, green, gold) step apart in lightness
 * (test/render/robot-looks.test.ts prints the table).
 */
export const ROBOT_PALETTE: Record<string, string> = {
  black: '#262626',
  brown: '#4e2c0c',
  purple: '#6a2c91',
  blue: '#1d5fd1',
  red: '#c8181c',
  teal: '#12807c',
  orange: '#e87a00',
  green: '#4cc45e',
  pink: '#ffb0d8',
  gold: '#ffe45a',
}

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i

/**
 * The fill drawn for a colour, or undefined for one no picture can draw: the palette's fill for
 * its words; a colour CSS names (rebeccapurple) as its hex, since resvg, which draws the mail's
 * pictures, does not know every name a browser knows; #rgb, #rrggbb or #rrggbbaa as given. Words
 * are looked up as own keys only: "constructor" is not a colour.
 */
export function colourFill(colour: string): string | undefined {
  const word = colour.trim().toLowerCase()
  if (Object.hasOwn(ROBOT_PALETTE, word)) return ROBOT_PALETTE[word]
  if (Object.hasOwn(cssColours, word)) return `#${cssColours[word]!.map((c) => c.toString(16).padStart(2, '0')).join('')}`
  return HEX_COLOUR.test(colour.trim()) ? colour.trim() : undefined
}

/** The fill of a robot: its colour's (colourFill), else the fallback (its seat's default). */
export function robotFill(colour: string | null | undefined, fallback: string): string {
  return (colour != null ? colourFill(colour) : undefined) ?? fallback
}

/** The body shapes, one per seat (P1..P8), in seat order; names for the legend and the board in words. */
export const ROBOT_MARKS = ['circle', 'square', 'diamond', 'triangle', 'hexagon', 'star', 'cross', 'shield'] as const
export type RobotMark = (typeof ROBOT_MARKS)[number]

/** A seat's shape from its player id (P1 → circle …); `fallbackIndex` for ids of another form. */
export function markOf(player: string, fallbackIndex = 0): RobotMark {
  const seat = /^P(\d+)$/.exec(player)
  const index = seat ? Number(seat[1]) - 1 : fallbackIndex
  return ROBOT_MARKS[((index % ROBOT_MARKS.length) + ROBOT_MARKS.length) % ROBOT_MARKS.length]!
}

const r1 = (x: number) => Math.round(x * 10) / 10

/** A regular polygon's points, centred on (0, 0), first corner at `start` degrees from north. */
function polygon(corners: number, radius: number, start = 0): string {
  return Array.from({ length: corners }, (_, i) => {
    const a = ((start + (360 / corners) * i) * Math.PI) / 180
    return `${r1(Math.sin(a) * radius)},${r1(-Math.cos(a) * radius)}`
  }).join(' ')
}

function star(outer: number, inner: number): string {
  return Array.from({ length: 10 }, (_, i) => {
    const a = (36 * i * Math.PI) / 180
    const r = i % 2 === 0 ? outer : inner
    return `${r1(Math.sin(a) * r)},${r1(-Math.cos(a) * r)}`
  }).join(' ')
}

/**
 * The body outline of a mark, about as big as a circle of radius `r` (so no shape looks heavier),
 * as one SVG element with the given paint attributes.
 */
export function markShape(mark: RobotMark, r: number, paint: string): string {
  switch (mark) {
    case 'circle': return `<circle r="${r1(r)}" ${paint}/>`
    case 'square': return `<rect x="${r1(-r * 0.9)}" y="${r1(-r * 0.9)}" width="${r1(r * 1.8)}" height="${r1(r * 1.8)}" rx="${r1(r * 0.15)}" ${paint}/>`
    case 'diamond': return `<polygon points="${polygon(4, r * 1.22)}" ${paint}/>`
    case 'triangle': return `<polygon points="${polygon(3, r * 1.35, 180)}" ${paint}/>`
    case 'hexagon': return `<polygon points="${polygon(6, r * 1.08, 30)}" ${paint}/>`
    case 'star': return `<polygon points="${star(r * 1.3, r * 0.72)}" ${paint}/>`
    case 'cross': {
      const a = r * 0.42
      const b = r * 1.05
      const p = [[-a, -b], [a, -b], [a, -a], [b, -a], [b, a], [a, a], [a, b], [-a, b], [-a, a], [-b, a], [-b, -a], [-a, -a]]
      return `<polygon points="${p.map(([x, y]) => `${r1(x!)},${r1(y!)}`).join(' ')}" ${paint}/>`
    }
    case 'shield': {
      const w = r * 0.95
      return `<path d="M${r1(-w)},${r1(-r * 0.9)} H${r1(w)} V${r1(r * 0.1)} Q${r1(w)},${r1(r * 0.75)} 0,${r1(r * 1.15)} Q${r1(-w)},${r1(r * 0.75)} ${r1(-w)},${r1(r * 0.1)} Z" ${paint}/>`
    }
  }
}

// ---- Colour vision, for the tests and the palette's notes ----

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
const toGamma = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055)

/** A #rrggbb colour as linear RGB, each 0..1. */
export function linearRgb(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex)
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`)
  return [m[1]!, m[2]!, m[3]!].map((h) => toLinear(parseInt(h, 16) / 255)) as [number, number, number]
}

/** Machado, Oliveira & Fernandes (2009), full severity, on linear RGB. */
const CVD: Record<'protanopia' | 'deuteranopia', number[][]> = {
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
}

/** How a #rrggbb colour looks to a person with protanopia or deuteranopia, as #rrggbb. */
export function simulate(hex: string, vision: 'protanopia' | 'deuteranopia'): string {
  const rgb = linearRgb(hex)
  return '#' + CVD[vision].map((row) => {
    const v = row[0]! * rgb[0] + row[1]! * rgb[1] + row[2]! * rgb[2]
    return Math.round(toGamma(Math.min(1, Math.max(0, v))) * 255).toString(16).padStart(2, '0')
  }).join('')
}

/** CIE L*a*b* of a #rrggbb colour (D65). */
export function lab(hex: string): [number, number, number] {
  const [r, g, b] = linearRgb(hex)
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116)
  const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047)
  const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b)
  const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)]
}

/** CIE L* (0 black … 100 white) of a #rrggbb colour. */
export const lightness = (hex: string): number => lab(hex)[0]

/** How far apart two colours look (CIE76 ΔE: about 2.3 is just noticeable, 15 plainly different). */
export function colourDistance(a: string, b: string): number {
  const [l1, a1, b1] = lab(a)
  const [l2, a2, b2] = lab(b)
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2)
}
