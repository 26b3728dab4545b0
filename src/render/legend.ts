// The legend: one entry per symbol of the board pictures, each drawn on a one-square board by
// the same functions as the pictures, so the legend page can never drift from them.
import { FONT, n } from './util.js'
import { hitMarker } from './beams.js'
import { robotGlyph } from './robots.js'
import { ROBOT_MARKS, ROBOT_PALETTE } from './robot-looks.js'
import {
  conveyorSymbol, crusherSymbol, drawbridgeSymbol, flagSymbol, gearSymbol, LASER_STYLE, laserSymbol, pitSymbol,
  pusherSymbol, startSymbol, switchSymbol, teleporterSymbol, upgradeSymbol, wallSymbol, wrenchSymbol, type Place,
} from './symbols.js'

export interface LegendEntry {
  /** A stable key, e.g. `conveyor-blue`; the first word is the element's class in the pictures. */
  type: string
  label: string
  explanation: string
  /** A standalone SVG of one square showing the symbol. */
  svg: string
}

const HERE: Place = { x: 0, y: 0, square: 'r1c1' }
const PAD = 12

/** One floor square with `content` on it, `size` pixels wide. */
export function squareSvg(content: string, size = 64): string {
  const box = 100 + PAD * 2
  return `<svg xmlns="http://www.w3.org/2000/svg" class="legend-square" width="${size}" height="${size}" viewBox="${-PAD} ${-PAD} ${box} ${box}" font-family="${FONT}">` +
    '<rect x="0" y="0" width="100" height="100" fill="#d3d8de" stroke="#aab2bb" stroke-width="2"/>' + content + '</svg>'
}

function beamLine(colour: string, count: number, width: number): string {
  const lines: string[] = []
  for (let i = 0; i < count; i++) {
    const x = 50 + (i - (count - 1) / 2) * 7
    lines.push(`<line x1="${n(x)}" y1="62" x2="${n(x)}" y2="-10" stroke="${colour}" stroke-width="${width}" stroke-linecap="round" opacity="0.55"/>`)
  }
  return lines.join('')
}

const ROBOT = (extra: { mode?: 'real' | 'virtual'; rebooting?: boolean; facing?: 'N' | 'E' | 'S' | 'W' } = {}): string =>
  `<g transform="translate(50 50)"${extra.mode === 'virtual' ? ' opacity="0.5"' : ''}>` +
  robotGlyph({ facing: extra.facing ?? 'E', mode: extra.mode ?? 'real', rebooting: extra.rebooting ?? false }, { colour: '#1d6fd1', name: 'Ann' }) + '</g>'

/** The eight seats' robot shapes side by side, in two rows of four, each in a colour of the palette. */
function robotShapesSvg(size: number): string {
  const colours = Object.values(ROBOT_PALETTE)
  const robots = ROBOT_MARKS.map((mark, i) =>
    `<g transform="translate(${n(50 + (i % 4) * 100)} ${n(50 + Math.floor(i / 4) * 100)}) scale(0.85)">` +
    robotGlyph({ facing: 'N', mode: 'real', rebooting: false }, { colour: colours[(i * 3) % colours.length]!, name: String(i + 1), mark }) + '</g>')
  return `<svg xmlns="http://www.w3.org/2000/svg" class="legend-square" width="${n(size * 3.2)}" height="${n(size * 1.6)}" viewBox="0 0 400 200" font-family="${FONT}">` +
    '<rect x="0" y="0" width="400" height="200" fill="#d3d8de" stroke="#aab2bb" stroke-width="2"/>' + robots.join('') + '</svg>'
}

export function legendEntries(size = 64): LegendEntry[] {
  const e = (type: string, label: string, explanation: string, content: string): LegendEntry =>
    ({ type, label, explanation, svg: squareSvg(content, size) })
  return [
    e('wall', 'Wall', 'Stands on a side of a square and blocks movement and lasers both ways (R4). No damage.', wallSymbol(HERE, 'N')),
    e('fence', 'Electric fence', 'The orange border round the board. A robot that runs into it stays put and takes 2 damage (R3).',
      '<rect x="-8" y="-8" width="116" height="116" rx="6" fill="none" stroke="#e8a33d" stroke-width="10"/>'),
    e('pit', 'Pit', 'A robot that enters it is destroyed (R14).', pitSymbol(HERE)),
    e('conveyor-yellow', 'Conveyor', 'Moves a robot one square the way of the arrow after robot movement (R18).', conveyorSymbol(HERE, 'N', 'yellow')),
    e('conveyor-blue', 'Express conveyor', 'Blue, double chevron: moves a robot one extra square before the common step (R18).', conveyorSymbol(HERE, 'N', 'blue')),
    e('conveyor-turn', 'Conveyor bend', 'A curve shows a belt fed from the side: a robot carried round the bend turns with it (R18).', conveyorSymbol(HERE, 'N', 'yellow', ['E'])),
    e('pusher', 'Pusher', 'Pushes the robot on its square one square away from its wall, in the stages written on it (R20).', pusherSymbol(HERE, 'N', [2, 4])),
    e('gear-left', 'Gear, left', 'Red: turns a robot on it 90° counter-clockwise (R21).', gearSymbol(HERE, 'left')),
    e('gear-right', 'Gear, right', 'Green: turns a robot on it 90° clockwise (R21).', gearSymbol(HERE, 'right')),
    e('gear-uturn', 'Gear, U-turn', 'Purple: turns a robot on it 180° (R21).', gearSymbol(HERE, 'uturn')),
    e('crusher', 'Crusher', 'Destroys every robot on it in the stages written on it (R22).', crusherSymbol(HERE, [2, 4])),
    e('laser-blue', 'Laser turret, blue', 'Fires across its square and on until a wall, raised drawbridge or the edge; stops at the first robot. One light and one line per point of damage (R23).',
      beamLine(LASER_STYLE.blue, 1, 3) + laserSymbol(HERE, 'N', 'blue', 1)),
    e('laser-red', 'Laser turret, red', 'Like the blue one, but the beam passes through robots and hits each of them (R23). This one does 2 damage.',
      beamLine(LASER_STYLE.red, 2, 3) + laserSymbol(HERE, 'N', 'red', 2)),
    e('drawbridge-raised', 'Drawbridge, raised', 'A pit, except that from its bridge side (the planks) a robot meets a wall. Blocks lasers. The square written on it is its switch (R15).',
      drawbridgeSymbol(HERE, 'N', 'raised', ['r1c5'])),
    e('drawbridge-lowered', 'Drawbridge, lowered', 'Plain floor for the rest of the game (R15).', drawbridgeSymbol(HERE, 'N', 'lowered')),
    e('teleporter-active', 'Teleporter, active', 'A robot that enters it goes on to the next free active teleporter in alphabetical order of colour (R17).',
      teleporterSymbol(HERE, 'amber', 'active')),
    e('teleporter-inactive', 'Teleporter, inactive', 'Grey and dashed: does nothing until a switch makes it active (R16, R17).', teleporterSymbol(HERE, 'violet', 'inactive')),
    e('switch-pressure', 'Pressure switch', 'Green button. Entering it turns it on for good: it lowers its drawbridges and activates its teleporters (R16). Dashed lines lead to its targets.',
      switchSymbol(HERE, 'pressure', 'off', ['r4c2'])),
    e('switch-pressure-on', 'Pressure switch, on', 'Lit: it has been pressed (R16).', switchSymbol(HERE, 'pressure', 'on', ['r4c2'])),
    e('switch-toggle', 'Toggle switch', 'Red lever. Every entry flips it and switches each of its teleporters between active and inactive (R16).',
      switchSymbol(HERE, 'toggle', 'off', ['r6c4'])),
    e('switch-toggle-on', 'Toggle switch, on', 'Lever to the right: on (R16).', switchSymbol(HERE, 'toggle', 'on', ['r6c4'])),
    e('wrench-1', 'Wrench', 'A checkpoint; ending the turn here repairs 1 HP (R30, R31).', wrenchSymbol(HERE, 1)),
    e('wrench-2', 'Double wrench', 'A checkpoint; repairs 2 HP, or gives an option instead (R31).', wrenchSymbol(HERE, 2)),
    e('flag', 'Flag', 'Tag the flags in order of their numbers; a flag is also a checkpoint and repairs 1 HP (R30, R31).', flagSymbol(HERE, 1)),
    e('upgrade', 'Upgrade station', 'Every two different stations visited unlock a new card set (R6, R30).', upgradeSymbol(HERE)),
    e('start', 'Start square', 'Where robots start, facing the arrow, and come back when they have no checkpoint (R29).', startSymbol(HERE, 'N')),
    e('robot', 'Robot', "In its player's colour and its seat's shape, with the initial of the name; the pointer shows its facing.", ROBOT()),
    { type: 'robot-shapes', label: 'Robot shapes', svg: robotShapesSvg(size),
      explanation: `Each seat's robot has its own shape, so robots differ even where their colours look alike: seat 1 ${ROBOT_MARKS.slice(0, 7).map((m, i) => `${i > 0 ? `${i + 1} ` : ''}a ${m}`).join(', ')} and 8 a ${ROBOT_MARKS[7]}. The colours also differ in lightness.` },
    e('robot-virtual', 'Virtual robot', 'Translucent: it ignores other robots and may share a square (R24, R25).', ROBOT({ mode: 'virtual' })),
    e('robot-rebooting', 'Rebooting robot', 'Dashed ring and an R: plays no cards and does not fire this turn (R33).', ROBOT({ rebooting: true })),
    e('shot-robot', 'Robot laser shot', "A robot's shot this stage in its colour, over the squares it crossed; a burst where it hit (R26).",
      '<line x1="0" y1="50" x2="50" y2="50" stroke="#fff" stroke-width="12" stroke-linecap="round" opacity="0.85"/>' +
      '<line x1="0" y1="50" x2="50" y2="50" stroke="#1d6fd1" stroke-width="6" stroke-linecap="round"/>' + hitMarker(50, 50, '#1d6fd1', 22)),
    e('shot-board', 'Board laser shot', 'A turret that hit a robot this stage (R23).',
      '<line x1="50" y1="100" x2="50" y2="50" stroke="#fff" stroke-width="9" stroke-linecap="round" opacity="0.8"/>' +
      `<line x1="50" y1="100" x2="50" y2="50" stroke="${LASER_STYLE.red}" stroke-width="5" stroke-linecap="round"/>` + hitMarker(50, 50, LASER_STYLE.red, 22)),
  ]
}
