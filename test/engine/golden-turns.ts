// The turns whose reports are kept word for word (test/engine/report-golden.test.ts: the engine's
// plain-text report; test/render/turn-text-golden.test.ts: the mail's text and the stage-by-stage
// story): chosen cases of test/cases that together make every line the report writes.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ReportOptions } from '../../src/engine/report.js'
import { parseRulesCase } from '../../src/engine/rules-case.js'
import { resolveTurn, type TurnResult } from '../../src/engine/turn.js'
import type { Board, TurnOrders } from '../../src/engine/types.js'

const CASES = join(import.meta.dirname, '..', 'cases')

export interface Golden {
  /** A case of test/cases, or the name of the case in `json`. */
  kase: string
  /** A case of this file's own, for what no case of test/cases holds. */
  json?: unknown
  /** Changes to the case's orders, for what a case file cannot say (a program the server filled, R9; a chosen facing, R29). */
  orders?: Record<string, Partial<TurnOrders>>
  options?: ReportOptions
  /** The kept file's name, when one case is rendered twice. */
  file?: string
}

export const GOLDEN: Golden[] = [
  { kase: 'R17-R13-steps-continue-after-teleport' },                // teleport, pushed @790.2, shot by, → Bob
  { kase: 'R16-toggle-flips-every-entry' },                         // switch on and off
  { kase: 'R21-left-gear-and-u-turn-gear' },                        // gear: face
  { kase: 'R18-counter-clockwise-belt-turns-left' },                // conveyor to, conveyor: face
  { kase: 'R3-R20-pusher-into-fence' },                             // fence in MECHANISMS, electric fence
  { kase: 'R28-sacrifice-threshold-checked-per-point' },            // fence in MOVES, sacrificed, fused (card)
  { kase: 'R23-red-strength-3-from-its-own-square' },               // board laser, virtual → real
  { kase: 'R20-two-pushers-into-one-square' },                      // pushes that cancel write no line (R20)
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
  { kase: 'R15-R18-conveyor-into-drawbridge' },                     // blocked by a drawbridge, caught by it
  { kase: 'R20-R24-pusher-stages-and-virtual-robot' },              // shoved by a pusher
  { kase: 'R13-R3-chain-at-fence-one-contact' },                    // blocked by a robot
  { kase: 'R28-thresholds-are-each-players-own' },                  // an option given up beside another robot
  { kase: 'R18-R16-R17-belt-arrivals-meet-their-squares-in-seat-order' }, // a switch beside other robots
  {
    // A station visited, a robot's last but one lost, a wrench at full HP and a reboot declared,
    // each beside other robots: no case of test/cases has them together.
    kase: 'golden-station-pit-wrench-reboot',
    json: {
      board: { name: 'Golden floor', rows: 4, cols: 4, start: { at: 'r1c1', facing: 'N' }, elements: [
        { type: 'upgrade', at: 'r2c2' }, { type: 'wrench', at: 'r3c3', count: 1 }, { type: 'pit', at: 'r4c4' },
      ] },
      turn: 6,
      robots: [
        { player: 'Ann', at: 'r2c1', facing: 'E', program: ['FWD1:490', 'RT90:80', 'LF90:70', 'RT90:100', 'LF90:90'] },
        { player: 'Bob', at: 'r3c4', facing: 'N', robotsLeft: 2, program: ['FWD1:500', 'RT90:120', 'LF90:110', 'RT90:140', 'LF90:130'] },
        { player: 'Cid', at: 'r3c3', facing: 'W', program: ['UTRN:10', 'UTRN:20', 'UTRN:30', 'UTRN:40', 'UTRN:50'] },
      ],
    },
    orders: { Cid: { rebootNext: true } },
  },
  {
    kase: 'R17-R13-steps-continue-after-teleport',
    file: 'R17-R13-steps-continue-after-teleport-named',
    options: { names: { Ann: 'Annabel', Bob: 'Roberta' }, colours: { Ann: 'red', Bob: 'teal' } },
  },
]

/** The case's turn, resolved. */
export function played(golden: Golden): { board: Board; result: TurnResult } {
  const json: unknown = golden.json ?? JSON.parse(readFileSync(join(CASES, `${golden.kase}.json`), 'utf8'))
  const parsed = parseRulesCase(json, () => { throw new Error('no board files here') })
  if (!parsed.ok) throw new Error(`${golden.kase}: ${parsed.error}`)
  const { board, state } = parsed.value
  const orders = { ...parsed.value.orders }
  for (const [player, change] of Object.entries(golden.orders ?? {})) orders[player] = { ...orders[player]!, ...change }
  return { board, result: resolveTurn(board, state, orders) }
}

/** The name of a golden turn's kept file, without its extension. */
export const fileOf = (golden: Golden): string => golden.file ?? golden.kase

/**
 * A turn as stored before events named the robot pushing or shooting (`by`): kept turns are
 * reported and told again from their stored log, as it was written.
 */
export function storedBeforeBy(result: TurnResult): TurnResult {
  const stored = structuredClone(result)
  for (const stage of stored.stages) for (const event of stage.events) if ('by' in event) delete event.by
  return stored
}
