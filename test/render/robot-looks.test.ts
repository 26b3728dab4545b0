// Robots that colour-blind players tell apart (issue 16): every seat's robot has its own body
// shape, and the robot colours stay plainly apart (CIE76 ΔE ≥ 15) in normal vision and as
// protanopes and deuteranopes see them (Machado et al. 2009, full severity). The pictures are
// written to test-results/screenshots/ (as drawn, and as a deuteranope sees the robots) to look at.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileBoard, parseBoard } from '../../src/engine/board.js'
import type { RobotSnapshot } from '../../src/engine/types.js'
import { legendEntries } from '../../src/render/legend.js'
import { boardPng } from '../../src/render/png.js'
import { colourDistance, lightness, markOf, markShape, ROBOT_MARKS, ROBOT_PALETTE, robotFill, simulate } from '../../src/render/robot-looks.js'
import { boardSvg } from '../../src/render/svg.js'
import { ROBOT_COLOURS } from '../../src/server/pages/forms.js'

const VISIONS = ['normal', 'protanopia', 'deuteranopia'] as const
const seen = (hex: string, vision: (typeof VISIONS)[number]) => (vision === 'normal' ? hex : simulate(hex, vision))
const pairs = <T>(list: readonly T[]) => list.flatMap((a, i) => list.slice(i + 1).map((b) => [a, b] as const))

describe('robot looks beyond hue', () => {
  it('gives each of the eight seats its own body shape', () => {
    const seats = Array.from({ length: 8 }, (_, i) => `P${i + 1}`)
    const marks = seats.map((p) => markOf(p))
    expect(new Set(marks).size).toBe(8)
    for (const [a, b] of pairs(marks)) expect(markShape(a, 30, ''), `${a} and ${b}`).not.toBe(markShape(b, 30, ''))
    expect(markOf('P1')).toBe('circle')
    expect(markOf('someone', 3)).toBe(ROBOT_MARKS[3])
  })

  it('has a palette fill for every colour a player can choose', () => {
    for (const colour of ROBOT_COLOURS) expect(ROBOT_PALETTE[colour], colour).toMatch(/^#[0-9a-f]{6}$/)
    expect(robotFill('Red', '#000000')).toBe(ROBOT_PALETTE.red)
    expect(robotFill('#123456', '#000000')).toBe('#123456') // a bot's own colour, as given
    expect(robotFill('url(x)', '#000000')).toBe('#000000')
  })

  it('draws a colour CSS names as its hex fill, the same in browsers and in the mail pictures (resvg)', () => {
    // resvg, which draws the mail's pictures, does not know every name a browser knows.
    expect(robotFill('rebeccapurple', '#000000')).toBe('#663399')
    expect(robotFill(' CornflowerBlue ', '#000000')).toBe('#6495ed')
    // A word no renderer knows, or a key every object has, gets the seat's fallback: never an
    // invisible line, never a function's text in the picture.
    for (const word of ['blorp', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'sky blue']) {
      expect(robotFill(word, '#010203'), word).toBe('#010203')
    }
    expect(robotFill(null, '#010203')).toBe('#010203')
    expect(robotFill('#abc', '#010203')).toBe('#abc')
    expect(robotFill('#abcd', '#010203')).toBe('#010203')
  })

  it('keeps every two robot colours plainly apart, also with protanopia and deuteranopia', () => {
    const rows = Object.entries(ROBOT_PALETTE).map(([word, hex]) =>
      `${word.padEnd(7)} ${hex}  L* ${VISIONS.map((v) => lightness(seen(hex, v)).toFixed(0).padStart(3)).join(' ')}`)
    console.log(`robot palette (L* normal, protanopia, deuteranopia):\n${rows.join('\n')}`)
    for (const vision of VISIONS) {
      for (const [a, b] of pairs(Object.keys(ROBOT_PALETTE))) {
        const distance = colourDistance(seen(ROBOT_PALETTE[a]!, vision), seen(ROBOT_PALETTE[b]!, vision))
        expect(distance, `${a} and ${b} (${vision})`).toBeGreaterThanOrEqual(15)
      }
    }
  })

  it('can fail: CSS red and green, or brown and green, run together for a deuteranope', () => {
    expect(colourDistance(simulate('#ff0000', 'deuteranopia'), simulate('#00b000', 'deuteranopia'))).toBeLessThan(15)
    expect(colourDistance(simulate('#a52a2a', 'deuteranopia'), simulate('#008000', 'deuteranopia'))).toBeLessThan(15)
    expect(simulate('#808080', 'protanopia')).toBe('#808080') // greys stay grey
  })

  it('draws each robot of a game in its seat\'s shape, in the pictures and the legend', () => {
    const parsed = parseBoard({ name: 'Eight', rows: 4, cols: 4, start: { at: 'r1c1', facing: 'N' }, elements: [{ type: 'flag', at: 'r4c4', number: 1 }] })
    if (!parsed.ok) throw new Error(parsed.error)
    const words = ['red', 'blue', 'green', 'orange', 'purple', 'teal', 'pink', 'brown']
    const robots: RobotSnapshot[] = words.map((_, i) => ({
      player: `P${i + 1}`, at: { row: 1 + Math.floor(i / 4) * 2, col: 1 + (i % 4) }, facing: 'N', hp: 10, mode: 'real', rebooting: false,
    }))
    const names = ['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal']
    const colours = Object.fromEntries(robots.map((r, i) => [r.player, words[i]!]))
    const svg = boardSvg(compileBoard(parsed.value), { robots, colours, names: Object.fromEntries(robots.map((r, i) => [r.player, names[i]!])), title: 'Eight robots', squareSize: 80 })
    const drawn = [...svg.matchAll(/data-player="(P\d)"[^>]*>.*?<g class="body" data-mark="(\w+)">(<\w+)[^>]*fill="(#[0-9a-f]{6})"/g)].map((m) => ({ player: m[1], mark: m[2], fill: m[4] }))
    expect(drawn).toHaveLength(8)
    expect(new Set(drawn.map((d) => d.mark)).size).toBe(8)
    for (const d of drawn) expect(d.fill).toBe(ROBOT_PALETTE[colours[d.player!]!])
    // The legend shows the eight shapes and says so.
    const legend = legendEntries().find((e) => e.type === 'robot-shapes')!
    expect(legend.explanation).toContain('seat 1 a circle, 2 a square')
    expect([...legend.svg.matchAll(/data-mark="(\w+)"/g)].map((m) => m[1])).toEqual([...ROBOT_MARKS])

    const dir = join(process.cwd(), 'test-results', 'screenshots')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'robot-looks-1-eight-robots.png'), boardPng(svg))
    let deuteranope = svg
    for (const hex of Object.values(ROBOT_PALETTE)) deuteranope = deuteranope.split(hex).join(simulate(hex, 'deuteranopia'))
    writeFileSync(join(dir, 'robot-looks-2-as-a-deuteranope-sees-them.png'), boardPng(deuteranope))
  })
})
