// Robots: a body in the player's colour and the seat's own shape (circle, square, diamond …:
// robot-looks.ts, so colour-blind players tell robots apart) with the initial of the name and an
// arrow for its facing. Virtual robots (R24) are translucent; rebooting robots (R33) get a dashed ring and an
// "R" badge; destroyed robots are not drawn. Robots sharing a square (virtual robots may, R24)
// are drawn smaller, side by side, so each one shows.
import type { RobotSnapshot } from '../engine/types.js'
import { markShape, type RobotMark } from './robot-looks.js'
import { angle, esc, initial, label, n, origin, sq, type Layout } from './util.js'

export interface RobotLook {
  colour: string
  name: string
  /** The body's shape, one per seat (robot-looks.ts), so robots differ beyond their colour; a circle if not given. */
  mark?: RobotMark
}

/** Where the robots of one square stand, as centre offsets in the square and a scale. */
function spots(count: number): { x: number; y: number; scale: number }[] {
  if (count <= 1) return [{ x: 50, y: 50, scale: 1 }]
  if (count === 2) return [{ x: 30, y: 32, scale: 0.6 }, { x: 70, y: 68, scale: 0.6 }]
  const per = Math.ceil(Math.sqrt(count))
  const cell = 100 / per
  return Array.from({ length: count }, (_, i) => ({
    x: cell * (i % per) + cell / 2,
    y: cell * Math.floor(i / per) + cell / 2,
    scale: (cell / 100) * 1.05,
  }))
}

/** One robot, centred on (0, 0) at full size: body about radius 30, arrow reaching out to 46. */
export function robotGlyph(robot: Pick<RobotSnapshot, 'facing' | 'mode' | 'rebooting'>, look: RobotLook): string {
  const mark = look.mark ?? 'circle'
  // The pointer is drawn over the body: a diamond's or a star's corner would otherwise hide it.
  let body =
    `<g class="body" data-mark="${mark}">` + markShape(mark, 30, `fill="${esc(look.colour)}" stroke="#15181c" stroke-width="4" stroke-linejoin="round"`) +
    markShape(mark, 24, 'fill="none" stroke="#ffffff" stroke-width="3" stroke-linejoin="round" opacity="0.75"') + '</g>' +
    `<g transform="rotate(${angle(robot.facing)})">` +
    `<polygon class="facing" points="0,-48 -13,-25 13,-25" fill="${esc(look.colour)}" stroke="#15181c" stroke-width="4" stroke-linejoin="round"/></g>` +
    label(0, 1, initial(look.name), { size: 30, fill: '#ffffff', halo: '#15181c' })
  if (robot.rebooting) {
    body +=
      '<circle class="reboot-ring" r="40" fill="none" stroke="#15181c" stroke-width="4" stroke-dasharray="8 6"/>' +
      '<g class="reboot-mark"><circle cx="27" cy="-27" r="13" fill="#ffd43b" stroke="#15181c" stroke-width="3"/>' +
      label(27, -26, 'R', { size: 17, fill: '#15181c', halo: '#ffd43b' }) + '</g>'
  }
  return body
}

/** `highlight` names the viewer's own robot: it gets a bright ring and the class "mine", so a player finds it at a glance. */
export function drawRobots(robots: readonly RobotSnapshot[], layout: Layout, lookOf: (player: string) => RobotLook, highlight?: string): string {
  const bySquare = new Map<string, RobotSnapshot[]>()
  for (const robot of robots) {
    if (!robot.at || robot.mode === 'destroyed') continue
    const key = sq(robot.at)
    const list = bySquare.get(key) ?? []
    list.push(robot)
    bySquare.set(key, list)
  }
  const out: string[] = []
  for (const [key, here] of bySquare) {
    const places = spots(here.length)
    here.forEach((robot, i) => {
      const o = origin(layout, robot.at!)
      const spot = places[i]!
      const look = lookOf(robot.player)
      const virtual = robot.mode === 'virtual'
      const mine = robot.player === highlight
      out.push(
        `<g class="robot${mine ? ' mine' : ''}" data-player="${esc(robot.player)}" data-square="${key}" data-facing="${robot.facing}" data-mode="${robot.mode}" data-rebooting="${robot.rebooting}" data-hp="${robot.hp}"` +
        `${virtual ? ' opacity="0.5"' : ''} transform="translate(${n(o.x + spot.x)} ${n(o.y + spot.y)}) scale(${n(spot.scale)})">` +
        `<title>${esc(look.name)}${virtual ? ' (virtual)' : ''}${robot.rebooting ? ' (rebooting)' : ''}, facing ${robot.facing}, ${robot.hp} HP</title>` +
        (mine ? '<circle class="mine-ring" r="44" fill="none" stroke="#ffd400" stroke-width="10"/>' : '') +
        robotGlyph(robot, look) + '</g>')
    })
  }
  return out.join('')
}
