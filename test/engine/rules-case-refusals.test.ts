// What a refusal says, beyond the field it names (the cases in test/cases check the field): the
// words a case's author reads to mend it. A mutation run of board.ts and rules-case.ts
// (docs/performance.md, "Issue 17, 2026-11-27, late morning") found each of these could change
// with no test noticing.
import { describe, expect, it } from 'vitest'
import { parseBoard } from '../../src/engine/board.js'
import { parseRulesCase } from '../../src/engine/rules-case.js'

const refusalOf = (result: { ok: true } | { ok: false; error: string }) => {
  if (result.ok) throw new Error('expected a refusal')
  return result.error
}

describe('a board file refused (FORMAT.md section 1)', () => {
  const board = (elements: unknown[]) => refusalOf(parseBoard({ rows: 5, cols: 5, start: { at: 'r1c1' }, elements }))

  it('says the element type is unknown', () => {
    expect(board([{ type: 'lava', at: 'r2c2' }])).toBe('elements[0].type: unknown element type')
  })

  it('shows how a square is written', () => {
    expect(board([{ type: 'pit', at: 'x9' }])).toBe('elements[0].at: "x9" is not a square like r3c4')
  })

  it('names the missing flag number', () => {
    expect(board([{ type: 'flag', at: 'r2c2', number: 1 }, { type: 'flag', at: 'r3c3', number: 3 }])).toMatch(/^elements\[1\]\.number: .*flag 2 is missing$/)
  })

  it('A29: teleporter colours that differ only in letter case are one colour', () => {
    expect(board([{ type: 'teleporter', at: 'r2c2', colour: 'Red' }, { type: 'teleporter', at: 'r3c3', colour: 'red' }]))
      .toBe('elements[1].colour: teleporter colour "red" is used twice')
  })

  it('A29: teleporter colours that differ only in accents are one colour', () => {
    expect(board([{ type: 'teleporter', at: 'r2c2', colour: 'écru' }, { type: 'teleporter', at: 'r3c3', colour: 'Ecru' }]))
      .toBe('elements[1].colour: teleporter colour "Ecru" is used twice')
  })
})

describe('a rules case refused (FORMAT.md section 2)', () => {
  const PROGRAM = ['RT90:80', 'LF90:70', 'RT90:100', 'LF90:90', 'RT90:120']
  const board = {
    rows: 5, cols: 5, start: { at: 'r1c1' },
    elements: [{ type: 'switch', at: 'r2c2', kind: 'pressure', targets: [] }, { type: 'upgrade', at: 'r3c3' }],
  }
  const refused = (robot: object, extra: object = {}) =>
    refusalOf(parseRulesCase({ board, robots: [{ player: 'Ann', at: 'r1c1', program: PROGRAM, ...robot }], ...extra }, () => ({})))

  it('names a board state key that is no plain word in quotes, and says which group has no such element', () => {
    expect(refused({}, { boardState: { switches: { 'r 1': 'on' } } })).toBe('boardState.switches["r 1"]: the board has no switch on r 1')
    expect(refused({}, { boardState: { drawbridges: { r4c4: 'lowered' } } })).toBe('boardState.drawbridges.r4c4: the board has no drawbridge on r4c4')
    expect(refused({}, { boardState: { teleporters: { r4c4: 'active' } } })).toBe('boardState.teleporters.r4c4: the board has no teleporter on r4c4')
  })

  it('says what a card is written like', () => {
    expect(refused({ program: ['FWD9:490', ...PROGRAM.slice(1)] })).toBe('robots[0].program[0]: "FWD9:490" is not a card of the deck (R5), written like FWD2:700')
  })

  it('counts one card and one station in the singular', () => {
    const fused = { 2: 'FWD1:500', 3: 'FWD1:510', 4: 'FWD1:520', 5: 'FWD1:530' }
    expect(refused({ hp: 2, fused, program: PROGRAM.slice(0, 2) })).toBe('robots[0].program: needs exactly 1 card (one per unfused register, R8), got 2')
    expect(refused({ stations: ['r3c3'], program: ['RVS2:675', ...PROGRAM.slice(1)] }))
      .toBe('robots[0].program[0]: RVS2:675 belongs to a card set this robot has not unlocked: robots[0].stations lists 1 station (R6)')
    expect(refused({ program: ['RVS2:675', ...PROGRAM.slice(1)] })).toMatch(/lists 0 stations \(R6\)$/)
  })
})
