// The turn as a story (src/render/story.ts): one line per player, drawn from the event log only.
import { describe, expect, it } from 'vitest'
import { resolveTurn } from '../../src/engine/turn.js'
import { cardLabel, cardView } from '../../src/render/cards.js'
import { turnReportText } from '../../src/render/report-text.js'
import { eventPhrases, turnStory } from '../../src/render/story.js'
import { GOLDEN, played, storedBeforeBy } from '../engine/golden-turns.js'
import { cards, makeBoard, robot, sq, stateWith } from '../engine/helpers.js'

describe('turnStory', () => {
  // Ann walks east onto flag 1 while Bob, three squares east of her and facing west, shoots her
  // in every stage in which he faces her (R26).
  const board = makeBoard([{ type: 'flag', at: 'r1c2', number: 1 }, { type: 'flag', at: 'r5c5', number: 2 }])
  const ann = robot('p1', board, { at: sq('r1c1'), facing: 'E' })
  const bob = robot('p2', board, { at: sq('r1c5'), facing: 'W' })
  const result = resolveTurn(board, stateWith(board, [ann, bob]), {
    p1: { cards: cards('FWD1:490', 'LF90:70', 'RT90:80', 'LF90:90', 'RT90:100'), rebootNext: false },
    p2: { cards: cards('LF90:110', 'RT90:120', 'LF90:130', 'RT90:140', 'LF90:150'), rebootNext: false },
  })
  const names = { p1: 'Ann', p2: 'Bob' }
  const lines = turnStory(result, names)

  it('says where each robot went, who shot it and for how much, and which flag it touched', () => {
    const hits = result.stages.flatMap((s) => s.events).filter((e) => e.kind === 'damaged' && e.player === 'p1' && e.by === 'p2')
    const lost = hits.reduce((sum, e) => sum + (e.kind === 'damaged' ? e.amount : 0), 0)
    expect(lost).toBeGreaterThan(0)
    expect(lines.map((l) => l.name)).toEqual(['Ann', 'Bob'])
    // In the order of the log; the flag repairs 1 HP at the end of the turn (R31); her own shots come last.
    expect(lines[0]!.text).toBe(`r1c1 \u2192 r1c2, touched flag 1, shot by Bob (\u2212${lost} HP), repaired 1 HP, hit Bob`)
    expect(lines[1]!.text).toMatch(/^stayed on r1c5, shot by Ann \(\u2212\d HP\), hit Ann$/)
  })

  it('never names a player by seat id when a name is known', () => {
    expect(lines.map((l) => l.text).join(' ')).not.toMatch(/\bp[12]\b/)
  })

  it('tells a stage with the cards played, for the preview', () => {
    const stage1 = eventPhrases(result.stages[0]!.events, 'p1', names, true)
    expect(stage1.slice(0, 2)).toEqual(['Move 1 (490)', 'to r1c2'])
  })
})

describe('turnReportText (the mail)', () => {
  it('starts with the story and writes every card in words, the tables still lined up', () => {
    const board = makeBoard([{ type: 'flag', at: 'r1c2', number: 1 }, { type: 'flag', at: 'r5c5', number: 2 }])
    const result = resolveTurn(board, stateWith(board, [robot('p1', board, { at: sq('r1c1'), facing: 'E' }), robot('p2', board, { at: sq('r3c3'), facing: 'N' })]), {
      p1: { cards: cards('FWD1:490', 'LF90:70', 'RT90:80', 'LF90:90', 'RT90:100'), rebootNext: false },
      p2: { cards: cards('LF90:110', 'RT90:120', 'LF90:130', 'RT90:140', 'LF90:150'), rebootNext: false },
    })
    const text = turnReportText(board, result, { names: { p1: 'Ann', p2: 'Bob' } })
    expect(text).toMatch(/^Turn 1 on test\n\nWhat happened:\n  Ann: r1c1 \u2192 r1c2, touched flag 1/)
    expect(text).toContain('Move 1 (490)')
    expect(text).not.toMatch(/[A-Z]{3}[0-9A-Z]:\d+/)
    const rows = text.split('\n').filter((l) => l.startsWith('CARDS'))
    expect(rows.length).toBeGreaterThan(0)
  })
})

describe('cards for people', () => {
  it('has one human form for every card: "Move 2 (700)"', () => {
    expect(cardLabel('FWD2:700')).toBe('Move 2 (700)')
    expect(cardLabel({ kind: 'UTRN', priority: 10 })).toBe('U-turn (10)')
    expect(cardView('RVS1:430')).toMatchObject({ name: 'Back up', priority: 430, label: 'Back up (430)' })
    expect(cardLabel(null)).toBe('no card')
  })
})

describe('a turn stored before its events named who pushed or shot', () => {
  it('tells of "someone" (R13, R26): kept turns are told again from their stored log', () => {
    const { result } = played(GOLDEN.find((golden) => golden.kase === 'R17-R13-steps-continue-after-teleport')!)
    expect(turnStory(storedBeforeBy(result), {}).map((line) => line.text)).toEqual([
      'r2c1 \u2192 r4c4, teleported (blue) to r4c2, hit Bob',
      'r4c3 \u2192 r4c5, pushed by someone to r4c4, pushed by someone to r4c5, shot by someone (\u22122 HP)',
    ])
  })
})
