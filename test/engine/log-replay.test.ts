// The event log tells the story the robots show (log-replay.ts): over every rules case, ours and
// the public ones, and, to show the check can fail, over logs changed by hand.
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { resolveTurn, type TurnResult } from '../../src/engine/turn.js'
import type { GameEvent } from '../../src/engine/events.js'
import { CASE_FOLDERS, validCases } from './game-log-digest.js'
import { logProblems } from './log-replay.js'

/** The pushed-chain teleport case (A21): Ann pushes Bob and Cat one square north. */
function chainCase(): TurnResult {
  const [, { board, state, orders }] = validCases([CASE_FOLDERS.own]).find(([file]) => file === 'R17-R13-pushed-chain-keeps-the-squares-it-steps-into.json')!
  return resolveTurn(board, state, orders)
}

const movedOf = (result: TurnResult, player: string) =>
  result.stages[0]!.events.find((e): e is Extract<GameEvent, { kind: 'moved' }> => e.kind === 'moved' && e.player === player)!

describe('the event log, replayed, tells the story the robots show', () => {
  it('in every rules case', () => {
    const cases = validCases(Object.values(CASE_FOLDERS).filter(existsSync))
    expect(cases.length).toBeGreaterThan(120)
    for (const [file, { board, state, orders }] of cases) expect(logProblems(resolveTurn(board, state, orders), file), file).toEqual([])
  })

  it('and says so when a robot steps into a real robot\'s square, or the log and the robots part ways', () => {
    const result = chainCase()
    expect(logProblems(result, 'as resolved')).toEqual([])

    // The story the engine told before A21: Cat was sent back onto blue, the square Bob stepped into.
    const swapped = structuredClone(result)
    const cat = movedOf(swapped, 'Cat')
    const events = swapped.stages[0]!.events
    events.splice(events.indexOf(cat) + 1, 0, { time: cat.time, kind: 'teleported', player: 'Cat', from: cat.to, to: { row: 3, col: 1 }, colour: 'blue' })
    expect(logProblems(swapped, 'swapped')).toEqual(expect.arrayContaining([
      'swapped stage 1 movement 500 step 1: Bob moved onto r3c1, where Cat stands',
      'swapped stage 1 movement 500 step 1: Bob and Cat are both real on r3c1',
    ]))

    // A robot moved twice in one pusher phase (R20).
    const twice = structuredClone(result)
    const pushed = movedOf(twice, 'Bob')
    twice.stages[1]!.events.push({ ...pushed, time: { stage: 2, phase: 'pusher', priority: null, step: 0 }, from: pushed.to, to: pushed.to },
      { ...pushed, time: { stage: 2, phase: 'pusher', priority: null, step: 0 }, from: pushed.to, to: pushed.to })
    expect(logProblems(twice, 'twice')).toContain('twice stage 2: Bob moved in the pusher phase (R20) twice')

    // Ann's laser said to miss Bob, who stands at the end of its beam (R26); Bob's damage misreckoned.
    const missed = structuredClone(result)
    const shot = missed.stages[0]!.events.find((e): e is Extract<GameEvent, { kind: 'robot-laser' }> => e.kind === 'robot-laser' && e.player === 'Ann')!
    Object.assign(shot, { hit: null, damage: 0 })
    const damaged = missed.stages[0]!.events.find((e): e is Extract<GameEvent, { kind: 'damaged' }> => e.kind === 'damaged' && e.player === 'Bob')!
    damaged.amount = 2
    expect(logProblems(missed, 'missed')).toEqual(expect.arrayContaining([
      'missed stage 1 combat step 0: Ann\'s laser hit null for 0; real robots on its way none, at its end Bob',
      'missed stage 1 combat step 0: Bob damaged by 2 from 10 to 9',
    ]))

    // A log whose move ends elsewhere than the robot shown.
    const elsewhere = structuredClone(result)
    movedOf(elsewhere, 'Ann').to = { row: 1, col: 2 }
    expect(logProblems(elsewhere, 'elsewhere')).toContain(
      'elsewhere stage 1: the log leaves Ann {"at":"r1c2","facing":"N","hp":10,"mode":"real"}, the result shows {"at":"r2c1","facing":"N","hp":10,"mode":"real"}')
  })

  it('and says so when cards play out of order, a destroyed robot acts, or a flag is tagged out of turn', () => {
    const caseResult = (name: string) => {
      const [, { board, state, orders }] = validCases([CASE_FOLDERS.own]).find(([file]) => file === name)!
      return resolveTurn(board, state, orders)
    }
    const order = chainCase()
    const cat = order.stages[0]!.events.find((e): e is Extract<GameEvent, { kind: 'card-played' }> => e.kind === 'card-played' && e.player === 'Cat')!
    cat.card = { ...cat.card, priority: 600 }
    expect(logProblems(order, 'order').join('\n')).toContain('order stage 1 movement 160 step 0: Cat\'s 600 after 500 (R10)')

    const dead = caseResult('FORMAT-R11-destroyed-robot-has-hp-zero-whatever-the-cause.json')
    expect(logProblems(dead, 'dead')).toEqual([])
    const stage = dead.stages.find((s) => s.events.some((e) => e.kind === 'destroyed'))!
    const destroyed = stage.events.find((e): e is Extract<GameEvent, { kind: 'destroyed' }> => e.kind === 'destroyed')!
    stage.events.splice(stage.events.indexOf(destroyed) + 1, 0, { time: destroyed.time, kind: 'turned', player: destroyed.player, facing: 'S', cause: 'gear' })
    expect(logProblems(dead, 'dead').join('\n')).toContain(`turned of ${destroyed.player}, destroyed earlier this turn (R11)`)

    const flags = caseResult('R30-flags-count-only-at-stage-end.json')
    expect(logProblems(flags, 'flags')).toEqual([])
    const tag = flags.stages.flatMap((s) => s.events).find((e): e is Extract<GameEvent, { kind: 'flag-tagged' }> => e.kind === 'flag-tagged')!
    tag.number += 1
    expect(logProblems(flags, 'flags').join('\n')).toContain(`${tag.player} tagged flag ${tag.number} with ${tag.number - 2} (R30)`)
    tag.number -= 1
    tag.at = { row: tag.at.row + 1, col: tag.at.col }
    expect(logProblems(flags, 'moved flag').join('\n')).toContain(`${tag.player} flag-tagged on r${tag.at.row}c${tag.at.col} but stands on`)
  })

  it('and says so when a board laser\'s hits are not the robots on its beam', () => {
    const [, { board, state, orders }] = validCases([CASE_FOLDERS.own]).find(([file]) => file === 'R23-R24-blue-beam-hits-whole-first-square.json')!
    const result = resolveTurn(board, state, orders)
    const beam = result.stages[0]!.events.find((e): e is Extract<GameEvent, { kind: 'board-laser' }> => e.kind === 'board-laser' && e.hits.length > 1)!
    expect(logProblems(result, 'as resolved')).toEqual([])
    const dropped = beam.hits.pop()
    expect(logProblems(result, 'one hit fewer').join('\n')).toContain(`hit ${beam.hits.join(' ')}, robots on it`)
    beam.hits.push(dropped!)
    beam.squares.push({ row: beam.squares.at(-1)!.row + 3, col: beam.squares.at(-1)!.col + 3 })
    expect(logProblems(result, 'bent').join('\n')).toContain('off the line')
  })
})
