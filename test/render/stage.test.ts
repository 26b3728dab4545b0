// A stage picture straight from the rules engine: resolve one turn, draw stage 1 from its
// TurnResult, and check the picture says what the events say (R23, R24, R26).
import { describe, expect, it } from 'vitest'
import { parseRulesCase } from '../../src/engine/rules-case.js'
import { resolveTurn } from '../../src/engine/turn.js'
import { formatSquare } from '../../src/engine/geometry.js'
import { boardSvg, stageView } from '../../src/render/svg.js'
import { byClass } from './svg-query.js'

const CASE = {
  board: {
    rows: 5, cols: 5, start: { at: 'r1c1', facing: 'N' },
    elements: [
      { type: 'laser', at: 'r4c1', dir: 'E', colour: 'red', strength: 1 },
      { type: 'conveyor', at: 'r1c5', dir: 'N', colour: 'yellow' },
    ],
  },
  turn: 3,
  robots: [
    { player: 'Ann', at: 'r2c2', facing: 'N', program: ['RT90:80', 'LF90:90', 'RT90:120', 'LF90:130', 'RT90:160'] },
    { player: 'Bob', at: 'r2c4', facing: 'N', program: ['LF90:70', 'RT90:100', 'LF90:110', 'RT90:140', 'LF90:150'] },
    { player: 'Cid', at: 'r2c3', facing: 'N', mode: 'virtual', placedAfterTurn: 2, program: ['UTRN:10', 'UTRN:20', 'UTRN:30', 'UTRN:40', 'UTRN:50'] },
    { player: 'Dot', at: 'r4c3', facing: 'S', program: ['UTRN:60', 'LF90:170', 'RT90:180', 'LF90:190', 'RT90:200'] },
  ],
}

describe('a stage picture from resolveTurn', () => {
  const parsed = parseRulesCase(CASE, () => { throw new Error('no files') })
  if (!parsed.ok) throw new Error(parsed.error)
  const { board, state, orders } = parsed.value
  const result = resolveTurn(board, state, orders)
  const stage = result.stages[0]!
  const svg = boardSvg(board, { ...stageView(result, 1), title: 'Turn 3, stage 1' })

  it('stageView picks the start (stage 0) and each stage played', () => {
    expect(stageView(result, 0)!.robots).toBe(result.start.robots)
    expect(stageView(result, 0)!.events).toEqual([])
    expect(stageView(result, 3)!.events).toBe(result.stages[2]!.events)
    expect(stageView(result, 6)).toBeNull()
    const start = boardSvg(board, stageView(result, 0)!)
    expect(byClass(start, 'shot')).toHaveLength(0)
    expect(byClass(start, 'robot')).toHaveLength(4)
  })

  it('draws each robot where the stage left it, facing as it faces', () => {
    for (const robot of stage.robots) {
      const drawn = byClass(svg, 'robot').find((r) => r.attrs['data-player'] === robot.player)!
      expect(drawn.attrs['data-square']).toBe(formatSquare(robot.at!))
      expect(drawn.attrs['data-facing']).toBe(robot.facing)
      expect(drawn.attrs['data-mode']).toBe(robot.mode)
    }
  })

  it('draws every laser shot of the stage over the squares its event lists', () => {
    const fired = stage.events.filter((e) => (e.kind === 'robot-laser' || e.kind === 'board-laser') && e.squares.length > 0)
    expect(fired.length).toBeGreaterThanOrEqual(3) // Ann and Bob at each other, the red turret through Dot
    const drawn = byClass(svg, 'shot').map((s) => s.attrs['data-squares'])
    expect(drawn).toEqual(fired.map((e) => (e.kind === 'robot-laser' || e.kind === 'board-laser' ? e.squares.map(formatSquare).join(' ') : '')))
    const ann = byClass(svg, 'shot', 'robot-laser').find((s) => s.attrs['data-player'] === 'Ann')!
    expect(ann.attrs['data-squares']).toBe('r2c3 r2c4') // through the virtual Cid to Bob (R24, R26)
    expect(ann.attrs['data-hit']).toBe('Bob')
  })
})
