// `npm run bench`: prints the project's speed figures. See docs/performance.md for what they mean.
import { join } from 'node:path'
import { benchEngine, busiest12x12, loadBoards } from './engine.js'

const boards = loadBoards(join(import.meta.dirname, '..', 'boards'))
const engine = benchEngine(busiest12x12(boards))
const n = (value: number) => value.toLocaleString('en')
console.log(`engine: ${n(engine.turnsPerCpuSecond)} turns/s resolved per CPU second (${n(engine.turnsPerSecond)} wall clock), 8 robots with random programs on "${engine.board}", one core; the median of ${engine.rounds} one-second rounds, which ranged from ${n(engine.slowestRound)} to ${n(engine.fastestRound)}`)
console.log(`engine: one whole simulated 8-player game: ${engine.gameTurns} turns in ${engine.gameMs} ms`)

const { benchGreedy } = await import('./bots.js')
const bots = benchGreedy(busiest12x12(boards))
console.log(`bots: greedy decides with a full hand (9 cards) on "${bots.board}" in ${bots.cpuMedianMs} ms median, ${bots.cpuP99Ms} ms p99 of CPU time (one core; wall clock ${bots.wallMedianMs} ms median, ${bots.wallP99Ms} ms p99, slowest ${bots.slowestWallMs} ms), over ${bots.decisions} positions from seeded 4-player games`)

// The server figures (autocannon against the real app and a bare Fastify route, and closing an
// 8-player turn); `npm run bench:server -- --db FILE` runs them alone, e.g. on the 10,000-game seed.
const { benchServer } = await import('./server.js')
await benchServer()
