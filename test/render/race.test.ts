// The race chart of the game page (race.ts): flags touched and HP of every player after each
// published turn. The browser test sees it on the page; here its lines, scales and words are
// checked, and one whole chart is kept byte for byte (race/, taken with `npx vitest -u`).
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { raceChart, type RaceSeries } from '../../src/render/race.js'
import { ROBOT_PALETTE } from '../../src/render/robot-looks.js'
import { DEFAULT_PALETTE } from '../../src/render/util.js'
import { allElements, byClass, type Found } from './svg-query.js'

const KEPT = join(import.meta.dirname, 'race')

// Three players over three turns: Ann (the viewer) tags two flags, Bob one; Cy has no turn yet.
const series = (): RaceSeries[] => [
  { player: 'P1', name: 'Ann', mine: true, points: [{ turn: 0, flags: 0, hp: 10 }, { turn: 1, flags: 1, hp: 9 }, { turn: 3, flags: 2, hp: 7 }] },
  { player: 'P2', name: 'Bob', colour: 'Purple', points: [{ turn: 0, flags: 0, hp: 10 }, { turn: 2, flags: 1, hp: 4 }, { turn: 3, flags: 1, hp: 10 }] },
  { player: 'P3', name: 'Cy', points: [] },
]
const options = { flagCount: 3, maxHp: 10 }

/** The attributes of every element named `tag`, in document order. */
const elements = (svg: string, tag: string) => allElements(svg).filter((e) => e.tag === tag).map((e) => e.attrs)

/** One panel's part of the picture ("Flags touched" or "HP"). */
function panel(svg: string, label: string): string {
  const found = byClass(svg, 'panel').filter((g) => g.attrs['data-panel'] === label)
  expect(found).toHaveLength(1)
  return found[0]!.outer
}

/** What an element says, without its markup. */
const words = (e: Found) => e.outer.replace(/<[^>]*>/g, '')

/** The text of every <text> element, in order. */
const texts = (svg: string) => allElements(svg).filter((e) => e.tag === 'text').map(words)

describe('raceChart', () => {
  it('gives the same bytes for the same series, and keeps the whole picture', async () => {
    const svg = raceChart(series(), options)
    expect(raceChart(series(), options)).toBe(svg)
    await expect(svg + '\n').toMatchFileSnapshot(join(KEPT, 'three-players.svg'))
  })

  it('scales turns across the plot, flags and HP each in its own panel', () => {
    const svg = raceChart(series(), options)
    // 640 wide; panels 150 high, 44 apart, the first 28 from the top; 30 below for the turns.
    expect(svg).toContain('viewBox="0 0 640 402" width="640" height="402"')
    // Turn 0 on the left edge of the plot (x 44), the last turn on its right (640 - 120 = 520).
    const flags = elements(panel(svg, 'Flags touched'), 'path')
    const ann = flags.find((p) => p['data-player'] === 'P1')!
    // Flags change at a turn, so they are drawn as steps; 3 flags fill the panel (y 28 to 178).
    expect(ann.d).toBe(`M44,178H${44 + 476 / 3}V128H520V78`)
    const hp = elements(panel(svg, 'HP'), 'path')
    // HP is drawn as straight lines; 10 HP at the top of the lower panel (y 222), 0 at y 372.
    expect(hp.find((p) => p['data-player'] === 'P2')!.d).toBe(`M44,222L${44 + (2 * 476) / 3},312L520,222`)
  })

  it("draws the viewer's line last and thicker in both panels, and names them in bold", () => {
    const svg = raceChart(series(), options)
    for (const label of ['Flags touched', 'HP']) {
      const lines = elements(panel(svg, label), 'path')
      // Cy has no point yet: no line for Cy. Ann's comes after Bob's, so it is drawn on top.
      expect(lines.map((p) => p['data-player'])).toEqual(['P2', 'P1'])
      expect(lines.map((p) => p['stroke-width'])).toEqual(['2.5', '5'])
      expect(lines.map((p) => p.opacity)).toEqual(['0.85', undefined])
      expect(elements(panel(svg, label), 'circle').map((c) => c.r)).toEqual(['3.5', '5'])
    }
    // Each line's tooltip says where the player stood after their last turn.
    expect(svg).toContain('<title>Ann: flags touched 2 after turn 3</title>')
    expect(svg).toContain('<title>Bob: hp 10 after turn 3</title>')
    // The key keeps seat order, the viewer in bold, with each player's last figures.
    const keys = byClass(svg, 'key').map((key) => [key.attrs['data-player'], allElements(key.outer).find((e) => e.tag === 'text')!] as const)
    expect(keys.map(([player, text]) => [player, text.attrs['font-weight'] === 'bold', words(text)])).toEqual([
      ['P1', true, 'Ann 2⚑ 7HP'], ['P2', false, 'Bob 1⚑ 10HP'], ['P3', false, 'Cy'],
    ])
  })

  it("colours each player by their colour word's fill, or the palette by seat, wherever their line is drawn", () => {
    const svg = raceChart(series(), options)
    const keyColours = elements(svg, 'rect').slice(1).map((r) => r.fill)
    expect(keyColours).toEqual([DEFAULT_PALETTE[0], ROBOT_PALETTE.purple, DEFAULT_PALETTE[2]])
    const strokes = elements(panel(svg, 'HP'), 'path').map((p) => p.stroke)
    expect(strokes).toEqual([ROBOT_PALETTE.purple, DEFAULT_PALETTE[0]])
  })

  it('marks the scales: every flag, HP in fifths, every turn up to 12 and fewer beyond', () => {
    const svg = raceChart(series(), options)
    expect(texts(panel(svg, 'Flags touched')).slice(1)).toEqual(['0', '1', '2', '3'])
    expect(texts(panel(svg, 'HP')).slice(1)).toEqual(['0', '2', '4', '6', '8', '10'])
    const turnLabels = (chart: string) => elements(chart, 'text').filter((t) => t['text-anchor'] === 'middle').length
    expect(turnLabels(svg)).toBe(4) // turns 0 to 3
    const long: RaceSeries[] = [{ player: 'P1', name: 'Ann', points: [{ turn: 0, flags: 0, hp: 10 }, { turn: 30, flags: 1, hp: 3 }] }]
    const longSvg = raceChart(long, options)
    // 30 turns: every third is labelled, 0 to 30.
    expect(texts(longSvg).filter((t, i, all) => i > all.indexOf('10') && /^\d+$/.test(t))).toEqual(['0', '3', '6', '9', '12', '15', '18', '21', '24', '27', '30'])
    expect(turnLabels(longSvg)).toBe(11)
  })

  it('draws a board without flags and a game without turns without dividing by zero', () => {
    const svg = raceChart([{ player: 'P1', name: 'Ann', points: [{ turn: 0, flags: 0, hp: 10 }] }], { flagCount: 0, maxHp: 10 })
    expect(svg).not.toMatch(/NaN|Infinity/)
    // One flag's height at least, and one turn's width.
    expect(texts(panel(svg, 'Flags touched')).slice(1)).toEqual(['0', '1'])
    expect(elements(panel(svg, 'Flags touched'), 'path')[0]!.d).toBe('M44,178')
    expect(raceChart([], options)).not.toMatch(/NaN|Infinity|<path/)
    // No HP scale (a game's options never give one, but the chart does not trust them): the panel keeps one unit.
    expect(raceChart(series(), { flagCount: 3, maxHp: 0 })).not.toMatch(/NaN|Infinity/)
  })

  it('escapes names and takes a title', () => {
    const svg = raceChart([{ player: 'P1', name: '<b>Ann & "Bo"</b>', points: [{ turn: 1, flags: 0, hp: 10 }] }], { ...options, title: 'Race of <Tuesday>' })
    expect(svg).toContain('&lt;b&gt;Ann &amp; &quot;Bo&quot;&lt;/b&gt; 0⚑ 10HP')
    expect(svg).not.toContain('<b>')
    expect(svg).toContain('<title>Race of &lt;Tuesday&gt;</title>')
    expect(raceChart(series(), options)).toContain('<title>The race: flags touched and HP after each turn</title>')
  })
})
