// Robots and the shots of a stage in the board picture (R24, R26, R33, R23).
import { describe, expect, it } from 'vitest'
import type { GameEvent } from '../../src/engine/events.js'
import type { RobotSnapshot } from '../../src/engine/types.js'
import { boardSvg } from '../../src/render/svg.js'
import { DEFAULT_PALETTE } from '../../src/render/util.js'
import { everyElementBoard } from './fixture.js'
import { byClass, texts, translation, type Found } from './svg-query.js'

const board = everyElementBoard()
const time = { stage: 2, phase: 'combat' as const, priority: null, step: 0 }

function robot(player: string, at: string | null, facing: RobotSnapshot['facing'], extra: Partial<RobotSnapshot> = {}): RobotSnapshot {
  const m = at ? /^r(\d+)c(\d+)$/.exec(at)! : null
  return { player, at: m ? { row: Number(m[1]), col: Number(m[2]) } : null, facing, hp: 10, mode: 'real', rebooting: false, ...extra }
}

function squareBox(svg: string, name: string): { x: number; y: number } {
  const rect = byClass(svg, 'sq').find((e) => e.attrs['data-square'] === name)!
  return { x: Number(rect.attrs.x), y: Number(rect.attrs.y) }
}

function robotNamed(svg: string, player: string): Found {
  const found = byClass(svg, 'robot').filter((e) => e.attrs['data-player'] === player)
  expect(found).toHaveLength(1)
  return found[0]!
}

const robots = [
  robot('Ann', 'r2c3', 'E', { hp: 9 }),
  robot('Bob', 'r3c6', 'W', { rebooting: true }),
  robot('Cy', 'r1c1', 'N', { mode: 'virtual' }),
  robot('Dee', 'r1c1', 'S', { mode: 'virtual' }),
  robot('Eve', null, 'N', { mode: 'destroyed', hp: 0 }),
]

describe('boardSvg: robots', () => {
  const svg = boardSvg(board, { robots, colours: { Ann: '#123456' }, names: { Bob: 'robert' } })

  it('draws every robot on the floor and no destroyed one', () => {
    expect(byClass(svg, 'robot').map((r) => r.attrs['data-player'])).toEqual(['Ann', 'Bob', 'Cy', 'Dee'])
  })

  it('stands each robot on its square, with its facing as data and as the arrow (R2)', () => {
    const ann = robotNamed(svg, 'Ann')
    expect(ann.attrs['data-square']).toBe('r2c3')
    expect(ann.attrs['data-facing']).toBe('E')
    const box = squareBox(svg, 'r2c3')
    expect(translation(ann)).toEqual({ x: box.x + 50, y: box.y + 50 })
    // The arrow is drawn pointing north and turned clockwise: E is 90°, W 270°.
    expect(ann.outer).toMatch(/<g transform="rotate\(90\)"><polygon class="facing"/)
    expect(robotNamed(svg, 'Bob').outer).toMatch(/<g transform="rotate\(270\)"><polygon class="facing"/)
    expect(robotNamed(svg, 'Cy').outer).toMatch(/<g transform="rotate\(0\)"><polygon class="facing"/)
  })

  it("uses the player's colour, else the palette in seat order, and the initial of the display name", () => {
    expect(robotNamed(svg, 'Ann').outer).toContain('fill="#123456"')
    expect(robotNamed(svg, 'Bob').outer).toContain(`fill="${DEFAULT_PALETTE[1]}"`)
    expect(texts(robotNamed(svg, 'Bob').outer)).toContain('R')
    expect(texts(robotNamed(svg, 'Ann').outer)).toContain('A')
  })

  it('draws virtual robots translucent (R24)', () => {
    const cy = robotNamed(svg, 'Cy')
    expect(cy.attrs['data-mode']).toBe('virtual')
    expect(Number(cy.attrs.opacity)).toBeLessThan(1)
    expect(robotNamed(svg, 'Ann').attrs.opacity).toBeUndefined()
  })

  it('marks rebooting robots with a dashed ring and an R (R33)', () => {
    const bob = robotNamed(svg, 'Bob')
    expect(bob.attrs['data-rebooting']).toBe('true')
    expect(byClass(bob.outer, 'reboot-ring')[0]!.attrs['stroke-dasharray']).toBeDefined()
    expect(texts(byClass(bob.outer, 'reboot-mark')[0]!.outer)).toEqual(['R'])
    expect(byClass(robotNamed(svg, 'Ann').outer, 'reboot-mark')).toHaveLength(0)
  })

  it('draws robots that share a square apart from each other, inside the square (R24)', () => {
    const cy = translation(robotNamed(svg, 'Cy'))
    const dee = translation(robotNamed(svg, 'Dee'))
    expect(cy).not.toEqual(dee)
    const box = squareBox(svg, 'r1c1')
    for (const p of [cy, dee]) {
      expect(p.x).toBeGreaterThan(box.x)
      expect(p.x).toBeLessThan(box.x + 100)
      expect(p.y).toBeGreaterThan(box.y)
      expect(p.y).toBeLessThan(box.y + 100)
    }
    const four = boardSvg(board, { robots: ['A', 'B', 'C', 'D'].map((p) => robot(p, 'r4c4', 'N', { mode: 'virtual' })) })
    const spots = new Set(byClass(four, 'robot').map((r) => JSON.stringify(translation(r))))
    expect(spots.size).toBe(4)
  })
})

describe('boardSvg: shots of a stage', () => {
  const events: GameEvent[] = [
    { kind: 'robot-laser', player: 'Ann', dir: 'E', squares: [{ row: 2, col: 4 }, { row: 2, col: 5 }, { row: 2, col: 6 }], hit: null, damage: 0, time },
    { kind: 'robot-laser', player: 'Bob', dir: 'W', squares: [{ row: 3, col: 5 }, { row: 3, col: 4 }], hit: 'Zed', damage: 1, time },
    { kind: 'robot-laser', player: 'Cy', dir: 'N', squares: [], hit: null, damage: 0, time },
    { kind: 'board-laser', from: { row: 6, col: 2 }, dir: 'S', colour: 'red', strength: 2, squares: [{ row: 6, col: 2 }, { row: 5, col: 2 }], hits: ['Fay'], time: { ...time, phase: 'board-laser' } },
    { kind: 'moved', player: 'Ann', from: { row: 2, col: 2 }, to: { row: 2, col: 3 }, cause: 'card', time: { ...time, phase: 'movement' } },
  ]
  const shotRobots = [...robots, robot('Zed', 'r3c4', 'N'), robot('Fay', 'r5c2', 'E')]
  const svg = boardSvg(board, { robots: shotRobots, events })

  function lineOf(shot: Found): { x1: number; y1: number; x2: number; y2: number } {
    const line = /<line x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"/.exec(shot.outer)!
    return { x1: Number(line[1]), y1: Number(line[2]), x2: Number(line[3]), y2: Number(line[4]) }
  }

  it('draws one shot per laser event that crossed squares', () => {
    expect(byClass(svg, 'shot', 'robot-laser').map((s) => s.attrs['data-player'])).toEqual(['Ann', 'Bob'])
    expect(byClass(svg, 'shot', 'board-laser')).toHaveLength(1)
  })

  it("lays a robot's shot over exactly the squares it crossed (R26)", () => {
    const ann = byClass(svg, 'shot', 'robot-laser').find((s) => s.attrs['data-player'] === 'Ann')!
    expect(ann.attrs['data-squares']).toBe('r2c4 r2c5 r2c6')
    const line = lineOf(ann)
    const first = squareBox(svg, 'r2c4')
    const last = squareBox(svg, 'r2c6')
    expect(line.x1).toBe(first.x) // from the west side of r2c4
    expect(line.x2).toBeGreaterThan(last.x + 50) // to the far side of r2c6
    expect(line.x2).toBeLessThanOrEqual(last.x + 100)
    expect(line.y1).toBe(first.y + 50)
    expect(line.y2).toBe(first.y + 50)
    expect(byClass(svg, 'hit').filter((h) => h.attrs['data-square'] === 'r2c6')).toHaveLength(0)
  })

  it('ends a shot that hit at the target with a hit marker', () => {
    const bob = byClass(svg, 'shot', 'robot-laser').find((s) => s.attrs['data-player'] === 'Bob')!
    expect(bob.attrs['data-hit']).toBe('Zed')
    const line = lineOf(bob)
    const first = squareBox(svg, 'r3c5')
    const target = squareBox(svg, 'r3c4')
    expect(line.x1).toBe(first.x + 100) // Bob fires west from r3c6: the beam enters r3c5 on its east side
    expect(line.x2).toBe(target.x + 50)
    const hits = byClass(svg, 'hit').filter((h) => h.attrs['data-shot'] === 'robot-laser')
    expect(hits.map((h) => [h.attrs['data-player'], h.attrs['data-square']])).toEqual([['Zed', 'r3c4']])
  })

  it('draws a board laser shot with one line per point of strength and a burst on the robot hit (R23)', () => {
    const shot = byClass(svg, 'shot', 'board-laser')[0]!
    expect(shot.attrs['data-squares']).toBe('r6c2 r5c2')
    expect(shot.attrs['data-hits']).toBe('Fay')
    expect(shot.attrs['data-colour']).toBe('red')
    expect((shot.outer.match(/<line/g) ?? []).length).toBe(4) // 2 lines, each with its white casing
    const hits = byClass(svg, 'hit').filter((h) => h.attrs['data-shot'] === 'board-laser')
    expect(hits.map((h) => [h.attrs['data-player'], h.attrs['data-square']])).toEqual([['Fay', 'r5c2']])
    const box = squareBox(svg, 'r5c2')
    const [x, y] = hits[0]!.outer.match(/points="([^"]*)"/)![1]!.split(' ')[0]!.split(',').map(Number)
    expect(x).toBe(box.x + 50)
    expect(y).toBeGreaterThan(box.y) // the burst sits on the north rim of Fay's disc, where the beam comes in
    expect(y).toBeLessThan(box.y + 50)
  })

  it('draws beams under the robots (so robots stay readable) and hit bursts over them', () => {
    expect(svg.indexOf('class="layer shots"')).toBeLessThan(svg.indexOf('class="layer robots"'))
    expect(svg.indexOf('class="layer hits"')).toBeGreaterThan(svg.indexOf('class="layer robots"'))
  })
})
