// One commit's engine against another's, each from its own copy (bench/baseline/engine-copy.ts),
// in alternating half-second rounds in one process: the quick check while optimising. Commit the
// change first; the working tree itself is not timed.
//   npx tsx bench/engine-ab.ts BEFORE [AFTER=HEAD] [robots=8] [rounds=8] [pool=2000]
// `pool` times the turns of fewer states, spread evenly over the 2,000 (every 100th for 20): few
// enough stay in the processor's cache, which shows how much of a turn is its first reads of a
// state that is not (docs/performance.md, issue 17's eighth round).
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { loadEngineCopy } from './baseline/engine-copy.js'
import { benchInputs, busiest12x12, loadBoards, pathOf, type TurnPath } from './engine.js'
import { median, timedRounds } from './rounds.js'

const [beforeRef = 'HEAD~1', afterRef = 'HEAD', robotsArg = '8', roundsArg = '8', poolArg = '2000'] = process.argv.slice(2)
const commit = (ref: string) => execFileSync('git', ['rev-parse', '--short', ref], { encoding: 'utf8' }).trim()
const [beforeCommit, afterCommit] = [commit(beforeRef), commit(afterRef)]
const board = busiest12x12(loadBoards(join(import.meta.dirname, '..', 'boards')))
const before = pathOf(await loadEngineCopy(beforeCommit, 'ab-before'), board)
const after = pathOf(await loadEngineCopy(afterCommit, 'ab-after'), board)
const inputs = benchInputs(await loadEngineCopy(afterCommit, 'states'), board, Number(robotsArg))
const stride = Math.max(1, Math.floor(inputs.states.length / Number(poolArg)))
const spread = <T>(all: T[]): T[] => all.filter((_, i) => i % stride === 0).slice(0, Number(poolArg))
const [states, dealt, filled] = [spread(inputs.states), spread(inputs.dealt), spread(inputs.filled)]
const n = states.length
const rounds = Number(roundsArg)

function pairs(part: (path: TurnPath, i: number) => void): string {
  for (let i = 0; i < Math.max(2 * n, 4000); i++) { part(after, i % n); part(before, i % n) } // warm-up
  const ratios: number[] = []
  const rates: number[] = []
  for (let r = 0; r < rounds; r++) {
    // Which goes first swaps every pair (see alternate in engine.ts).
    const first = r % 2 === 0 ? timedRounds(1, 0.5, n, (i) => part(before, i))[0]! : 0
    const a = timedRounds(1, 0.5, n, (i) => part(after, i))[0]!
    const b = r % 2 === 0 ? first : timedRounds(1, 0.5, n, (i) => part(before, i))[0]!
    ratios.push(a / b)
    rates.push(a)
  }
  return `${(1e6 / median(rates)).toFixed(2)} µs at ${afterCommit}, ${median(ratios).toFixed(2)}× the rate at ${beforeCommit} (pairs ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`
}
console.log(`full turn ${pairs((path, i) => { const [orders, ready] = path.fill(path.deal(states[i]!)); path.resolve(ready, orders) })}`)
console.log(`resolve   ${pairs((path, i) => path.resolve(filled[i]![1], filled[i]![0]))}`)
console.log(`deal      ${pairs((path, i) => path.deal(states[i]!))}`)
console.log(`fill      ${pairs((path, i) => path.fill(dealt[i]!))}`)
