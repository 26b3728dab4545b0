// The turn report (rules text, "COMBAT", "PUSH", "HIT POINTS"): drawn from the event log, in the
// notation of the rules.
import { describe, expect, it } from 'vitest'
import { renderTurnReport, stageTable, turnTables } from '../../src/engine/report.js'
import { parseRulesCase } from '../../src/engine/rules-case.js'
import { resolveTurn } from '../../src/engine/turn.js'
import { storedBeforeBy } from './golden-turns.js'

function play(kase: unknown) {
  const parsed = parseRulesCase(kase, () => { throw new Error('no files') })
  if (!parsed.ok) throw new Error(parsed.error)
  const { board, state, orders } = parsed.value
  return { board, result: resolveTurn(board, state, orders) }
}

// Ann's FWD3 pushes Bob into a wall and shoots him (5 HP: register 5 fuses); Cid fires up column 7
// to a wall: r4-6c7.
const { board, result } = play({
  board: { name: 'Report test', rows: 7, cols: 7, start: { at: 'r1c1', facing: 'N' },
    elements: [{ type: 'wall', at: 'r2c4', side: 'E' }, { type: 'wall', at: 'r6c7', side: 'N' }, { type: 'pit', at: 'r5c1' }] },
  turn: 3,
  robots: [
    { player: 'Ann', at: 'r2c1', facing: 'E', program: ['FWD3:800', 'RT90:80', 'LF90:70', 'RT90:100', 'LF90:90'] },
    { player: 'Bob', at: 'r2c2', facing: 'N', hp: 6, program: ['UTRN:10', 'UTRN:20', 'UTRN:30', 'UTRN:40', 'UTRN:50'] },
    { player: 'Cid', at: 'r3c7', facing: 'E', program: ['LF90:110', 'RT90:120', 'LF90:130', 'RT90:140', 'LF90:150'] },
    { player: 'Dee', at: 'r4c1', facing: 'N', program: ['FWD1:490', 'RT90:160', 'LF90:170', 'RT90:180', 'LF90:190'] },
  ],
})
const text = renderTurnReport(board, result)

describe('renderTurnReport', () => {
  it('writes a laser shot as a run of squares, r4-6c7, and names the robot hit', () => {
    expect(text).toContain('r4-6c7')
    const combat = stageTable(result, 0).rows.find((r) => r.label === 'COMBAT')!
    expect(combat.cells[0]).toEqual(['r2c4', '→ Bob'])
    expect(combat.cells[2]).toEqual(['r4-6c7'])
  })
  it('notes a push with the time index of the card that caused it', () => {
    expect(text).toMatch(/pushed by Ann to r2c3 @800/)
    expect(text).toMatch(/pushed by Ann to r2c4 @800/)
    expect(text).toContain('obstruction encountered')
  })
  it('reports damage, the fused register with its card, and adds the fused-register table', () => {
    expect(text).toMatch(/register 5 fused \(UTRN:50\)/)
    expect(text).toContain('Fused registers')
    expect(text).toMatch(/REGISTER 5[^\n]*UTRN:50/)
    // Its columns are named like every other table's (the page heads them with the NAME row).
    const fused = turnTables(board, result, { names: { Bob: 'Roberta' } }).find((t) => t.title === 'Fused registers')!
    expect(fused.rows[0]).toEqual({ label: 'NAME', cells: [['Ann'], ['Roberta'], ['Cid'], ['Dee']] })
  })
  it('reports destruction where it happens, and the reinstatement at the end of the turn', () => {
    expect(text).toMatch(/DESTROYED \(pit\) at r5c1/)
    expect(text).toMatch(/reinstated at r1c1/)
  })
  it('has one table per stage, then the end of turn', () => {
    const titles = turnTables(board, result).map((t) => t.title)
    expect(titles.slice(0, 6)).toEqual(['Stage 1', 'Stage 2', 'Stage 3', 'Stage 4', 'Stage 5', 'End of turn'])
    const stage1 = stageTable(result, 0)
    expect(stage1.players).toEqual(['Ann', 'Bob', 'Cid', 'Dee'])
    const cardsRow = stage1.rows.find((r) => r.label === 'CARDS')!
    expect(cardsRow.cells.map((c) => c[0])).toEqual(['FWD3:800', 'UTRN:10', 'LF90:110', 'FWD1:490'])
    const moves = stage1.rows.find((r) => r.label === 'MOVES')!
    expect(moves.cells[0]!.join(' ')).toMatch(/move to r2c2.*move to r2c3/)
  })
  it('names robots by their display names in every cell, never by engine id (the rules: the opponent\'s name)', () => {
    const names = { Ann: 'Annabel', Bob: 'Roberta', Cid: 'Cidney', Dee: 'Deirdre' }
    const named = renderTurnReport(board, result, { names })
    expect(named).toMatch(/pushed by Annabel to r2c4 @800/)
    expect(named).toMatch(/shot by Annabel -1 HP/)
    const combat = stageTable(result, 0, { names }).rows.find((r) => r.label === 'COMBAT')!
    expect(combat.cells[0]).toEqual(['r2c4', '→ Roberta'])
    expect(named).not.toMatch(/\b(Ann|Bob|Cid|Dee)\b/)
  })
  it('a robot destroyed by the damage that would fuse a register fuses nothing (R11, R27)', () => {
    // Bob at 2 HP takes 2 from a board laser: 2 → 0, destroyed; register 1 is not fused on the way.
    const shot = play({
      board: { rows: 3, cols: 3, start: { at: 'r1c1', facing: 'N' }, elements: [{ type: 'laser', at: 'r2c1', dir: 'E', colour: 'red', strength: 2 }] },
      turn: 4,
      robots: [{ player: 'Bob', at: 'r2c2', facing: 'N', hp: 2, fused: { 2: 'UTRN:20', 3: 'UTRN:30', 4: 'UTRN:40', 5: 'UTRN:50' }, program: ['UTRN:10'] }],
    })
    const events = shot.result.stages[0]!.events
    expect(events.filter((e) => e.kind === 'register-fused')).toEqual([])
    expect(events.find((e) => e.kind === 'damaged')).toMatchObject({ player: 'Bob', amount: 2, hp: 0 })
    expect(shot.result.stages[0]!.robots[0]).toMatchObject({ at: null, mode: 'destroyed', hp: 0 })
    const report = renderTurnReport(shot.board, shot.result, { names: { Bob: 'Roberta' } })
    expect(report).not.toContain('fused')
    expect(report).toMatch(/laser -2 HP/)
    expect(report).toMatch(/DESTROYED \(no hit points left\) at r2c2/)
  })
  it('a robot destroyed by a volley fuses nothing, whichever of its strikes lands first (R26, R23, R27, R11)', () => {
    // Cid at 2 HP is shot by Ann (1) and Bob (Double Laser, 2) at once, and struck by two board
    // beams of 1 in another stage. The strikes land robot by robot in the shooters' seat order (A25):
    // Ann's first takes Cid to 1 HP, and register 1 used to be fused before Bob's destroyed him.
    // Seated the other way round, Bob's strike destroyed him at once. Both must read the same.
    const cid = { player: 'Cid', at: 'r2c2', facing: 'N', hp: 2, fused: { 2: 'UTRN:20', 3: 'UTRN:30', 4: 'UTRN:40', 5: 'UTRN:50' }, program: ['UTRN:10'] }
    const shooters = [
      // Their first cards turn them toward Cid.
      { player: 'Ann', at: 'r2c1', facing: 'S', program: ['LF90:70', 'RT90:80', 'LF90:90', 'RT90:100', 'LF90:110'] },
      { player: 'Bob', at: 'r1c2', facing: 'E', options: ['Double Laser'], program: ['LF90:130', 'RT90:120', 'LF90:150', 'RT90:140', 'LF90:170'] },
    ]
    for (const robots of [[...shooters, cid], [shooters[1], shooters[0], cid]]) {
      const shot = play({ board: { rows: 3, cols: 3, start: { at: 'r3c3', facing: 'N' }, elements: [] }, turn: 4, robots })
      const events = shot.result.stages[0]!.events
      expect(events.filter((e) => e.kind === 'register-fused'), robots.map((r) => r!.player).join()).toEqual([])
      expect(events.filter((e) => e.kind === 'destroyed')).toMatchObject([{ player: 'Cid', cause: 'damage' }])
      expect(renderTurnReport(shot.board, shot.result)).not.toContain('fused')
    }
    const beams = play({
      board: { rows: 3, cols: 3, start: { at: 'r1c1', facing: 'N' }, elements: [
        { type: 'laser', at: 'r2c1', dir: 'E', colour: 'red', strength: 1 },
        { type: 'laser', at: 'r1c2', dir: 'N', colour: 'red', strength: 1 },
      ] },
      turn: 4,
      robots: [cid],
    })
    expect(beams.result.stages[0]!.events.filter((e) => e.kind === 'register-fused')).toEqual([])
    expect(beams.result.stages[0]!.robots[0]).toMatchObject({ at: null, mode: 'destroyed', hp: 0 })
  })
  it('a robot that survives the damage fuses every register its HP passed, as it fell (R27)', () => {
    const shot = play({
      board: { rows: 3, cols: 3, start: { at: 'r1c1', facing: 'N' }, elements: [{ type: 'laser', at: 'r2c1', dir: 'E', colour: 'red', strength: 3 }] },
      turn: 4,
      robots: [{ player: 'Bob', at: 'r2c2', facing: 'N', hp: 6, program: ['UTRN:10', 'UTRN:20', 'UTRN:30', 'UTRN:40', 'UTRN:50'] }],
    })
    const fused = shot.result.stages[0]!.events.filter((e) => e.kind === 'register-fused')
    expect(fused.map((e) => e.kind === 'register-fused' && [e.register, e.card?.priority])).toEqual([[5, 50], [4, 40], [3, 30]])
  })
  it('says who won when the game ends', () => {
    const won = play({
      board: { rows: 5, cols: 5, start: { at: 'r1c1', facing: 'N' }, elements: [{ type: 'flag', at: 'r3c3', number: 1 }] },
      robots: [{ player: 'Ann', at: 'r2c3', facing: 'N', program: ['FWD1:490', 'RT90:80', 'LF90:70', 'RT90:100', 'LF90:90'] }],
    })
    expect(renderTurnReport(won.board, won.result)).toMatch(/GAME OVER: Ann won/)
    expect(renderTurnReport(won.board, won.result, { names: { Ann: 'Annabel' } })).toMatch(/GAME OVER: Annabel won\./)
  })
  it('heads every table with the engine ids in seat order, which the mail and page use to put the reader first', () => {
    for (const table of turnTables(board, result)) expect(table.players, table.title).toEqual(['Ann', 'Bob', 'Cid', 'Dee'])
  })
  it('writes a dash for a robot with no upgrades beside one with some, and one robot left in the singular (R6, R29)', () => {
    const upgraded = play({
      board: { rows: 3, cols: 3, start: { at: 'r1c1', facing: 'N' }, elements: [
        { type: 'upgrade', at: 'r3c1' }, { type: 'upgrade', at: 'r3c2' }, { type: 'wall', at: 'r2c2', side: 'E' }, // no shots between them
      ] },
      turn: 9,
      robots: [
        { player: 'Ann', at: 'r2c2', facing: 'E', stations: ['r3c1', 'r3c2'], robotsLeft: 1, program: ['RT90:80', 'LF90:70', 'RT90:100', 'LF90:90', 'RT90:120'] },
        { player: 'Bob', at: 'r2c3', facing: 'W', robotsLeft: 2, program: ['RT90:140', 'LF90:110', 'RT90:160', 'LF90:130', 'RT90:180'] },
      ],
    })
    const end = turnTables(upgraded.board, upgraded.result).find((table) => table.title === 'End of turn')!
    expect(end.rows.find((row) => row.label === 'UPGRADES')!.cells).toEqual([['r3c1 r3c2', 'reverse cards'], ['-']])
    expect(end.rows.find((row) => row.label === 'REBOOT')!.cells.map((cell) => cell[0])).toEqual(['10 HP, 1 robot left', '10 HP, 2 robots left'])
  })
  it('reads a turn stored before its events named the robot pushing or shooting: "a robot" (R13, R26)', () => {
    // Turns kept in the database are reported again from their stored event log, as they were written.
    const stored1 = stageTable(storedBeforeBy(result), 0)
    expect(stored1.rows.find((r) => r.label === 'MOVES')!.cells[1]).toEqual(['pushed by a robot to r2c3 @800.1', 'pushed by a robot to r2c4 @800.2', 'face S'])
    expect(stored1.rows.find((r) => r.label === 'HIT POINTS')!.cells[1]![0]).toBe('shot by a robot -1 HP')
  })
  it('says "(no card)" for a robot on the floor whose register holds none, and "-" for one that plays none (R8, R33)', () => {
    const stored = structuredClone(result)
    stored.registers.Bob![0] = null
    expect(stageTable(stored, 0).rows.find((r) => r.label === 'CARDS')!.cells.map((c) => c[0])).toEqual(['FWD3:800', '(no card)', 'LF90:110', 'FWD1:490'])
    // Dee fell into the pit in stage 1: she plays no card in stage 2.
    expect(stageTable(result, 1).rows.find((r) => r.label === 'CARDS')!.cells[3]).toEqual(['-'])
  })
})
