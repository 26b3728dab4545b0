// Board files (FORMAT.md section 1): every refusal names the element by index and the field.
import { describe, expect, it } from 'vitest'
import { compileBoard, initialBoardState, parseBoard } from '../../src/engine/board.js'
import { WALL_BITS } from '../../src/engine/types.js'
import { makeBoard } from './helpers.js'

const withElements = (elements: unknown[], extra: Record<string, unknown> = {}) =>
  parseBoard({ rows: 5, cols: 5, start: { at: 'r1c1', facing: 'N' }, elements, ...extra })
const errorOf = (elements: unknown[], extra: Record<string, unknown> = {}) => {
  const result = withElements(elements, extra)
  if (result.ok) throw new Error('expected the board to be refused')
  return result.error
}

describe('parseBoard refuses bad boards, naming elements[i].field', () => {
  it('an unknown element type', () => {
    expect(errorOf([{ type: 'wall', at: 'r1c1', side: 'N' }, { type: 'lava', at: 'r2c2' }])).toMatch(/^elements\[1\]/)
  })
  it('a square off the board or not a square', () => {
    expect(errorOf([{ type: 'pit', at: 'r6c1' }])).toMatch(/^elements\[0\]\.at/)
    expect(errorOf([{ type: 'pit', at: 'r2c9' }])).toMatch(/^elements\[0\]\.at/)
    expect(errorOf([{ type: 'pit', at: 'x' }])).toMatch(/^elements\[0\]\.at/)
    expect(errorOf([], { start: { at: 'r9c9', facing: 'N' } })).toMatch(/^start\.at/)
  })
  it('a bad field value', () => {
    expect(errorOf([{ type: 'wall', at: 'r1c1', side: 'NE' }])).toMatch(/^elements\[0\]\.side/)
    expect(errorOf([{ type: 'conveyor', at: 'r1c1', dir: 'N', colour: 'green' }])).toMatch(/^elements\[0\]\.colour/)
    expect(errorOf([{ type: 'laser', at: 'r1c1', dir: 'N', colour: 'red', strength: 4 }])).toMatch(/^elements\[0\]\.strength/)
    expect(errorOf([{ type: 'wrench', at: 'r1c1', count: 3 }])).toMatch(/^elements\[0\]\.count/)
    expect(errorOf([{ type: 'crusher', at: 'r1c1', stages: [6] }])).toMatch(/^elements\[0\]\.stages/)
    expect(errorOf([{ type: 'gear', at: 'r1c1', turn: 'sideways' }])).toMatch(/^elements\[0\]\.turn/)
  })
  it('two floor elements on one square (walls, pushers and lasers may share)', () => {
    expect(errorOf([{ type: 'pit', at: 'r3c3' }, { type: 'gear', at: 'r3c3', turn: 'left' }])).toMatch(/^elements\[1\]\.at/)
    expect(withElements([{ type: 'pit', at: 'r3c3' }, { type: 'wall', at: 'r3c3', side: 'N' }, { type: 'laser', at: 'r3c3', dir: 'E', colour: 'blue' }, { type: 'pusher', at: 'r3c3', side: 'S', stages: [1] }]).ok).toBe(true)
  })
  it('switch targets: a toggle switch works teleporters only, any switch needs a drawbridge or teleporter there', () => {
    expect(errorOf([{ type: 'drawbridge', at: 'r3c3', side: 'N' }, { type: 'switch', at: 'r2c2', kind: 'toggle', targets: ['r3c3'] }])).toMatch(/^elements\[1\]\.targets\[0\]/)
    expect(errorOf([{ type: 'teleporter', at: 'r3c3', colour: 'red' }, { type: 'switch', at: 'r2c2', kind: 'pressure', targets: ['r3c3', 'r4c4'] }])).toMatch(/^elements\[1\]\.targets\[1\]/)
    expect(withElements([{ type: 'drawbridge', at: 'r3c3', side: 'N' }, { type: 'switch', at: 'r2c2', kind: 'pressure', targets: ['r3c3'] }]).ok).toBe(true)
  })
  it('flags: duplicate numbers and gaps', () => {
    expect(errorOf([{ type: 'flag', at: 'r3c3', number: 1 }, { type: 'flag', at: 'r4c4', number: 1 }])).toMatch(/^elements\[1\]\.number/)
    expect(errorOf([{ type: 'flag', at: 'r3c3', number: 1 }, { type: 'flag', at: 'r4c4', number: 3 }])).toMatch(/^elements\[1\]\.number/)
  })
  it('teleporter colours are unique', () => {
    expect(errorOf([{ type: 'teleporter', at: 'r3c3', colour: 'red' }, { type: 'teleporter', at: 'r4c4', colour: 'red' }])).toMatch(/^elements\[1\]\.colour/)
  })
  it('a teleporter colour is one word (FORMAT.md)', () => {
    for (const colour of ['dark red', ' amber', 'amber\t', '']) {
      expect(errorOf([{ type: 'teleporter', at: 'r3c3', colour }]), JSON.stringify(colour)).toMatch(/^elements\[0\]\.colour/)
    }
    for (const colour of ['amber', 'sky-blue', 'Teal', 'c2']) expect(withElements([{ type: 'teleporter', at: 'r3c3', colour }]).ok, colour).toBe(true)
  })
  it('a field the board, its start or an element type does not have: misspelt, or of another type (FORMAT.md: anything else)', () => {
    expect(errorOf([{ type: 'laser', at: 'r2c4', dir: 'W', colour: 'blue', strenght: 3 }])).toBe(
      'elements[0].strenght: a laser has no field "strenght" (it has type, at, dir, colour, strength)')
    expect(errorOf([{ type: 'wall', at: 'r1c1', side: 'N' }, { type: 'pit', at: 'r3c3', side: 'N' }])).toMatch(/^elements\[1\]\.side: a pit has no field/)
    // JSON.parse keeps "__proto__" as the element's own key: it is a field like any other.
    expect(errorOf([JSON.parse('{"type": "pit", "at": "r3c3", "__proto__": {}}')])).toMatch(/^elements\[0\]\.__proto__: a pit has no field/)
    expect(errorOf([], { elments: [] })).toBe('elments: a board has no field "elments" (it has name, rows, cols, start, elements)')
    expect(errorOf([], { start: { at: 'r1c1', facnig: 'S' } })).toMatch(/^start\.facnig: the start has no field/)
    // A board a game stored before this check (parseBoard's `stored`) is read back as it was.
    const old = { rows: 5, cols: 5, start: { at: 'r1c1' }, elements: [{ type: 'pit', at: 'r3c3', note: 'deep' }] }
    expect(parseBoard(old, [], { stored: true }).ok).toBe(true)
  })
  it('no more elements than the largest board can hold once each; any length of name and colour', () => {
    const side = 50
    const elements: unknown[] = []
    for (let r = 1; r <= side; r++) {
      for (let c = 1; c <= side; c++) {
        elements.push({ type: 'pit', at: `r${r}c${c}` })
        for (const dir of ['N', 'E', 'S', 'W']) {
          elements.push({ type: 'wall', at: `r${r}c${c}`, side: dir }, { type: 'pusher', at: `r${r}c${c}`, side: dir, stages: [1] },
            { type: 'laser', at: `r${r}c${c}`, dir, colour: 'red' })
        }
      }
    }
    const board = { name: 'x'.repeat(500), rows: side, cols: side, start: { at: 'r1c1' }, elements: elements.slice(1) }
    expect(parseBoard(board).ok).toBe(true)
    expect(parseBoard({ ...board, elements: [...board.elements, { type: 'wall', at: 'r1c1', side: 'N' }, { type: 'wall', at: 'r1c1', side: 'N' }] })).toMatchObject({ ok: false, error: expect.stringMatching(/^elements:/) })
    expect(withElements([{ type: 'teleporter', at: 'r3c3', colour: 'ultramarine'.repeat(10) }]).ok).toBe(true)
  })
  it('the error is a single line', () => {
    expect(errorOf([{ type: 'lava', at: 'r2c2' }])).not.toMatch(/\n/)
  })
})

describe('compileBoard', () => {
  it('lasers and pushers stand on walls: a turret on the side opposite its beam, a pusher on its own side (R20, R23)', () => {
    const board = makeBoard([{ type: 'laser', at: 'r2c3', dir: 'E', colour: 'blue' }, { type: 'pusher', at: 'r4c4', side: 'N', stages: [2] }, { type: 'wall', at: 'r1c1', side: 'S' }])
    expect(board.walls[(2 - 1) * 5 + 2]).toBe(WALL_BITS.W)
    expect(board.walls[(4 - 1) * 5 + 3]).toBe(WALL_BITS.N)
    expect(board.walls[0]).toBe(WALL_BITS.S)
    expect(board.lasers[0]!.strength).toBe(1)
  })
  it('orders teleporters alphabetically by colour and counts flags (R17, R34)', () => {
    const board = makeBoard([{ type: 'teleporter', at: 'r1c2', colour: 'cyan' }, { type: 'flag', at: 'r5c5', number: 2 }, { type: 'teleporter', at: 'r1c3', colour: 'amber' }, { type: 'flag', at: 'r4c4', number: 1 }, { type: 'teleporter', at: 'r1c4', colour: 'blue' }])
    expect(board.teleporters.map((t) => t.colour)).toEqual(['amber', 'blue', 'cyan'])
    expect(board.flagCount).toBe(2)
  })
  it('starts switches off, drawbridges raised and teleporters as written (R15, R16)', () => {
    const parsed = withElements([{ type: 'teleporter', at: 'r1c2', colour: 'a', active: true }, { type: 'teleporter', at: 'r1c3', colour: 'b' }, { type: 'drawbridge', at: 'r3c3', side: 'E' }, { type: 'switch', at: 'r2c2', kind: 'pressure', targets: ['r3c3'] }])
    if (!parsed.ok) throw new Error(parsed.error)
    expect(initialBoardState(compileBoard(parsed.value))).toEqual({ switches: { r2c2: 'off' }, drawbridges: { r3c3: 'raised' }, teleporters: { r1c2: 'active', r1c3: 'inactive' } })
  })
})
