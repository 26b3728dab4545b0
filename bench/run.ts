// `npm run bench`: prints the project's speed figures. See docs/performance.md for what they mean.
// `npm run bench -- --engine-only` stops after the engine's lines; `--rounds N` sets the full-turn rounds.
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { benchEngine, benchGame, busiest12x12, loadBoards, type PairFigures } from './engine.js'
import { execFileSync } from 'node:child_process'
import { loadEngineCopy } from './baseline/engine-copy.js'
import type { Spread } from './rounds.js'

const { values: args } = parseArgs({ options: { 'engine-only': { type: 'boolean' }, rounds: { type: 'string' } } })
const rounds = Number(args.rounds ?? 9)
const board = busiest12x12(loadBoards(join(import.meta.dirname, '..', 'boards')))
const n = (value: number) => value.toLocaleString('en')
const spread = (s: Spread) => `${n(s.median)} (${n(s.slowest)}–${n(s.fastest)})`
// Both engines run from copies taken from git (bench/baseline/engine-copy.ts), so that they have
// the same history in this process: the one before issue 17 (BENCH_BASELINE=COMMIT names another,
// e.g. HEAD, with which every ratio should come out about 1) and the committed one.
const old = await loadEngineCopy(process.env.BENCH_BASELINE || undefined)
const head = execFileSync('git', ['-C', import.meta.dirname, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
const today = await loadEngineCopy(head, 'today')
// A third copy makes the game states both play (see statesToDeal).
const maker = await loadEngineCopy(head, 'states')
const uncommitted = execFileSync('git', ['-C', import.meta.dirname, 'status', '--porcelain', '--', '../src/engine'], { encoding: 'utf8' }).trim()
if (uncommitted) console.log(`NOTE: src/engine has uncommitted changes; the engine timed is the committed one (${head})`)
const pair = (p: PairFigures) => `${spread(p.today)} against ${spread(p.before)} ${process.env.BENCH_BASELINE ? '' : 'before issue 17 '}(engine at ${old.commit}; today ${head}): ${p.ratio.toFixed(2)}×`

console.log(`engine on "${board.name}", per CPU second of this process, one core: the median round (slowest–fastest round)`)
for (const players of [8, 4]) {
  const e = benchEngine(board, { today, old, maker }, players, rounds)
  console.log(`engine, ${players} robots: full turns (deal + fill every program at random + resolve) ${pair(e.fullTurn)}; ${e.rounds} one-second rounds each, alternating`)
  console.log(`engine, ${players} robots:   deals ${pair(e.deal)}`)
  console.log(`engine, ${players} robots:   fills (every robot's program) ${pair(e.fill)}`)
  console.log(`engine, ${players} robots:   resolves ${pair(e.resolve)}`)
}
const game = benchGame(board)
console.log(`engine: one whole simulated 8-player game: ${game.turns} turns in ${game.ms} ms`)

const { benchGreedy } = await import('./bots.js')
const bots = benchGreedy(board)
console.log(`bots: greedy decides with a full hand (9 cards) on "${bots.board}" in ${bots.cpuMedianMs} ms median, ${bots.cpuP99Ms} ms p99 of CPU time (one core; wall clock ${bots.wallMedianMs} ms median, ${bots.wallP99Ms} ms p99, slowest ${bots.slowestWallMs} ms), over ${bots.decisions} positions from seeded 4-player games`)

if (!args['engine-only']) {
  // The server figures (autocannon against the real app and a bare Fastify route, and closing an
  // 8-player turn); `npm run bench:server -- --db FILE` runs them alone, e.g. on the 10,000-game seed.
  const { benchServer } = await import('./server.js')
  await benchServer()
}
