// The report tables as a reader sees them on a page (src/render/report-text.ts): the reader's own
// column first, every row in the same order, and cards in words.
import { describe, expect, it } from 'vitest'
import { stageTable } from '../../src/engine/report.js'
import { tableFor } from '../../src/render/report-text.js'
import { GOLDEN, played } from '../engine/golden-turns.js'

describe('tableFor', () => {
  const { result } = played(GOLDEN.find((golden) => golden.kase === 'R13-R3-chain-at-fence-one-contact')!)
  const table = stageTable(result, 0)
  const cells = (t: typeof table, label: string) => t.rows.find((row) => row.label === label)!.cells

  it("puts the reader's column first and keeps the others in seat order", () => {
    const forCid = tableFor(table, 'Cid')
    expect(forCid.players).toEqual(['Cid', 'Ann', 'Bob'])
    expect(cells(forCid, 'NAME')).toEqual([['Cid'], ['Ann'], ['Bob']])
    expect(cells(forCid, 'CARDS')).toEqual([['Turn right (160)'], ['Move 3 (790)'], ['U-turn (10)']])
  })
  it('keeps seat order for the first seat, a spectator, or a name that is not in the game', () => {
    for (const me of ['Ann', null, undefined, 'Zed']) {
      expect(tableFor(table, me).players, String(me)).toEqual(['Ann', 'Bob', 'Cid'])
      expect(cells(tableFor(table, me), 'NAME'), String(me)).toEqual([['Ann'], ['Bob'], ['Cid']])
    }
  })
})
