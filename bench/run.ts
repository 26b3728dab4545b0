// `npm run bench`: prints the project's speed figures. See docs/performance.md for what they mean.
import { join } from 'node:path'
import { benchEngine, busiest12x12, loadBoards } from './engine.js'

const boards = loadBoards(join(import.meta.dirname, '..', 'boards'))
const engine = benchEngine(busiest12x12(boards))
const n = (value: number) => value.toLocaleString('en')
console.log(`engine: ${n(engine.turnsPerCpuSecond)} turns/s resolved per CPU second (${n(engine.turnsPerSecond)} wall clock), 8 robots with random programs on "${engine.board}", one core; the median of ${engine.rounds} one-second rounds, which ranged from ${n(engine.slowestRound)} to ${n(engine.fastestRound)}`)
console.log(`engine: one whole simulated 8-player game: ${engine.gameTurns} turns in ${engine.gameMs} ms`)

// The server figures (autocannon against the real app and a bare Fastify route, and closing an
// 8-player turn); `npm run bench:server -- --db FILE` runs them alone, e.g. on the 10,000-game seed.
const { benchServer } = await import('./server.js')
await benchServer()
