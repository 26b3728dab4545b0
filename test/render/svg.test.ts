// The board picture's structure: every element type is drawn where R1 puts it, with the data
// a page or test can query. No snapshots: each assertion names what a reader would check.
import { describe, expect, it } from 'vitest'
import { compileBoard, parseBoard } from '../../src/engine/board.js'
import { boardSvg } from '../../src/render/svg.js'
import { ELEMENT_TYPES, type BoardState } from '../../src/engine/types.js'
import { EVERY_ELEMENT, everyElementBoard } from './fixture.js'
import { allElements, byClass, one, texts, translation } from './svg-query.js'

const board = everyElementBoard()
const svg = boardSvg(board)

function square(name: string): { x: number; y: number } {
  const rect = byClass(svg, 'sq').find((e) => e.attrs['data-square'] === name)
  if (!rect) throw new Error(`no square ${name}`)
  return { x: Number(rect.attrs.x), y: Number(rect.attrs.y) }
}

function element(type: string, at: string) {
  const found = byClass(svg, 'el', type).filter((e) => e.attrs['data-square'] === at)
  expect(found, `${type} at ${at}`).toHaveLength(1)
  return found[0]!
}

describe('boardSvg: every element type', () => {
  it('is well-formed markup with an svg root sized from squareSize', () => {
    const root = allElements(svg)[0]!
    expect(root.tag).toBe('svg')
    expect(root.attrs['data-rows']).toBe('6')
    expect(root.attrs['data-cols']).toBe('7')
    const big = allElements(boardSvg(board, { squareSize: 80 }))[0]!
    expect(Number(big.attrs.width)).toBeCloseTo(Number(root.attrs.width) * 2)
    expect(big.attrs.viewBox).toBe(root.attrs.viewBox)
  })

  it.each(ELEMENT_TYPES)('draws every %s of the board, on its square', (type) => {
    const expected = EVERY_ELEMENT.elements.filter((e) => e.type === type).map((e) => e.at).sort()
    expect(expected.length).toBeGreaterThan(0)
    const drawn = byClass(svg, 'el', type).map((e) => e.attrs['data-square']).sort()
    expect(drawn).toEqual(expected)
  })

  it('draws the start square with its facing', () => {
    const start = one(svg, 'el', 'start')
    expect(start.attrs['data-square']).toBe('r1c1')
    expect(start.attrs['data-facing']).toBe('N')
  })

  it('places each element group at its own square (R1)', () => {
    for (const e of byClass(svg, 'el')) {
      expect(translation(e), `${e.attrs.class} ${e.attrs['data-square']}`).toEqual(square(e.attrs['data-square']!))
    }
  })
})

describe('boardSvg: coordinates as R1 writes them', () => {
  it('puts r1c1 at the bottom left and r6c7 at the top right', () => {
    const squares = byClass(svg, 'sq').map((e) => ({ name: e.attrs['data-square'], x: Number(e.attrs.x), y: Number(e.attrs.y) }))
    expect(squares).toHaveLength(42)
    const maxY = Math.max(...squares.map((s) => s.y))
    const minY = Math.min(...squares.map((s) => s.y))
    const minX = Math.min(...squares.map((s) => s.x))
    const maxX = Math.max(...squares.map((s) => s.x))
    expect(square('r1c1')).toEqual({ x: minX, y: maxY })
    expect(square('r6c7')).toEqual({ x: maxX, y: minY })
    expect(square('r1c7')).toEqual({ x: maxX, y: maxY })
    expect(square('r6c1')).toEqual({ x: minX, y: minY })
  })

  it('goes north with the row number and east with the column number', () => {
    expect(square('r3c4').y).toBeLessThan(square('r2c4').y)
    expect(square('r3c4').x).toBe(square('r2c4').x)
    expect(square('r3c5').x).toBeGreaterThan(square('r3c4').x)
    expect(square('r3c5').y).toBe(square('r3c4').y)
  })

  it('labels rows r1.. from the bottom and columns c1.. from the left', () => {
    const rowLabels = byClass(svg, 'label', 'row')
    const colLabels = byClass(svg, 'label', 'col')
    const yOf = (text: string) => Number(rowLabels.find((e) => texts(e.outer)[0] === text)!.attrs.y)
    const xOf = (text: string) => Number(colLabels.find((e) => texts(e.outer)[0] === text)!.attrs.x)
    expect(yOf('r1')).toBeGreaterThan(yOf('r6'))
    expect(yOf('r1')).toBe(square('r1c1').y + 50)
    expect(xOf('c1')).toBeLessThan(xOf('c7'))
    expect(xOf('c7')).toBe(square('r1c7').x + 50)
    expect(rowLabels.map((e) => texts(e.outer)[0])).toEqual(expect.arrayContaining(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']))
  })
})

describe('boardSvg: what each symbol shows', () => {
  it('conveyors: colour, direction, and a bend where a belt feeds a perpendicular one (R18)', () => {
    const blue = element('conveyor', 'r2c4')
    expect(blue.attrs.class).toContain('conveyor-blue')
    expect(blue.attrs['data-dir']).toBe('N')
    expect(blue.attrs['data-curve']).toBeUndefined()
    expect((blue.outer.match(/<polyline/g) ?? []).length).toBe(2) // the express double chevron
    const bend = element('conveyor', 'r4c4')
    expect(bend.attrs.class).toContain('conveyor-yellow')
    expect(bend.attrs['data-curve']).toBe('E')
    expect(bend.outer).toContain('Q50 50') // the curve into the arrow
    expect(element('conveyor', 'r4c5').attrs['data-dir']).toBe('W')
  })

  it('conveyors: no bend where a wall stands between the two belts, for no robot rides across it (R4, R18)', () => {
    const belts = (walled: boolean) => {
      const parsed = parseBoard({
        name: 'Belts', rows: 3, cols: 3, start: { at: 'r1c1', facing: 'N' },
        elements: [
          { type: 'conveyor', at: 'r2c2', dir: 'N', colour: 'yellow' },
          { type: 'conveyor', at: 'r2c3', dir: 'W', colour: 'yellow' },
          ...(walled ? [{ type: 'wall', at: 'r2c2', side: 'E' }] : []),
        ],
      })
      if (!parsed.ok) throw new Error(parsed.error)
      const fed = byClass(boardSvg(compileBoard(parsed.value)), 'el', 'conveyor').find((e) => e.attrs['data-square'] === 'r2c2')!
      return fed.attrs['data-curve']
    }
    expect(belts(false)).toBe('E')
    expect(belts(true)).toBeUndefined()
  })

  it('pushers and crushers show their stages', () => {
    const pusher = element('pusher', 'r1c3')
    expect(pusher.attrs['data-side']).toBe('W')
    expect(pusher.attrs['data-stages']).toBe('1 3 5')
    expect(texts(pusher.outer)).toContain('1 3 5')
    const crusher = element('crusher', 'r5c5')
    expect(texts(crusher.outer)).toContain('2 4')
  })

  it('gears by direction', () => {
    expect(element('gear', 'r4c6').attrs['data-turn']).toBe('left')
    expect(element('gear', 'r5c6').attrs['data-turn']).toBe('right')
    expect(element('gear', 'r6c6').attrs['data-turn']).toBe('uturn')
    expect(element('gear', 'r4c6').outer).not.toBe(element('gear', 'r5c6').outer.replace('r5c6', 'r4c6'))
  })

  it('laser turrets: direction, colour and one light per point of strength', () => {
    const blue = element('laser', 'r3c1')
    expect([blue.attrs['data-dir'], blue.attrs['data-colour'], blue.attrs['data-strength']]).toEqual(['E', 'blue', '1'])
    const red = element('laser', 'r6c2')
    expect([red.attrs['data-dir'], red.attrs['data-colour'], red.attrs['data-strength']]).toEqual(['S', 'red', '2'])
    expect((red.outer.match(/r="4" fill="#fff"/g) ?? []).length).toBe(2)
  })

  it('standing beams cover their squares until a wall, the edge or a raised drawbridge (R23)', () => {
    const beams = byClass(svg, 'beam')
    const east = beams.find((b) => b.attrs['data-square'] === 'r3c1')!
    expect(east.attrs['data-squares']).toBe('r3c1 r3c2 r3c3 r3c4 r3c5 r3c6 r3c7')
    const south = beams.find((b) => b.attrs['data-square'] === 'r6c2')!
    expect(south.attrs['data-squares']).toBe('r6c2 r5c2') // the raised drawbridge at r4c2 stops it
    expect((south.outer.match(/<line/g) ?? []).length).toBe(2) // strength 2: two lines
    const lowered: BoardState = { switches: { r1c5: 'on' }, drawbridges: { r4c2: 'lowered' }, teleporters: {} }
    const after = byClass(boardSvg(board, { boardState: lowered }), 'beam').find((b) => b.attrs['data-square'] === 'r6c2')!
    expect(after.attrs['data-squares']).toBe('r6c2 r5c2 r4c2 r3c2') // then the wall on r2c2 N
  })

  it('drawbridges: raised at the start with the bridge side, lowered from the board state (R15)', () => {
    const raised = element('drawbridge', 'r4c2')
    expect(raised.attrs['data-state']).toBe('raised')
    expect(raised.attrs['data-side']).toBe('S')
    expect(texts(raised.outer)).toContain('r1c5') // its switch, as the rules write it
    const state: BoardState = { switches: { r1c5: 'on' }, drawbridges: { r4c2: 'lowered' }, teleporters: { r5c1: 'active' } }
    const lowered = byClass(boardSvg(board, { boardState: state }), 'el', 'drawbridge').find((e) => e.attrs['data-square'] === 'r4c2')!
    expect(lowered.attrs['data-state']).toBe('lowered')
    expect(lowered.attrs.class).toContain('drawbridge-lowered')
  })

  it('teleporters show their colour name and whether they are active (R17)', () => {
    const amber = element('teleporter', 'r5c1')
    expect(amber.attrs['data-state']).toBe('active')
    expect(texts(amber.outer)).toContain('amber')
    const violet = element('teleporter', 'r6c4')
    expect(violet.attrs['data-state']).toBe('inactive')
    expect(violet.outer).toContain('stroke-dasharray')
    const state: BoardState = { switches: { r2c6: 'on' }, drawbridges: {}, teleporters: { r6c4: 'active' } }
    const on = byClass(boardSvg(board, { boardState: state }), 'el', 'teleporter').find((e) => e.attrs['data-square'] === 'r6c4')!
    expect(on.attrs['data-state']).toBe('active')
  })

  it('switches: kind, state and targets, with a link to each target (R16)', () => {
    const pressure = element('switch', 'r1c5')
    expect(pressure.attrs['data-kind']).toBe('pressure')
    expect(pressure.attrs['data-state']).toBe('off')
    expect(pressure.attrs['data-targets']).toBe('r4c2 r5c1')
    expect(texts(pressure.outer)).toContain('OFF')
    const toggle = element('switch', 'r2c6')
    expect(toggle.attrs['data-kind']).toBe('toggle')
    const links = byClass(svg, 'link').map((l) => `${l.attrs['data-square']}>${l.attrs['data-target']}`)
    expect(links).toEqual(['r1c5>r4c2', 'r1c5>r5c1', 'r2c6>r6c4'])
    const state: BoardState = { switches: { r1c5: 'on', r2c6: 'on' }, drawbridges: {}, teleporters: {} }
    const onSvg = boardSvg(board, { boardState: state })
    const on = byClass(onSvg, 'el', 'switch').find((e) => e.attrs['data-square'] === 'r1c5')!
    expect(on.attrs['data-state']).toBe('on')
    expect(texts(on.outer)).toContain('ON')
  })

  it('wrenches 1 and 2, numbered flags, upgrade stations, walls by side', () => {
    expect(element('wrench', 'r2c5').attrs['data-count']).toBe('1')
    expect(element('wrench', 'r2c7').attrs['data-count']).toBe('2')
    expect(texts(element('flag', 'r5c3').outer)).toContain('1')
    expect(texts(element('flag', 'r3c7').outer)).toContain('2')
    expect(texts(element('upgrade', 'r3c5').outer)).toContain('UP')
    expect(element('wall', 'r2c2').attrs['data-side']).toBe('N')
    expect(element('wall', 'r1c7').attrs['data-side']).toBe('E')
  })

  it('gives each element type a look of its own', () => {
    // Strip the attributes that name the square: what is left is the symbol itself.
    const looks = new Map<string, string>()
    for (const e of byClass(svg, 'el')) {
      const body = e.outer.replace(/^<g[^>]*>/, '')
      const type = e.attrs.class!.split(' ')[1]!
      for (const [other, look] of looks) if (other !== type) expect(look, `${type} looks like ${other}`).not.toBe(body)
      looks.set(type, body)
    }
  })
})

describe('boardSvg: text and determinism', () => {
  it('escapes the title, names, players and teleporter colours', () => {
    const hostile = '<script>alert("x")</script>'
    const out = boardSvg(board, {
      title: hostile,
      names: { Ann: hostile },
      robots: [{ player: '<img src=x onerror="y">', at: { row: 2, col: 2 }, facing: 'N', hp: 10, mode: 'real', rebooting: false },
        { player: 'Ann', at: { row: 2, col: 3 }, facing: 'N', hp: 10, mode: 'real', rebooting: false }],
      colours: { Ann: 'red" onload="alert(1)' },
    })
    expect(out).not.toContain('<script')
    expect(out).not.toContain('<img')
    expect(out).not.toContain('onload="')
    expect(out).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
    expect(() => allElements(out)).not.toThrow()
    expect(byClass(out, 'robot')[0]!.attrs['data-player']).toBe('&lt;img src=x onerror=&quot;y&quot;&gt;')
  })

  it('gives the same bytes for the same input and carries no ids', () => {
    const options = { title: 'Stage 3', robots: [{ player: 'Ann', at: { row: 2, col: 3 }, facing: 'E' as const, hp: 9, mode: 'real' as const, rebooting: false }] }
    const a = boardSvg(everyElementBoard(), options)
    const b = boardSvg(everyElementBoard(), options)
    expect(a).toBe(b)
    expect(a).not.toMatch(/\sid="/)
  })
})
