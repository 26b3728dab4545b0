// The event log tells the story the robots show (log-replay.ts): over every rules case, ours and
// the public ones, and, to show the check can fail, over logs changed by hand.
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { resolveTurn, type TurnResult } from '../../src/engine/turn.js'
import { PHASES, type GameEvent } from '../../src/engine/events.js'
import type { Board, GameState, TurnOrders } from '../../src/engine/types.js'
import { CASE_FOLDERS, validCases } from './game-log-digest.js'
import { logProblems } from './log-replay.js'

/** One of our rules cases, resolved, with the state it was resolved from. */
interface Resolved { result: TurnResult; state: GameState; board: Board; orders: Record<string, TurnOrders> }

function resolvedCase(name: string): Resolved {
  const [, { board, state, orders }] = validCases([CASE_FOLDERS.own]).find(([file]) => file === name)!
  return { result: resolveTurn(board, state, orders), state, board, orders }
}

/** What the replay finds in a case's log, changed or not. */
const problemsOf = ({ result, state, board, orders }: Resolved, where: string) => logProblems(result, where, state, board, orders)

/** The pushed-chain teleport case (A21): Ann pushes Bob and Cat one square north. */
const chainCase = () => resolvedCase('R17-R13-pushed-chain-keeps-the-squares-it-steps-into.json')

const movedOf = (result: TurnResult, player: string) =>
  result.stages[0]!.events.find((e): e is Extract<GameEvent, { kind: 'moved' }> => e.kind === 'moved' && e.player === player)!

describe('the event log, replayed, tells the story the robots show', () => {
  it('in every rules case', () => {
    const cases = validCases(Object.values(CASE_FOLDERS).filter(existsSync))
    expect(cases.length).toBeGreaterThan(120)
    for (const [file, { board, state, orders }] of cases) expect(logProblems(resolveTurn(board, state, orders), file, state, board, orders), file).toEqual([])
  })

  it('and says so when a robot steps into a real robot\'s square, or the log and the robots part ways', () => {
    const chain = chainCase()
    expect(problemsOf(chain, 'as resolved')).toEqual([])
    const changed = () => ({ ...chain, result: structuredClone(chain.result) })

    // The story the engine told before A21: Cat was sent back onto blue, the square Bob stepped into.
    const swapped = changed()
    const cat = movedOf(swapped.result, 'Cat')
    const events = swapped.result.stages[0]!.events
    events.splice(events.indexOf(cat) + 1, 0, { time: cat.time, kind: 'teleported', player: 'Cat', from: cat.to, to: { row: 3, col: 1 }, colour: 'blue' })
    expect(problemsOf(swapped, 'swapped')).toEqual(expect.arrayContaining([
      'swapped stage 1 movement 500 step 1: Bob moved onto r3c1, where Cat stands',
      'swapped stage 1 movement 500 step 1: Bob and Cat are both real on r3c1',
    ]))

    // A robot moved twice in one pusher phase (R20).
    const twice = changed()
    const pushed = movedOf(twice.result, 'Bob')
    twice.result.stages[1]!.events.push({ ...pushed, time: { stage: 2, phase: 'pusher', priority: null, step: 0 }, from: pushed.to, to: pushed.to },
      { ...pushed, time: { stage: 2, phase: 'pusher', priority: null, step: 0 }, from: pushed.to, to: pushed.to })
    expect(problemsOf(twice, 'twice')).toContain('twice stage 2: Bob moved in the pusher phase (R20) twice')

    // Ann's laser said to miss Bob, who stands at the end of its beam (R26); Bob's damage misreckoned.
    const missed = changed()
    const shot = missed.result.stages[0]!.events.find((e): e is Extract<GameEvent, { kind: 'robot-laser' }> => e.kind === 'robot-laser' && e.player === 'Ann')!
    Object.assign(shot, { hit: null, damage: 0 })
    const damaged = missed.result.stages[0]!.events.find((e): e is Extract<GameEvent, { kind: 'damaged' }> => e.kind === 'damaged' && e.player === 'Bob')!
    damaged.amount = 2
    expect(problemsOf(missed, 'missed')).toEqual(expect.arrayContaining([
      'missed stage 1 combat step 0: Ann\'s laser N: the log has squares r3c1, hit null for 0; R23-R26 call for squares r3c1, hit Bob for 1',
      'missed stage 1 combat step 0: Bob damaged by 2 from 10 to 9',
    ]))

    // A log whose move ends elsewhere than the robot shown.
    const elsewhere = changed()
    movedOf(elsewhere.result, 'Ann').to = { row: 1, col: 2 }
    expect(problemsOf(elsewhere, 'elsewhere')).toContain(
      'elsewhere stage 1: the log leaves Ann {"at":"r1c2","facing":"N","hp":10,"mode":"real"}, the result shows {"at":"r2c1","facing":"N","hp":10,"mode":"real"}')
  })

  it('and says so when cards play out of order, a destroyed robot acts, or a flag is tagged out of turn', () => {
    const order = chainCase()
    const cat = order.result.stages[0]!.events.find((e): e is Extract<GameEvent, { kind: 'card-played' }> => e.kind === 'card-played' && e.player === 'Cat')!
    cat.card = { ...cat.card, priority: 600 }
    expect(problemsOf(order, 'order').join('\n')).toContain('order stage 1 movement 160 step 0: Cat\'s 600 after 500 (R10)')

    const dead = resolvedCase('FORMAT-R11-destroyed-robot-has-hp-zero-whatever-the-cause.json')
    expect(problemsOf(dead, 'dead')).toEqual([])
    const stage = dead.result.stages.find((s) => s.events.some((e) => e.kind === 'destroyed'))!
    const destroyed = stage.events.find((e): e is Extract<GameEvent, { kind: 'destroyed' }> => e.kind === 'destroyed')!
    stage.events.splice(stage.events.indexOf(destroyed) + 1, 0, { time: destroyed.time, kind: 'turned', player: destroyed.player, facing: 'S', cause: 'gear' })
    expect(problemsOf(dead, 'dead').join('\n')).toContain(`turned of ${destroyed.player}, destroyed earlier this turn (R11)`)

    const flags = resolvedCase('R30-flags-count-only-at-stage-end.json')
    expect(problemsOf(flags, 'flags')).toEqual([])
    const tag = flags.result.stages.flatMap((s) => s.events).find((e): e is Extract<GameEvent, { kind: 'flag-tagged' }> => e.kind === 'flag-tagged')!
    const at = `r${tag.at.row}c${tag.at.col}`
    tag.number += 1
    expect(problemsOf(flags, 'flags').join('\n')).toContain(`${tag.player} tagged flag ${tag.number} on ${at}; R6, R30 call for ${tag.player} checkpoint ${at}; ${tag.player} tagged flag ${tag.number - 1} on ${at}`)
    tag.number -= 1
    tag.at = { row: tag.at.row + 1, col: tag.at.col }
    expect(problemsOf(flags, 'moved flag').join('\n')).toContain(`${tag.player} flag-tagged on r${tag.at.row}c${tag.at.col} but stands on`)
  })

  it('and says so when a board laser\'s hits are not the robots on its beam', () => {
    const blue = resolvedCase('R23-R24-blue-beam-hits-whole-first-square.json')
    const beam = blue.result.stages[0]!.events.find((e): e is Extract<GameEvent, { kind: 'board-laser' }> => e.kind === 'board-laser' && e.hits.length > 1)!
    expect(problemsOf(blue, 'as resolved')).toEqual([])
    // The beam from r3c1 east stops on r3c3, where Ann and Bob both stand, and hits both (R23).
    const dropped = beam.hits.pop()
    expect(problemsOf(blue, 'one hit fewer').join('\n')).toContain(
      'one hit fewer stage 1 board-laser step 0: the blue beam from r3c1 E: the log has squares r3c1 r3c2 r3c3, hits Ann; R23-R26 call for squares r3c1 r3c2 r3c3, hits Ann Bob')
    beam.hits.push(dropped!)
    beam.squares.push({ row: 6, col: 6 })
    expect(problemsOf(blue, 'bent').join('\n')).toContain('the log has squares r3c1 r3c2 r3c3 r6c6, hits Ann Bob; R23-R26 call for squares r3c1 r3c2 r3c3, hits Ann Bob')
  })

  it('and says so when options are used or lost against R26, R28 and R32', () => {
    const lasers = resolvedCase('R32-double-laser-and-rear-laser.json')
    expect(problemsOf(lasers, 'as resolved')).toEqual([])
    const annBeams = (c: Resolved) => c.result.stages[0]!.events.filter((e): e is Extract<GameEvent, { kind: 'robot-laser' }> => e.kind === 'robot-laser' && e.player === 'Ann')
    const weak = { ...lasers, result: structuredClone(lasers.result) }
    annBeams(weak)[0]!.damage = 1
    expect(problemsOf(weak, 'weak').join('\n')).toContain('weak stage 1 combat step 0: Ann\'s laser W: the log has squares r3c2 r3c1, hit Cid for 1; R23-R26 call for squares r3c2 r3c1, hit Cid for 2')
    const forward = { ...lasers, result: structuredClone(lasers.result) }
    const events = forward.result.stages[0]!.events
    events.splice(events.indexOf(annBeams(forward)[1]!), 1)
    expect(problemsOf(forward, 'forward').join('\n')).toContain('forward stage 1 combat: the log shows Ann fired W; Bob fired E; Cid fired W; R26, R32 call for Ann fired E; Ann fired W; Bob fired E; Cid fired W')

    const points = resolvedCase('R28-sacrifice-threshold-checked-per-point.json')
    expect(problemsOf(points, 'as resolved')).toEqual([])
    const sacrificeOf = (c: Resolved) => c.result.stages[0]!.events.find((e): e is Extract<GameEvent, { kind: 'option-sacrificed' }> => e.kind === 'option-sacrificed')!
    // Ann at 7 HP, threshold 6, takes 2 from the fence: a point of HP first, then Double Laser (A13).
    const early = { ...points, result: structuredClone(points.result) }
    const fence = early.result.stages[0]!.events.find((e) => e.kind === 'damaged')!
    early.result.stages[0]!.events.splice(early.result.stages[0]!.events.indexOf(fence), 1)
    expect(problemsOf(early, 'early').join('\n')).toContain(
      'early stage 1 movement 490 step 1: Ann at 7 HP (sacrifice at 6, holding Double Laser, Gyroscope) lost 0 HP and Double Laser; point by point it loses 1 HP and no option (R28)')
    const newest = { ...points, result: structuredClone(points.result) }
    sacrificeOf(newest).option = 'Gyroscope'
    expect(problemsOf(newest, 'newest').join('\n')).toContain('Ann sacrificed Gyroscope, its oldest option is Double Laser (R28)')

    const gyro = resolvedCase('R32-R21-gyroscope-ignores-gears.json')
    expect(problemsOf(gyro, 'as resolved')).toEqual([])
    const holder = gyro.state.robots.find((r) => r.options.includes('Gyroscope'))!
    const turned = { ...gyro, result: structuredClone(gyro.result) }
    const last = turned.result.stages[0]!.events.at(-1)!
    turned.result.stages[0]!.events.push({ time: { ...last.time, phase: 'gear' }, kind: 'turned', player: holder.player, facing: 'S', cause: 'gear' })
    expect(problemsOf(turned, 'turned').join('\n')).toContain(`${holder.player} turned by a gear despite its Gyroscope (R32)`)
  })

  it('and says so when the floor or a step of the stage does not do what the rules call for', () => {
    // Each case's log, as resolved, passes; then one event is taken out or changed.
    const changed = (name: string, change: (events: GameEvent[], all: GameEvent[][]) => void): string => {
      const c = resolvedCase(name)
      expect(problemsOf(c, 'as resolved'), name).toEqual([])
      const result = structuredClone(c.result)
      const all = [...result.stages.map((s) => s.events), result.end.events]
      change(result.stages[0]!.events, all)
      return problemsOf({ ...c, result }, 'changed').join('\n')
    }
    const drop = (events: GameEvent[], pick: (e: GameEvent) => boolean) => events.splice(events.findIndex(pick), 1)[0]!

    // R14: Ann walks into a pit and the log forgets to destroy her.
    expect(changed('R14-pit-by-card-and-by-conveyor.json', (events) => drop(events, (e) => e.kind === 'destroyed')))
      .toContain('changed stage 1 movement 490 step 1: the log does not show: Ann destroyed by pit on r2c3 (R14-R17)')
    // R17: Ann's teleport lands on another square than the next free teleporter.
    expect(changed('R17-teleporter-order-wraps-round.json', (events) => {
      const jump = events.find((e): e is Extract<GameEvent, { kind: 'teleported' }> => e.kind === 'teleported')!
      jump.to = { row: 1, col: 1 }
    })).toContain('the log does not show: Ann teleported from r5c1 to r1c5 (R14-R17)')
    // R16: a toggle switch flips and one of its teleporters does not change.
    expect(changed('R16-toggle-flips-every-entry.json', (events) => drop(events, (e) => e.kind === 'teleporter-changed')))
      .toContain('the log does not show: teleporter r5c5 inactive (R14-R17)')
    // R21: one gear forgets to turn Bob.
    expect(changed('R21-left-gear-and-u-turn-gear.json', (events) => drop(events, (e) => e.kind === 'turned' && e.cause === 'gear' && e.player === 'Bob')))
      .toContain('changed stage 1 gear: the log shows Ann turned N; R21, R32 call for Ann turned N; Bob turned W')
    // R22: the crusher spares Bob.
    expect(changed('R22-R28-crusher-takes-everyone-options-too.json', (events) => drop(events, (e) => e.kind === 'destroyed' && e.player === 'Bob')))
      .toContain('changed stage 1 crusher: the log shows Ann crushed on r3c3; R22 call for Ann crushed on r3c3; Bob crushed on r3c3')
    // R25, A8: a virtual robot sharing its square becomes real.
    expect(changed('R25-shared-square-stays-virtual.json', (_events, all) => {
      const last = all[0]!.at(-1)!
      const virtual = resolvedCase('R25-shared-square-stays-virtual.json').result.stages[0]!.robots.find((r) => r.mode === 'virtual')!
      all[0]!.push({ time: { ...last.time, phase: 'mode', priority: null, step: 0 }, kind: 'became-real', player: virtual.player })
    })).toMatch(/changed stage 1 mode: the log shows \w+ became real; R25, A8 call for nothing/)
    // R19: the belt square goes to the robot riding its way, and the log moves nobody; R18: a belt
    // turning counter-clockwise under Ann does not turn her.
    expect(changed('R19-conveyor-square-goes-to-its-own-direction.json', (events) => drop(events, (e) => e.kind === 'moved' && e.cause === 'conveyor')))
      .toContain('changed stage 1 conveyor step 2: the log shows nothing; R18, R19, R24 call for Ann rode r2c1 to r2c2')
    expect(changed('R18-counter-clockwise-belt-turns-left.json', (events) => drop(events, (e) => e.kind === 'turned' && e.cause === 'conveyor')))
      .toContain('changed stage 1 conveyor step 2: the log shows Ann rode r2c2 to r2c3; R18, R19, R24 call for Ann rode r2c2 to r2c3; Ann turned W')
    // R20: Ann's pusher moves her though Bob's pushes into the same square; a blocked chain moves;
    // R24: a virtual robot stays on its pusher with nothing in its way.
    const pushed = (player: string, from: string, to: string, cause: 'pusher' | 'push', by?: string): GameEvent => {
      const [fr, fc, tr, tc] = [...from.matchAll(/\d+/g), ...to.matchAll(/\d+/g)].map(Number)
      return { time: { stage: 1, phase: 'pusher', priority: null, step: 0 }, kind: 'moved', player, from: { row: fr!, col: fc! }, to: { row: tr!, col: tc! }, cause, ...(by ? { by } : {}) }
    }
    const later = (events: GameEvent[]) => events.findIndex((e) => PHASES.indexOf(e.time.phase) > PHASES.indexOf('pusher'))
    expect(changed('R20-two-pushers-into-one-square.json', (events) => events.splice(later(events), 0, pushed('Ann', 'r2c1', 'r2c2', 'pusher'))))
      .toContain('changed stage 1 pusher: Ann moved though another push meets its own (R20)')
    expect(changed('R20-pusher-blocked-chain-neither-moves.json', (events) => {
      events.splice(events.findIndex((e) => e.kind === 'obstructed'), 1, pushed('Bob', 'r3c2', 'r3c3', 'push', 'Ann'), pushed('Ann', 'r3c1', 'r3c2', 'pusher'))
    })).toContain('changed stage 1 pusher: Bob moves E (push), where the pushes call for: stays (R13, R20)')
    // R20: a chain pushed toward a robot its own pusher moves follows it; the engine before R20's
    // refinement shoved the chain's far end into the fence and moved nobody.
    const stuck = changed('R20-R13-chain-of-three-into-a-robot-its-own-pusher-moves.json', (events) => {
      for (const player of ['Ann', 'Bob', 'Cid']) drop(events, (e) => e.kind === 'moved' && e.player === player)
    })
    expect(stuck).toContain('changed stage 1 pusher: Ann stays, where the pushes call for: moves E (pusher) (R13, R20)')
    expect(stuck).toContain('changed stage 1 pusher: Cid stays, where the pushes call for: moves E (push) (R13, R20)')
    // A22: Ann, between two pushers that could each move her, is moved by one of them.
    expect(changed('R20-R24-two-pushers-on-one-square-move-nobody.json', (events) => events.splice(later(events), 0, pushed('Ann', 'r3c3', 'r2c3', 'pusher'))))
      .toContain('changed stage 1 pusher: Ann moves S (pusher), where the pushes call for: stays (R13, R20)')
    expect(changed('R20-R24-pusher-stages-and-virtual-robot.json', (_events, all) => drop(all[1]!, (e) => e.kind === 'moved' && e.cause === 'pusher')))
      .toContain('changed stage 2 pusher: virtual Ann stayed on its pusher (R24)')
    // A3: two chains into one square both fail, and the log moves one of them all the same.
    expect(changed('R20-A3-two-chains-into-one-square.json', (events) => {
      events.splice(later(events), 0, pushed('Bob', 'r3c2', 'r3c3', 'push', 'Ann'), pushed('Ann', 'r3c1', 'r3c2', 'pusher'))
    })).toContain('changed stage 1 pusher: Ann moves E (pusher), where the pushes call for: stays (R13, R20)')
    // R20, A3: a cycle of waiting pushes broken by nobody; its first push in the board file is Ann's.
    expect(changed('R20-A3-cycle-of-pushes-first-in-board-file-goes-first.json', (events) => {
      for (const player of ['Ann', 'Bob']) drop(events, (e) => e.kind === 'moved' && e.player === player)
    })).toContain('changed stage 1 pusher: Ann stays, where the pushes call for: moves E (pusher) (R13, R20)')
    // A22: the fence destroys Vic before her other push is tried, and the log hurts Wes at its far end.
    expect(changed('R20-A22-a-robot-the-fence-destroys-tries-no-other-push.json', (events) => {
      events.splice(later(events), 0, { time: { stage: 1, phase: 'pusher', priority: null, step: 0 }, kind: 'damaged', player: 'Wes', amount: 2, source: 'fence', by: 'Vic', hp: 8 })
    })).toContain('changed stage 1 pusher: Wes ends the phase at 8 HP with 0 option(s), where the fence contacts the pushes call for leave 10 HP with 0 (R3, R13, R28, A3, A22)')
    // R12: Ann's FWD2 west stops after one step with nothing in her way; or her first step goes north.
    expect(changed('R1-west-is-column-minus-one.json', (events) => drop(events, (e) => e.kind === 'moved' && e.time.step === 2)))
      .toContain('changed stage 1 movement 680 step 0: Ann\'s FWD2 stopped with 1 step(s) left and no obstruction (R12)')
    expect(changed('R1-west-is-column-minus-one.json', (events) => {
      Object.assign(events.find((e) => e.kind === 'moved')!, { to: { row: 5, col: 4 } })
    })).toContain('changed stage 1 movement 680 step 1: Ann stepped N while Ann plays FWD2 (W, 2 left) (R12, R13)')
    // R10: Ann's card is not played at all; or another card than her register's is.
    expect(changed('R1-west-is-column-minus-one.json', (events) => events.splice(0, events.findIndex((e) => e.time.phase !== 'movement'))))
      .toContain('changed stage 1 movement: Ann did not play FWD2:680 (R10)')
    expect(changed('R1-west-is-column-minus-one.json', (events) => {
      Object.assign(events.find((e) => e.kind === 'card-played')!, { card: { kind: 'FWD2', priority: 690 } })
    })).toContain('changed stage 1 movement 680 step 0: Ann played FWD2:690 from register 1, which holds FWD2:680 (R8, R10)')
    // R27: Ann's register 1 is not fused, yet the log (and so the story) says it is.
    expect(changed('R1-west-is-column-minus-one.json', (events) => {
      Object.assign(events.find((e) => e.kind === 'card-played')!, { fused: true })
    })).toContain('changed stage 1 movement 680 step 0: Ann\'s register 1 told fused, which it was not as the stage began (R27)')
    // R4: Bob's FWD2 walks through the wall east of r3c3 instead of stopping.
    expect(changed('R4-wall-blocks-both-sides-and-lasers.json', (events) => {
      const stop = events.find((e) => e.kind === 'obstructed' && e.player === 'Bob')!
      events.splice(events.indexOf(stop), 1, { time: stop.time, kind: 'moved', player: 'Bob', from: { row: 3, col: 3 }, to: { row: 3, col: 4 }, cause: 'card' })
    })).toContain('changed stage 1 movement 670 step 2: Bob moved from r3c3 to r3c4 through a wall (R4)')
    // R27, R31: Ann's repair to 6 HP unfuses registers 4 and 5, and the log forgets 5.
    expect(changed('R27-R31-repairs-unfuse-registers.json', (_events, all) => drop(all.at(-1)!, (e) => e.kind === 'register-unfused' && e.register === 5)))
      .toContain('changed end end step 0: the log does not show: Ann register 5 unfused (R27)')
    // R26, R32: Ann's Double Laser hits Cid for 2, and Cid loses only 1.
    expect(changed('R32-double-laser-and-rear-laser.json', (events) => {
      const hurt = events.find((e): e is Extract<GameEvent, { kind: 'damaged' }> => e.kind === 'damaged' && e.player === 'Cid')!
      Object.assign(hurt, { amount: 1, hp: hurt.hp + 1 })
    })).toContain('changed stage 1 combat: Cid lost 1 point(s) to beams that did 2 (R23, R26, R28)')
    // R29: Ann comes back on the start square instead of her checkpoint r3c3.
    expect(changed('R29-reinstated-on-checkpoint-keeps-software.json', (_events, all) => {
      Object.assign(all.at(-1)!.find((e) => e.kind === 'reinstated')!, { at: { row: 1, col: 1 } })
    })).toContain('changed end end: the log shows Ann reinstated on r1c1 facing E; R29 call for Ann reinstated on r3c3 facing E')
    // R10: a belt's move told after the robots have fired.
    expect(changed('R18-counter-clockwise-belt-turns-left.json', (events) => {
      const ride = events.find((e) => e.time.phase === 'conveyor')!
      events.splice(events.indexOf(ride), 1)
      events.push(ride)
    })).toContain('changed stage 1 conveyor step 2: told after combat of stage 1 (R10)')
    // R33: Ann declared a reboot and ends the turn on the board, but the log does not reboot her;
    // destroyed, her reboot lapses, and a log that reboots her all the same is wrong too.
    expect(changed('R33-declared-reboot-restores-at-turn-end.json', (_events, all) => drop(all.at(-1)!, (e) => e.kind === 'reboot')))
      .toContain('changed end end: the log shows nothing; R33 call for Ann reboots')
    expect(changed('R33-declared-reboot-lapses-when-destroyed.json', (_events, all) => {
      all.at(-1)!.unshift({ time: all.at(-1)![0]!.time, kind: 'reboot', player: 'Ann' })
    })).toContain('changed end end: the log shows Ann reboots; R33 call for nothing')
    // R31: Bob's double wrench repairs him by 1, not 2.
    expect(changed('R31-double-wrench-option-or-repair.json', (_events, all) => {
      const repair = all.at(-1)!.find((e): e is Extract<GameEvent, { kind: 'repaired' }> => e.kind === 'repaired' && e.player === 'Bob')!
      Object.assign(repair, { amount: 1, hp: repair.hp - 1 })
    })).toContain('changed end end: the log shows Ann took Rear Laser; Bob repaired 1; Cid repaired 1; R31, A10, A12 call for Ann took Rear Laser; Bob repaired 2; Cid repaired 1')
  })
})
