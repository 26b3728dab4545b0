// Full turns of today's engine for a while, profiled, to see where a turn's time goes. The
// profiler runs only while the turns do (not while the game states are made):
//   npx esbuild bench/engine-profile.ts --bundle --platform=node --format=esm --outfile=/tmp/engine-profile.mjs
//   node /tmp/engine-profile.mjs [robots=8] [seconds=8] [out=/tmp/engine.cpuprofile]
//   npx tsx bench/engine-profile-summary.ts /tmp/engine.cpuprofile
// (bundled so that the profile names the engine's functions, not tsx's loader; docs/performance.md).
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { join } from 'node:path'
import { compileBoard } from '../src/engine/board.js'
import { dealHands } from '../src/engine/deck.js'
import { newGame } from '../src/engine/game.js'
import { fillMissingOrdersFor } from '../src/engine/program.js'
import { randomOrders } from '../src/engine/simulation.js'
import { resolveTurn } from '../src/engine/turn.js'
import { busiest12x12, definitionOf, loadBoards, statesToDeal } from './engine.js'

const robots = Number(process.argv[2] ?? 8)
const seconds = Number(process.argv[3] ?? 8)
const out = process.argv[4] ?? '/tmp/engine.cpuprofile'
// Run from the repository root: the bundle lives elsewhere, so the boards are found from the working folder.
const board = busiest12x12(loadBoards(join(process.cwd(), 'boards')))
const states = statesToDeal({ compileBoard, newGame, randomOrders, resolveTurn }, definitionOf(board), robots, 2000)

/** The server's full turn: deal, fill every program at random (R9), resolve. */
function fullTurns(until: number): number {
  let turns = 0
  while (Date.now() < until) {
    for (let k = 0; k < 100; k++, turns++) {
      const [orders, ready] = fillMissingOrdersFor(dealHands(states[turns % states.length]!), () => true)
      resolveTurn(board, ready, orders)
    }
  }
  return turns
}

fullTurns(Date.now() + 1000) // warm-up, not profiled
const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.start')
const turns = fullTurns(Date.now() + seconds * 1000)
const { profile } = await session.post('Profiler.stop')
writeFileSync(out, JSON.stringify(profile))
console.log(`${turns} full turns with ${robots} robots in ${seconds} s; profile in ${out}`)
