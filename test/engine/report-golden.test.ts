// The turn report as players read it, word for word: the plain-text report (mail, GM draft, CLI
// `--report`) of chosen cases, kept in test/engine/reports/. Together they hold every line the
// report writes: each event kind in its row and seat, every row of the end-of-turn table, the
// fused-register table, both endings of a game, and display names with colours. A change to what
// players read fails here until the new text is looked at and taken (`npx vitest -u`); CI never
// writes a missing file (CI=true), it fails.
//
// report.test.ts says why each cell reads as it does; this file says that nothing else changed.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { GameEvent } from '../../src/engine/events.js'
import { renderTurnReport, type ReportOptions } from '../../src/engine/report.js'
import { parseRulesCase } from '../../src/engine/rules-case.js'
import { resolveTurn, type TurnResult } from '../../src/engine/turn.js'
import type { TurnOrders } from '../../src/engine/types.js'

const CASES = join(import.meta.dirname, '..', 'cases')
const REPORTS = join(import.meta.dirname, 'reports')

interface Golden {
  /** A case of test/cases. */
  kase: string
  /** Changes to the case's orders, for what a case file cannot say (a program the server filled, R9; a chosen facing, R29). */
  orders?: Record<string, Partial<TurnOrders>>
  options?: ReportOptions
  /** The report's file name, when one case is rendered twice. */
  file?: string
}

const GOLDEN: Golden[] = [
  { kase: 'R17-R13-steps-continue-after-teleport' },                // teleport, pushed @790.2, shot by, → Bob
  { kase: 'R16-toggle-flips-every-entry' },                         // switch on and off
  { kase: 'R21-left-gear-and-u-turn-gear' },                        // gear: face
  { kase: 'R18-counter-clockwise-belt-turns-left' },                // conveyor to, conveyor: face
  { kase: 'R3-R20-pusher-into-fence' },                             // fence in MECHANISMS, electric fence
  { kase: 'R28-sacrifice-threshold-checked-per-point' },            // fence in MOVES, sacrificed, fused (card)
  { kase: 'R23-red-strength-3-from-its-own-square' },               // board laser, virtual → real
  { kase: 'R20-two-pushers-into-one-square' },                      // pusher moves, obstruction
  { kase: 'R4-wall-blocks-both-sides-and-lasers' },                 // obstruction by a wall
  { kase: 'R22-R28-crusher-takes-everyone-options-too' },           // DESTROYED (crusher), options back
  { kase: 'R14-pit-by-card-and-by-conveyor' },                      // DESTROYED (pit) in MOVES and MECHANISMS
  { kase: 'R32-double-laser-and-rear-laser' },                      // → Bob (2), rear beam
  { kase: 'R26-R34-mutual-destruction-nobody-wins' },               // DESTROYED (no hit points left), nobody won
  { kase: 'R34-simultaneous-winners-rest-of-turn-not-played' },     // two winners, no end-of-turn table
  { kase: 'R30-R6-upgrade-stations-unlock-reverse-set' },           // upgrade (reverse cards), UPGRADES row
  { kase: 'R30-flags-count-only-at-stage-end' },                    // flag tagged, checkpoint
  { kase: 'R27-R31-repairs-unfuse-registers' },                     // repaired, register freed
  { kase: 'R31-double-wrench-option-or-repair' },                   // took option, OPTIONS row
  { kase: 'R33-declared-reboot-restores-at-turn-end' },             // reboots next turn
  { kase: 'R33-rebooting-robot-touches-nothing-and-fuses-empty' },  // rebooting, (awaiting a card)
  { kase: 'R29-reinstated-on-checkpoint-keeps-software' },          // reinstated at a checkpoint
  { kase: 'R29-R34-out-of-the-game-others-play-on' },               // out, out of the game
  {
    kase: 'A27-R25-placed-after-the-turn-being-played-stays-virtual', // filled at random, placed facing
    orders: { Ann: { filledByServer: true }, Bob: { facing: 'W' } },
  },
  {
    kase: 'R17-R13-steps-continue-after-teleport',
    file: 'R17-R13-steps-continue-after-teleport-named',
    options: { names: { Ann: 'Annabel', Bob: 'Roberta' }, colours: { Ann: 'red', Bob: 'teal' } },
  },
]

function played(golden: Golden): { text: string; result: TurnResult } {
  const json: unknown = JSON.parse(readFileSync(join(CASES, `${golden.kase}.json`), 'utf8'))
  const parsed = parseRulesCase(json, () => { throw new Error('no board files here') })
  if (!parsed.ok) throw new Error(`${golden.kase}: ${parsed.error}`)
  const { board, state } = parsed.value
  const orders = { ...parsed.value.orders }
  for (const [player, change] of Object.entries(golden.orders ?? {})) orders[player] = { ...orders[player]!, ...change }
  const result = resolveTurn(board, state, orders)
  return { text: renderTurnReport(board, result, golden.options), result }
}

/**
 * Whether the tables write a line for each event kind: a Record, so that a new kind fails to compile
 * until it is placed here. The kinds without a line show some other way, or not at all.
 */
const WRITTEN: Record<GameEvent['kind'], boolean> = {
  'card-played': false,        // the CARDS row, from the registers
  'drawbridge-lowered': false, // the board picture
  'teleporter-changed': false, // the board picture
  'player-out': false,         // MODE "out" and REBOOT "out of the game" in the end-of-turn table
  'game-over': false,          // the closing "GAME OVER" line
  moved: true, turned: true, obstructed: true, teleported: true, 'switch-flipped': true, damaged: true,
  'option-sacrificed': true, 'register-fused': true, destroyed: true, 'board-laser': true,
  'robot-laser': true, checkpoint: true, 'flag-tagged': true, 'station-visited': true,
  'became-real': true, 'program-filled': true, 'facing-chosen': true, repaired: true,
  'register-unfused': true, 'option-taken': true, reboot: true, reinstated: true,
}

describe('the turn report, word for word', () => {
  for (const golden of GOLDEN) {
    it(golden.file ?? golden.kase, async () => {
      await expect(played(golden).text).toMatchFileSnapshot(join(REPORTS, `${golden.file ?? golden.kase}.txt`))
    })
  }
  it('the reports above hold every event kind the tables write', () => {
    const seen = new Set<GameEvent['kind']>()
    for (const golden of GOLDEN) {
      const { result } = played(golden)
      for (const part of [result.start, ...result.stages, result.end]) for (const event of part.events) seen.add(event.kind)
    }
    const written = Object.entries(WRITTEN).filter(([, writes]) => writes).map(([kind]) => kind)
    expect(written.filter((kind) => !seen.has(kind as GameEvent['kind']))).toEqual([])
  })
})
