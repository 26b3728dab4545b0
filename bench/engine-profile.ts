// Full turns of today's engine for a while, and nothing else, to profile where a turn's time goes:
//   npx esbuild bench/engine-profile.ts --bundle --platform=node --format=esm --outfile=/tmp/engine-profile.mjs
//   node --cpu-prof --cpu-prof-dir=/tmp/prof /tmp/engine-profile.mjs [robots] [seconds]
// then `npx tsx bench/engine-profile-summary.ts /tmp/prof/*.cpuprofile` (docs/performance.md has the figures).
import { join } from 'node:path'
import { dealHands } from '../src/engine/deck.js'
import { fillMissingOrdersFor } from '../src/engine/program.js'
import { resolveTurn } from '../src/engine/turn.js'
import { compileBoard } from '../src/engine/board.js'
import { newGame } from '../src/engine/game.js'
import { randomOrders } from '../src/engine/simulation.js'
import { busiest12x12, definitionOf, loadBoards, statesToDeal } from './engine.js'

const robots = Number(process.argv[2] ?? 8)
const seconds = Number(process.argv[3] ?? 8)
// Run from the repository root: the bundle lives elsewhere, so the boards are found from the working folder.
const board = busiest12x12(loadBoards(join(process.cwd(), 'boards')))
const states = statesToDeal({ compileBoard, newGame, randomOrders, resolveTurn }, definitionOf(board), robots, 2000)
const until = Date.now() + seconds * 1000
let turns = 0
while (Date.now() < until) {
  for (let k = 0; k < 100; k++, turns++) {
    const [orders, ready] = fillMissingOrdersFor(dealHands(states[turns % states.length]!), () => true)
    resolveTurn(board, ready, orders)
  }
}
console.log(`${turns} full turns with ${robots} robots in ${seconds} s`)
