// Today's working tree against any commit's engine, resolving (and dealing) the same turns in
// alternating half-second rounds in one process: the quick check while optimising.
//   npx tsx bench/engine-ab.ts COMMIT [robots] [rounds]
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { dealHands } from '../src/engine/deck.js'
import { fillMissingOrdersFor } from '../src/engine/program.js'
import { resolveTurn } from '../src/engine/turn.js'
import { loadOldEngine } from './baseline/old-engine.js'
import { busiest12x12, definitionOf, loadBoards, statesToDeal } from './engine.js'
import { median, timedRounds } from './rounds.js'

const [ref = 'HEAD', robotsArg = '8', roundsArg = '7'] = process.argv.slice(2)
const commit = execFileSync('git', ['rev-parse', '--short', ref], { encoding: 'utf8' }).trim()
const other = await loadOldEngine(commit)
const board = busiest12x12(loadBoards(join(import.meta.dirname, '..', 'boards')))
const otherBoard = other.compileBoard(definitionOf(board))
// Made by a third copy, so neither engine compared has run anything but these turns.
const states = statesToDeal(await loadOldEngine(commit, 'states'), definitionOf(board), Number(robotsArg), 2000)
const filled = states.map((state) => fillMissingOrdersFor(dealHands(state), () => true))
const n = states.length
const rounds = Number(roundsArg)
const pairs = (today: (i: number) => void, then: (i: number) => void) => {
  for (let i = 0; i < 3 * n; i++) { today(i % n); then(i % n) } // warm-up
  const ratios: number[] = []
  const t: number[] = []
  for (let r = 0; r < rounds; r++) {
    const b = timedRounds(1, 0.5, n, then)[0]!
    const a = timedRounds(1, 0.5, n, today)[0]!
    ratios.push(a / b)
    t.push(a)
  }
  return `${(1e6 / median(t)).toFixed(2)} µs now, ${median(ratios).toFixed(2)}× of ${commit} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`
}
const deal = pairs((i) => dealHands(states[i]!), (i) => other.dealHands(states[i]!))
console.log(`resolve ${pairs((i) => resolveTurn(board, filled[i]![1], filled[i]![0]), (i) => other.resolveTurn(otherBoard, filled[i]![1], filled[i]![0]))}`)
console.log(`deal    ${deal}`)
