// The race chart of the game page: flags touched and HP per player after every published turn,
// as one SVG drawn on the server (readable without JavaScript, printable, no library). Pure: the
// same series give the same bytes.
import { esc, DEFAULT_PALETTE, FONT } from './util.js'
import { robotFill } from './robot-looks.js'

export interface RacePoint { turn: number; flags: number; hp: number }
export interface RaceSeries { player: string; name: string; colour?: string; points: RacePoint[]; mine?: boolean }

const W = 640
const PANEL_H = 150
const LEFT = 44
const RIGHT = 120
const TOP = 28
const GAP = 44

/** Two panels, flags above HP, one line per player; the viewer's own line is drawn thicker and last. */
export function raceChart(series: readonly RaceSeries[], options: { flagCount: number; maxHp: number; title?: string }): string {
  const lastTurn = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.turn)))
  const plotW = W - LEFT - RIGHT
  const x = (turn: number) => LEFT + (turn / lastTurn) * plotW
  const height = TOP + PANEL_H * 2 + GAP + 30
  const ordered = [...series].sort((a, b) => Number(!!a.mine) - Number(!!b.mine))
  const colourOf = (s: RaceSeries, i: number) => robotFill(s.colour, DEFAULT_PALETTE[i % DEFAULT_PALETTE.length]!)

  const panel = (top: number, label: string, max: number, value: (p: RacePoint) => number, step: boolean) => {
    const y = (v: number) => top + PANEL_H - (v / Math.max(1, max)) * PANEL_H
    const out: string[] = [`<g class="panel" data-panel="${esc(label)}">`, `<text x="${LEFT}" y="${top - 8}" font-size="14" font-weight="bold" fill="#1b1f24">${esc(label)}</text>`]
    for (let v = 0; v <= max; v += max > 5 ? Math.ceil(max / 5) : 1) {
      out.push(`<line x1="${LEFT}" x2="${LEFT + plotW}" y1="${y(v)}" y2="${y(v)}" stroke="#e1e5ea"/>`,
        `<text x="${LEFT - 6}" y="${y(v) + 4}" font-size="11" text-anchor="end" fill="#5a6470">${v}</text>`)
    }
    ordered.forEach((s) => {
      const i = series.indexOf(s)
      const pts = s.points.map((p) => [x(p.turn), y(value(p))] as const)
      if (!pts.length) return
      const d = pts.map(([px, py], k) => (k === 0 ? `M${px},${py}` : step ? `H${px}V${py}` : `L${px},${py}`)).join('')
      const last = s.points.at(-1)!
      out.push(`<path class="line" data-player="${esc(s.player)}" d="${d}" fill="none" stroke="${colourOf(s, i)}" stroke-width="${s.mine ? 5 : 2.5}" stroke-linejoin="round"${s.mine ? '' : ' opacity="0.85"'}><title>${esc(s.name)}: ${esc(label.toLowerCase())} ${value(last)} after turn ${last.turn}</title></path>`)
      const [lx, ly] = pts.at(-1)!
      out.push(`<circle cx="${lx}" cy="${ly}" r="${s.mine ? 5 : 3.5}" fill="${colourOf(s, i)}"/>`)
    })
    out.push('</g>')
    return out.join('')
  }

  const axis: string[] = []
  const every = lastTurn > 12 ? Math.ceil(lastTurn / 12) : 1
  for (let t = 0; t <= lastTurn; t += every) {
    axis.push(`<text x="${x(t)}" y="${height - 10}" font-size="11" text-anchor="middle" fill="#5a6470">${t}</text>`)
  }
  const legend = series.map((s, i) => {
    const ly = TOP + i * 20
    const last = s.points.at(-1)
    return `<g class="key" data-player="${esc(s.player)}"><rect x="${W - RIGHT + 12}" y="${ly - 9}" width="14" height="10" rx="2" fill="${colourOf(s, i)}"/>` +
      `<text x="${W - RIGHT + 32}" y="${ly}" font-size="12"${s.mine ? ' font-weight="bold"' : ''} fill="#1b1f24">${esc(s.name)}${last ? ` ${last.flags}⚑ ${last.hp}HP` : ''}</text></g>`
  }).join('')
  const title = options.title ?? 'The race: flags touched and HP after each turn'
  return `<svg xmlns="http://www.w3.org/2000/svg" class="race-chart" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" font-family="${FONT}" role="img">` +
    `<title>${esc(title)}</title>` +
    `<rect width="${W}" height="${height}" fill="#ffffff"/>` +
    panel(TOP, 'Flags touched', Math.max(1, options.flagCount), (p) => p.flags, true) +
    panel(TOP + PANEL_H + GAP, 'HP', options.maxHp, (p) => p.hp, false) +
    axis.join('') + `<text x="${LEFT - 12}" y="${height - 10}" font-size="11" text-anchor="end" fill="#5a6470">turn</text>` +
    legend + '</svg>'
}
