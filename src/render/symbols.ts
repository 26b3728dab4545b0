// One symbol per board element (FORMAT.md section 1). Each function draws its element in a
// 100×100 square whose top-left corner is at (x, y) and returns one group:
//   <g class="el TYPE" data-square="r3c4" data-…="…" transform="translate(x y)">…</g>
// The board picture and the legend both draw with these, so the legend always matches.
// Directions are drawn pointing north and rotated; text is never rotated.
import type {
  ConveyorColour, Direction, DrawbridgeState, GearTurn, LaserColour, SwitchKind, SwitchState, TeleporterState,
} from '../engine/types.js'
import { DIRECTIONS } from '../engine/types.js'
import { esc, label, n, rotateSquare, shorten, teleporterFill, vector } from './util.js'

export interface Place {
  x: number
  y: number
  /** The square's name (R1), e.g. `r3c4`. */
  square: string
}

function group(type: string, place: Place, data: Record<string, string>, body: string, extraClass = ''): string {
  const attrs = Object.entries(data).map(([k, v]) => ` data-${k}="${esc(v)}"`).join('')
  const move = place.x === 0 && place.y === 0 ? '' : ` transform="translate(${n(place.x)} ${n(place.y)})"`
  return `<g class="el ${type}${extraClass}" data-square="${esc(place.square)}"${attrs}${move}>${body}</g>`
}

/** A square's side relative to a direction: 0 ahead, 1 right, 2 behind, 3 left. */
function relative(side: Direction, dir: Direction): number {
  return (DIRECTIONS.indexOf(side) - DIRECTIONS.indexOf(dir) + 4) % 4
}

// --- Floor elements -----------------------------------------------------------------------

export function pitSymbol(place: Place): string {
  return group('pit', place, {},
    '<rect x="3" y="3" width="94" height="94" rx="6" fill="#3a3d42"/>' +
    '<rect x="13" y="13" width="74" height="74" rx="4" fill="#17191c"/>' +
    '<rect x="25" y="25" width="50" height="50" rx="3" fill="#000"/>')
}

const CONVEYOR_STYLE: Record<ConveyorColour, { belt: string; edge: string; ink: string }> = {
  yellow: { belt: '#f6d44f', edge: '#c9a212', ink: '#5c4500' },
  blue: { belt: '#3d7fd6', edge: '#1f57a3', ink: '#ffffff' },
}

/**
 * A conveyor: yellow with one arrowhead, blue (express) with a double chevron. `feeders` are the
 * sides from which another conveyor runs into this one; a feeder at a right angle is drawn as a
 * curve into the arrow (R18: a robot carried round that bend turns), a feeder from behind or no
 * feeder at all as a straight tail.
 */
export function conveyorSymbol(place: Place, dir: Direction, colour: ConveyorColour, feeders: Direction[] = []): string {
  const style = CONVEYOR_STYLE[colour]
  const rel = feeders.map((side) => relative(side, dir))
  const curves = feeders.filter((side) => { const r = relative(side, dir); return r === 1 || r === 3 })
  const straight = rel.includes(2) || curves.length === 0
  const tip = colour === 'blue' ? 58 : 40
  const tails: string[] = []
  if (straight) tails.push(`M50 97 L50 ${tip}`)
  if (rel.includes(1)) tails.push(`M97 50 Q50 50 50 ${tip - 4}`)
  if (rel.includes(3)) tails.push(`M3 50 Q50 50 50 ${tip - 4}`)
  const head = colour === 'blue'
    ? `<polyline points="24,44 50,16 76,44" fill="none" stroke="${style.ink}" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/>` +
      `<polyline points="24,68 50,40 76,68" fill="none" stroke="${style.ink}" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/>`
    : `<polygon points="50,8 22,44 78,44" fill="${style.ink}" stroke="${style.ink}" stroke-width="4" stroke-linejoin="round"/>`
  const body =
    `<rect x="2" y="2" width="96" height="96" rx="5" fill="${style.belt}" stroke="${style.edge}" stroke-width="3"/>` +
    `<g${rotateSquare(dir)}>` +
    `<path d="${tails.join(' ')}" fill="none" stroke="${style.ink}" stroke-width="9" stroke-linecap="round"/>` +
    head + '</g>'
  const data: Record<string, string> = { dir, colour }
  if (curves.length > 0) data.curve = curves.join(' ')
  return group('conveyor', place, data, body, ` conveyor-${colour}`)
}

const GEAR_STYLE: Record<GearTurn, { fill: string; edge: string }> = {
  left: { fill: '#e0564f', edge: '#8e1f1a' },
  right: { fill: '#3faa5e', edge: '#1c5e30' },
  uturn: { fill: '#9a6fd0', edge: '#4e2b80' },
}

function gearOutline(): string {
  const points: string[] = []
  const teeth = 10
  for (let i = 0; i < teeth * 4; i++) {
    const a = (i / (teeth * 4)) * Math.PI * 2
    const r = i % 4 === 0 || i % 4 === 1 ? 45 : 37
    points.push(`${n(50 + r * Math.sin(a))},${n(50 - r * Math.cos(a))}`)
  }
  return points.join(' ')
}
const GEAR_OUTLINE = gearOutline()

/** A gear: red turns left (counter-clockwise), green right (clockwise), purple a U-turn (R21). */
export function gearSymbol(place: Place, turn: GearTurn): string {
  const style = GEAR_STYLE[turn]
  const arrow = {
    right: '<path d="M50 24 A26 26 0 1 1 24 50" fill="none" stroke="#fff" stroke-width="8"/><polygon points="24,34 12,54 36,54" fill="#fff"/>',
    left: '<path d="M50 24 A26 26 0 1 0 76 50" fill="none" stroke="#fff" stroke-width="8"/><polygon points="76,34 64,54 88,54" fill="#fff"/>',
    uturn: '<path d="M34 70 L34 46 A16 16 0 0 1 66 46 L66 56" fill="none" stroke="#fff" stroke-width="8"/><polygon points="66,76 53,56 79,56" fill="#fff"/>',
  }[turn]
  return group('gear', place, { turn },
    `<polygon points="${GEAR_OUTLINE}" fill="${style.fill}" stroke="${style.edge}" stroke-width="3" stroke-linejoin="round"/>` +
    `<circle cx="50" cy="50" r="33" fill="${style.edge}" opacity="0.35"/>` + arrow, ` gear-${turn}`)
}

/** A crusher: jaws above and below, the stages it acts in (R22) in the middle. */
export function crusherSymbol(place: Place, stages: readonly number[]): string {
  const jaw = '4,4 96,4 96,22 87,34 78,22 69,34 60,22 51,34 42,22 33,34 24,22 15,34 4,22'
  return group('crusher', place, { stages: stages.join(' ') },
    '<rect x="2" y="2" width="96" height="96" rx="4" fill="#9aa1a9" stroke="#5b6168" stroke-width="3"/>' +
    `<polygon points="${jaw}" fill="#4b5157"/>` +
    `<polygon points="${jaw}" fill="#4b5157" transform="rotate(180 50 50)"/>` +
    '<rect x="16" y="37" width="68" height="26" rx="5" fill="#fff" stroke="#4b5157" stroke-width="2"/>' +
    label(50, 51, stages.join(' '), { size: 22, fill: '#b3261e' }))
}

/**
 * A drawbridge (R15). Raised: a chasm with the bridge standing on its bridge side (a wall from
 * that side). Lowered: wooden floor. `switchAt` names the switch that lowers it, as the rules
 * write it in the square.
 */
export function drawbridgeSymbol(place: Place, side: Direction, state: DrawbridgeState, switchAt: readonly string[] = []): string {
  let body: string
  if (state === 'raised') {
    body =
      '<rect x="3" y="3" width="94" height="94" rx="5" fill="#2a211b"/>' +
      '<rect x="14" y="30" width="72" height="56" rx="3" fill="#0e0b09"/>' +
      `<g${rotateSquare(side)}>` +
      '<rect x="2" y="2" width="96" height="22" rx="3" fill="#b06a35" stroke="#5a300f" stroke-width="3"/>' +
      '<path d="M26 4 V22 M50 4 V22 M74 4 V22" stroke="#5a300f" stroke-width="2"/>' +
      '<polygon points="50,30 40,42 60,42" fill="#e9b07a"/></g>'
  } else {
    body =
      '<rect x="2" y="2" width="96" height="96" rx="3" fill="#dcb88f" stroke="#8a5a2b" stroke-width="3"/>' +
      `<g${rotateSquare(side)}>` +
      '<path d="M26 2 V98 M50 2 V98 M74 2 V98" stroke="#a87a4c" stroke-width="2"/>' +
      '<rect x="2" y="2" width="96" height="8" fill="#8a5a2b"/></g>'
  }
  if (switchAt.length > 0) {
    // Written away from the bridge side, so the plank never hides it; one line per switch.
    const v = vector(side)
    const shown = switchAt.slice(0, 3)
    const size = shown.length > 1 ? 15 : 17
    shown.forEach((at, i) => {
      const y = 52 - v.dy * 14 + (i - (shown.length - 1) / 2) * (size + 2)
      body += label(50 - v.dx * 14, y, at, { size, fill: '#3b2410', halo: '#f3e2cc' })
    })
  }
  return group('drawbridge', place, { side, state }, body, ` drawbridge-${state}`)
}

/** A teleporter: rings in its colour with the colour's name; greyed and dashed while inactive (R17). */
export function teleporterSymbol(place: Place, colour: string, state: TeleporterState, switchAt: readonly string[] = []): string {
  const active = state === 'active'
  const fill = active ? teleporterFill(colour) : '#c9cdd1'
  const ring = active ? '#1b1f24' : '#7b8188'
  const dash = active ? '' : ' stroke-dasharray="6 5"'
  let body =
    `<rect x="2" y="2" width="96" height="96" rx="5" fill="${active ? '#eef1f4' : '#dde0e3'}"/>` +
    `<circle cx="50" cy="46" r="40" fill="${fill}" stroke="${ring}" stroke-width="3"${dash}/>` +
    `<circle cx="50" cy="46" r="28" fill="none" stroke="${ring}" stroke-width="3" opacity="0.7"${dash}/>` +
    `<circle cx="50" cy="46" r="15" fill="${active ? '#ffffff' : 'none'}" stroke="${ring}" stroke-width="3" opacity="0.8"${dash}/>`
  body += label(50, 86, shorten(colour, 9), { size: 18, fill: active ? '#1b1f24' : '#5f656c' })
  if (!active) body += label(50, 46, 'off', { size: 16, fill: '#5f656c' })
  if (switchAt.length > 0) body += label(50, 13, shorten(switchAt.join(' '), 14), { size: 14, fill: '#1b1f24' })
  return group('teleporter', place, { colour, state }, body, ` teleporter-${state}`)
}

/**
 * A switch (R16): a green push button for a pressure switch, a red lever for a toggle switch,
 * with its state written under it. Its targets are listed in a data attribute and linked by
 * dashed lines (see links in svg.ts).
 */
export function switchSymbol(place: Place, kind: SwitchKind, state: SwitchState, targets: readonly string[]): string {
  const on = state === 'on'
  let body = '<rect x="8" y="8" width="84" height="84" rx="10" fill="#6b7178" stroke="#3d4247" stroke-width="3"/>'
  if (kind === 'pressure') {
    body += on
      ? '<circle cx="50" cy="42" r="26" fill="#3ddc6b" stroke="#eaffef" stroke-width="4"/><circle cx="50" cy="42" r="14" fill="#9cf5b5"/>'
      : '<circle cx="50" cy="42" r="26" fill="#1e6b35" stroke="#133f20" stroke-width="4"/>'
  } else {
    const knob = on ? 66 : 34
    body +=
      `<rect x="20" y="30" width="60" height="24" rx="12" fill="${on ? '#ff6b5b' : '#7a231b'}" stroke="#3a100c" stroke-width="3"/>` +
      `<circle cx="${knob}" cy="42" r="15" fill="#f4f4f4" stroke="#3a100c" stroke-width="3"/>`
  }
  body += label(50, 80, on ? 'ON' : 'OFF', { size: 17, fill: on ? '#0f3d1d' : '#ffffff', halo: on ? '#ffffff' : '#3d4247' })
  return group('switch', place, { kind, state, targets: targets.join(' ') }, body, ` switch-${kind}`)
}

function wrenchGlyph(rotation: number): string {
  return `<g transform="rotate(${rotation} 50 50)">` +
    '<rect x="44" y="34" width="12" height="48" rx="5" fill="#fff"/>' +
    '<circle cx="50" cy="28" r="15" fill="#fff"/>' +
    '<rect x="45" y="10" width="10" height="18" fill="#2f9e55"/></g>'
}

/** A repair square (R31): one green wrench, or two crossed wrenches. */
export function wrenchSymbol(place: Place, count: 1 | 2): string {
  const glyphs = count === 1 ? wrenchGlyph(45) : wrenchGlyph(45) + wrenchGlyph(-45)
  return group('wrench', place, { count: String(count) },
    '<rect x="3" y="3" width="94" height="94" rx="8" fill="#d8f0de"/>' +
    '<circle cx="50" cy="50" r="40" fill="#2f9e55" stroke="#1b6636" stroke-width="3"/>' + glyphs +
    (count === 2 ? label(82, 82, '2', { size: 20, fill: '#1b6636' }) : ''), ` wrench-${count}`)
}

/** A numbered flag (R30). */
export function flagSymbol(place: Place, number: number): string {
  return group('flag', place, { number: String(number) },
    '<rect x="3" y="3" width="94" height="94" rx="8" fill="#fde7e7"/>' +
    '<ellipse cx="28" cy="88" rx="16" ry="5" fill="#8d8d8d"/>' +
    '<line x1="28" y1="10" x2="28" y2="88" stroke="#3a3a3a" stroke-width="5" stroke-linecap="round"/>' +
    '<polygon points="30,10 84,24 30,40" fill="#e0393e" stroke="#8e1418" stroke-width="2" stroke-linejoin="round"/>' +
    '<circle cx="62" cy="64" r="22" fill="#ffffff" stroke="#e0393e" stroke-width="4"/>' +
    label(62, 65, String(number), { size: 28, fill: '#8e1418', halo: '#ffffff' }))
}

/** An upgrade station: the blue computer of the rules (R6, R30). */
export function upgradeSymbol(place: Place): string {
  return group('upgrade', place, {},
    '<rect x="3" y="3" width="94" height="94" rx="8" fill="#dceaf9"/>' +
    '<rect x="16" y="18" width="68" height="48" rx="5" fill="#2d6fc2" stroke="#163f73" stroke-width="3"/>' +
    '<rect x="23" y="25" width="54" height="34" rx="2" fill="#a9d6ff"/>' +
    '<rect x="44" y="66" width="12" height="10" fill="#163f73"/>' +
    '<rect x="28" y="76" width="44" height="8" rx="3" fill="#163f73"/>' +
    label(50, 43, 'UP', { size: 20, fill: '#163f73', halo: '#a9d6ff' }))
}

/** The start square, with the start facing. Drawn over any floor element, so it stays small. */
export function startSymbol(place: Place, facing: Direction): string {
  return group('start', place, { facing },
    '<rect x="7" y="7" width="86" height="86" rx="6" fill="none" stroke="#0b7a3b" stroke-width="5" stroke-dasharray="12 7"/>' +
    `<g${rotateSquare(facing)}><polygon points="50,26 38,44 62,44" fill="#0b7a3b"/></g>` +
    label(50, 82, 'START', { size: 17, fill: '#0b7a3b' }))
}

// --- Elements on a side of a square --------------------------------------------------------

const WALL_FILL = '#2f3338'
/** The wall bar of a side, straddling the square's edge so both squares that share it agree (R4). */
const WALL_BAR = `<rect x="-4" y="-6" width="108" height="12" rx="4" fill="${WALL_FILL}"/>` +
  '<rect x="-1" y="-2" width="102" height="4" rx="2" fill="#f2c230"/>'

export function wallSymbol(place: Place, side: Direction): string {
  return group('wall', place, { side }, `<g${rotateSquare(side)}>${WALL_BAR}</g>`)
}

/** Text positions for a pusher's stage numbers, next to its plate and inside the square. */
const PUSHER_LABEL: Record<Direction, { x: number; y: number }> = {
  N: { x: 50, y: 46 }, S: { x: 50, y: 54 }, E: { x: 40, y: 50 }, W: { x: 60, y: 50 },
}

/** A pusher (R20): an orange plate on its wall, chevrons pointing the way it pushes, its stages. */
export function pusherSymbol(place: Place, side: Direction, stages: readonly number[]): string {
  const at = PUSHER_LABEL[side]
  return group('pusher', place, { side, stages: stages.join(' ') },
    `<g${rotateSquare(side)}>${WALL_BAR}` +
    '<rect x="12" y="5" width="76" height="20" rx="3" fill="#f28c18" stroke="#7a4300" stroke-width="3"/>' +
    '<path d="M30 9 V21 M50 9 V21 M70 9 V21" stroke="#7a4300" stroke-width="3"/></g>' +
    label(at.x, at.y, stages.join(' '), { size: 22, fill: '#7a4300' }))
}

export const LASER_STYLE: Record<LaserColour, string> = { red: '#e0262b', blue: '#1677e5' }

/** A laser turret (R23) on the wall behind it, firing towards `dir`; one light per point of strength. */
export function laserSymbol(place: Place, dir: Direction, colour: LaserColour, strength: number): string {
  const lights: string[] = []
  for (let i = 0; i < strength; i++) {
    lights.push(`<circle cx="${n(50 + (i - (strength - 1) / 2) * 11)}" cy="88" r="4" fill="#fff"/>`)
  }
  return group('laser', place, { dir, colour, strength: String(strength) },
    `<g${rotateSquare(dir)}><g transform="rotate(180 50 50)">${WALL_BAR}</g>` +
    `<rect x="24" y="78" width="52" height="18" rx="5" fill="#30343a" stroke="${LASER_STYLE[colour]}" stroke-width="3"/>` +
    `<rect x="43" y="62" width="14" height="18" rx="2" fill="${LASER_STYLE[colour]}" stroke="#30343a" stroke-width="2"/>` +
    lights.join('') + '</g>', ` laser-${colour}`)
}
