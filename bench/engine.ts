// Engine benchmarks: turns resolved per second for 8 robots with random programs on the busiest
// 12×12 board, and the time of one whole simulated 8-player game. Figures, never assertions.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileBoard, parseBoard } from '../src/engine/board.js'
import { randomOrders, simulateGame } from '../src/engine/simulation.js'
import { newGame } from '../src/engine/game.js'
import { resolveTurn } from '../src/engine/turn.js'
import type { Board, GameState, TurnOrders } from '../src/engine/types.js'

const PLAYERS = ['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal']

export function loadBoards(dir: string): Board[] {
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((file) => {
    const parsed = parseBoard(JSON.parse(readFileSync(join(dir, file), 'utf8')))
    if (!parsed.ok) throw new Error(`${file}: ${parsed.error}`)
    return compileBoard(parsed.value)
  })
}

/** The 12×12 board with the most elements. */
export function busiest12x12(boards: Board[]): Board {
  const candidates = boards.filter((b) => b.rows === 12 && b.cols === 12)
  if (candidates.length === 0) throw new Error('no 12x12 board in boards/')
  return candidates.reduce((a, b) => (b.elements.length > a.elements.length ? b : a))
}

/** Pre-deals a pool of (state, orders) pairs from seeded games, so the timed loop only resolves. */
function turnPool(board: Board, size: number): [GameState, Record<string, TurnOrders>][] {
  const pool: [GameState, Record<string, TurnOrders>][] = []
  let seed = 1
  let state = newGame(board, PLAYERS, seed)
  while (pool.length < size) {
    if (state.gameOver || state.turn > 40) state = newGame(board, PLAYERS, ++seed)
    const [orders, dealt] = randomOrders(state)
    pool.push([dealt, orders])
    state = resolveTurn(board, dealt, orders).state
  }
  return pool
}

export interface EngineFigures {
  board: string
  /** The median round's turns per second of wall-clock time. */
  turnsPerSecond: number
  /** The median round's turns per second of this process's own CPU time: steadier on a busy machine. */
  turnsPerCpuSecond: number
  /** The slowest and fastest rounds, per CPU second: how far the machine's own speed moved meanwhile. */
  slowestRound: number
  fastestRound: number
  rounds: number
  gameMs: number
  gameTurns: number
}

/** The middle value (the upper one of an even count). */
function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1]!
}

/**
 * Resolves turns from the pool for `rounds` rounds of `seconds` each and reports the median round.
 * Rounds, not one long run: this machine's speed moves by a third from one second to the next
 * (docs/performance.md), and the median of short rounds says what the engine does, the range how
 * much the machine moved.
 */
export function benchEngine(board: Board, rounds = 9, seconds = 1): EngineFigures {
  const pool = turnPool(board, 2000)
  for (let i = 0; i < 2000; i++) resolveTurn(board, pool[i % pool.length]![0], pool[i % pool.length]![1]) // warm-up
  let turns = 0
  const wall: number[] = []
  const cpu: number[] = []
  const budget = BigInt(Math.round(seconds * 1e9))
  for (let round = 0; round < rounds; round++) {
    const turnsBefore = turns
    const cpuBefore = process.cpuUsage()
    const started = process.hrtime.bigint()
    while (process.hrtime.bigint() - started < budget) {
      for (let i = 0; i < 200; i++, turns++) {
        const [state, orders] = pool[turns % pool.length]!
        resolveTurn(board, state, orders)
      }
    }
    const elapsed = Number(process.hrtime.bigint() - started) / 1e9
    const used = process.cpuUsage(cpuBefore)
    wall.push((turns - turnsBefore) / elapsed)
    cpu.push((turns - turnsBefore) / ((used.user + used.system) / 1e6))
  }
  const gameStart = process.hrtime.bigint()
  const game = simulateGame(board, 8, 2026, 1000)
  const gameMs = Number(process.hrtime.bigint() - gameStart) / 1e6
  return {
    board: board.name,
    turnsPerSecond: Math.round(median(wall)),
    turnsPerCpuSecond: Math.round(median(cpu)),
    slowestRound: Math.round(Math.min(...cpu)),
    fastestRound: Math.round(Math.max(...cpu)),
    rounds,
    gameMs: Math.round(gameMs * 10) / 10,
    gameTurns: game.turnsPlayed,
  }
}
