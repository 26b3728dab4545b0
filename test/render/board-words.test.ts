// The board in words, for a known position on the every-element board: where each robot stands
// and faces, its flags still to tag, and the pieces within two squares of the viewer's robot.
import { describe, expect, it } from 'vitest'
import { compileBoard, initialBoardState, parseBoard } from '../../src/engine/board.js'
import type { Board } from '../../src/engine/types.js'
import { boardInWords, elementWords, flagsAtStages, listWords, offsetWords } from '../../src/render/board-words.js'
import { everyElementBoard } from './fixture.js'

const board = everyElementBoard()
const robots = [
  { player: 'P1', at: { row: 3, col: 4 }, facing: 'E' as const, hp: 9, mode: 'real' as const, rebooting: false, flags: 1 },
  { player: 'P2', at: { row: 3, col: 5 }, facing: 'W' as const, hp: 4, mode: 'virtual' as const, rebooting: true, flags: 0 },
  { player: 'P3', at: null, facing: 'N' as const, hp: 0, mode: 'destroyed' as const, rebooting: false, flags: 2 },
]
const names = { P1: 'Ann', P2: 'Bob', P3: 'Cy' }

/** A small board from board-file elements, with its start square in the far north-east corner. */
function smallBoard(rows: number, cols: number, elements: unknown[]): Board {
  const parsed = parseBoard({ name: 'Small', rows, cols, start: { at: `r${rows}c${cols}`, facing: 'S' }, elements })
  if (!parsed.ok) throw new Error(parsed.error)
  return compileBoard(parsed.value)
}

/** One real robot of P1's, facing north, on `at`. */
const oneRobot = (row: number, col: number) => [{ player: 'P1', at: { row, col }, facing: 'N' as const, hp: 10, mode: 'real' as const, rebooting: false, flags: 0 }]

describe('boardInWords', () => {
  // Worked out inside each test, not while the tests are collected: a mutation run sees only what
  // a test itself runs.
  const describeBoard = () => boardInWords({ board, robots, names, viewer: 'P1' })

  it('says what the board is and how squares are named (R1)', () => {
    const words = describeBoard()
    expect(words.summary).toContain('Every element: 7 columns by 6 rows; 2 flags.')
    expect(words.summary).toContain('row 1 is the bottom (south) row')
    expect(words.summary).toContain('The start square is r1c1, facing north.')
  })

  it("gives every robot's square, facing, mode and HP", () => {
    const words = describeBoard()
    expect(words.robots.map((r) => [r.name, r.where])).toEqual([
      ['Ann', 'r3c4, facing east, real, 9 HP'],
      ['Bob', 'r3c5, facing west, virtual (passes through other robots), rebooting, 4 HP'],
      ['Cy', 'destroyed, not on the board'],
    ])
  })

  it('lists the flags each robot still has to tag, in order, with the way to the next one', () => {
    const words = describeBoard()
    expect(words.robots[0]!.flagsToTag).toBe('flag 2 at r3c7 (3 east)')
    expect(words.robots[1]!.flagsToTag).toBe('flag 1 at r5c3 (2 north, 2 west), then flag 2 at r3c7')
    expect(words.robots[2]!.flagsToTag).toBe('every flag tagged')
    const unknown = boardInWords({ board, robots: [{ ...robots[0]!, flags: undefined }] })
    expect(unknown.robots[0]!.flagsToTag).toBeNull()
  })

  it("describes the pieces within two squares of the viewer's robot, nearest first", () => {
    const words = describeBoard()
    const lines = words.nearby!.lines
    expect(words.nearby!.name).toBe('Ann')
    expect(lines[0]).toBe('r3c4, your square: express conveyor moving north; in the beam of the blue laser at r3c1 (firing east, 1 damage)')
    const line = (square: string) => lines.find((l) => l.startsWith(`${square},`))
    expect(line('r3c5')).toBe('r3c5, 1 east (ahead): upgrade station; in the beam of the blue laser at r3c1 (firing east, 1 damage); Bob\'s robot, facing west (virtual)')
    expect(line('r3c3')).toBe('r3c3, 1 west (behind): pit; in the beam of the blue laser at r3c1 (firing east, 1 damage)')
    expect(line('r4c4')).toBe('r4c4, 1 north (to the left): conveyor moving north')
    expect(line('r2c4')).toBe('r2c4, 1 south (to the right): express conveyor moving north')
    expect(line('r1c3')).toBe('r1c3, 2 south, 1 west: pusher on the west wall, pushing east in stages 1, 3 and 5')
    expect(line('r2c2')).toBe('r2c2, 1 south, 2 west: wall on the north side')
    expect(line('r4c2')).toBe('r4c2, 1 north, 2 west: raised drawbridge (a pit; its bridge is on the south side)')
    expect(line('r5c5')).toBe('r5c5, 2 north, 1 east: crusher in stages 2 and 4')
    expect(line('r4c6')).toBe('r4c6, 1 north, 2 east: gear turning robots left')
    expect(line('r2c6')).toBe('r2c6, 1 south, 2 east: toggle switch, off, works r6c4')
    expect(line('r1c5')).toBe('r1c5, 2 south, 1 east: pressure switch, off, works r4c2 and r5c1')
    expect(line('r2c5')).toBe('r2c5, 1 south, 1 east: wrench (repairs 1 HP)')
    // Three squares away: not described.
    expect(line('r3c7')).toBeUndefined()
    expect(line('r3c1')).toBeUndefined()
    expect(line('r6c4')).toBeUndefined()
    // Plain squares are left out; the nearest come first.
    expect(lines.some((l) => l.startsWith('r3c2,') && !l.includes('beam'))).toBe(false)
    expect(lines.indexOf(line('r3c5')!)).toBeLessThan(lines.indexOf(line('r1c3')!))
    expect(lines.at(-1)).toBe("The board's edge (the electric fence): 2 squares south.")
  })

  it('follows the mechanisms as they stand: a lowered drawbridge, an active teleporter', () => {
    const at = { ...robots[0]!, at: { row: 5, col: 2 }, facing: 'N' as const }
    const lowered = boardInWords({ board, robots: [at], viewer: 'P1', boardState: { switches: { r1c5: 'on' }, drawbridges: { r4c2: 'lowered' }, teleporters: {} } })
    const lines = lowered.nearby!.lines
    expect(lines).toContain('r4c2, 1 south (behind): lowered drawbridge (plain floor); in the beam of the red laser at r6c2 (firing south, 2 damage)')
    expect(lines).toContain('r5c1, 1 west (to the left): amber teleporter, active')
    expect(lines.find((l) => l.startsWith('r6c2,'))).toBe('r6c2, 1 north (ahead): red laser turret on the north wall, firing south, 2 damage')
    expect(lines).toContain("The board's edge (the electric fence): 1 square north and 1 square west.")
  })

  it('describes no surroundings without a viewer on the board (spectators, destroyed robots)', () => {
    expect(boardInWords({ board, robots, names }).nearby).toBeNull()
    expect(boardInWords({ board, robots, names, viewer: 'P3' }).nearby).toBeNull()
  })

  it('counts flags stage by stage from the turn log', () => {
    const result = {
      stages: [
        { events: [] },
        { events: [{ kind: 'flag-tagged', player: 'P1', number: 2, at: { row: 3, col: 7 } }] },
      ],
      end: { events: [], robots: [{ player: 'P1', flags: 2 }, { player: 'P2', flags: 0 }] },
    }
    expect(flagsAtStages(result)).toEqual([{ P1: 1, P2: 0 }, { P1: 1, P2: 0 }, { P1: 2, P2: 0 }])
  })

  it('says "stage" for a pusher or crusher that acts in one stage, "stages" for more (R20, R22)', () => {
    const small = smallBoard(4, 4, [
      { type: 'pusher', at: 'r1c1', side: 'S', stages: [3] },
      { type: 'pusher', at: 'r1c2', side: 'E', stages: [2, 4] },
      { type: 'crusher', at: 'r2c1', stages: [5] },
      { type: 'crusher', at: 'r2c2', stages: [1, 3, 5] },
    ])
    const state = initialBoardState(small)
    expect(small.elements.map((e) => elementWords(e, state))).toEqual([
      'pusher on the south wall, pushing north in stage 3',
      'pusher on the east wall, pushing west in stages 2 and 4',
      'crusher in stage 5',
      'crusher in stages 1, 3 and 5',
    ])
  })

  it('says "1 flag" on a board with one flag', () => {
    const small = smallBoard(4, 4, [{ type: 'flag', at: 'r2c2', number: 1 }])
    expect(boardInWords({ board: small, robots: [] }).summary).toMatch(/^Small: 4 columns by 4 rows; 1 flag\. /)
  })

  it("names a square's floor element before its walls, whatever order the board file lists them in", () => {
    const small = smallBoard(5, 5, [
      { type: 'wall', at: 'r2c2', side: 'W' },
      { type: 'wall', at: 'r2c2', side: 'N' },
      { type: 'conveyor', at: 'r2c2', dir: 'E', colour: 'yellow' },
    ])
    const words = boardInWords({ board: small, robots: oneRobot(2, 2), viewer: 'P1' })
    expect(words.nearby!.lines[0]).toBe('r2c2, your square: conveyor moving east; wall on the west side; wall on the north side')
  })

  it('says when nothing but plain floor lies within two squares, before the fence', () => {
    // 6 by 6, the robot on r3c3: the fence is 2 squares south and west, 3 north and east; the start
    // square (r6c6) is 3 squares away.
    const words = boardInWords({ board: smallBoard(6, 6, []), robots: oneRobot(3, 3), viewer: 'P1' })
    expect(words.nearby!.lines).toEqual([
      'Nothing but plain floor within two squares.',
      "The board's edge (the electric fence): 2 squares south and 2 squares west.",
    ])
    // Anything at all within reach, and the line is not said.
    const near = boardInWords({ board: smallBoard(6, 6, [{ type: 'pit', at: 'r5c5' }]), robots: oneRobot(3, 3), viewer: 'P1' })
    expect(near.nearby!.lines).toEqual([
      'r5c5, 2 north, 2 east: pit',
      "The board's edge (the electric fence): 2 squares south and 2 squares west.",
    ])
  })

  it('counts only flag tags, each for its own player, among the other events of a stage and of the end', () => {
    const at = { row: 3, col: 7 }
    const result = {
      stages: [
        { events: [{ kind: 'moved', player: 'P1' }, { kind: 'flag-tagged', player: 'P2', number: 1, at }, { kind: 'repaired', player: 'P1' }] },
        { events: [{ kind: 'flag-tagged', player: 'P1', number: 2, at }, { kind: 'moved', player: 'P2' }, { kind: 'flag-tagged', player: 'P1', number: 3, at }] },
      ],
      end: { events: [{ kind: 'repaired', player: 'P2' }, { kind: 'flag-tagged', player: 'P2', number: 2, at }], robots: [{ player: 'P1', flags: 3 }, { player: 'P2', flags: 2 }] },
    }
    expect(flagsAtStages(result)).toEqual([{ P1: 1, P2: 0 }, { P1: 1, P2: 1 }, { P1: 3, P2: 1 }])
  })

  it('joins lists and offsets as people say them', () => {
    expect(listWords([1])).toBe('1')
    expect(listWords([2, 4])).toBe('2 and 4')
    expect(offsetWords({ row: 1, col: 1 }, { row: 1, col: 1 })).toBe('here')
    expect(offsetWords({ row: 4, col: 4 }, { row: 2, col: 5 })).toBe('2 south, 1 east')
  })
})
