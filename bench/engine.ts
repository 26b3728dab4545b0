// Engine benchmarks: a full turn as the server plays it (deal the hands, fill every program at
// random, resolve) on the busiest 12×12 board with 8 and with 4 robots, today's code against the
// dealing and filling code before issue 17 (bench/baseline), in alternating one-second rounds in
// this one process; and each part alone. Figures, never assertions.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileBoard, parseBoard } from '../src/engine/board.js'
import { dealHands } from '../src/engine/deck.js'
import { newGame } from '../src/engine/game.js'
import { fillMissingOrdersFor } from '../src/engine/program.js'
import { PLAYER_NAMES, randomOrders, simulateGame } from '../src/engine/simulation.js'
import { resolveTurn } from '../src/engine/turn.js'
import type { Board, GameState, TurnOrders } from '../src/engine/types.js'
import { baselineDealHands, baselineFillAll } from './baseline/deal-fill.js'
import { median, spreadOf, timedRounds, type Spread } from './rounds.js'

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

type Orders = Record<string, TurnOrders>

/** One way of dealing and filling: today's engine, or the code before issue 17. */
interface TurnPath {
  deal(state: GameState): GameState
  fill(dealt: GameState): [Orders, GameState]
}

const TODAY: TurnPath = { deal: dealHands, fill: (dealt) => fillMissingOrdersFor(dealt, () => true) }
const BEFORE: TurnPath = { deal: baselineDealHands, fill: baselineFillAll }

/** Game states about to be dealt, from seeded games (each replaced by a new one after 40 turns). */
function statesToDeal(board: Board, players: number, size: number): GameState[] {
  const pool: GameState[] = []
  let seed = 1
  let state = newGame(board, PLAYER_NAMES.slice(0, players), seed)
  while (pool.length < size) {
    if (state.gameOver || state.turn > 40) state = newGame(board, PLAYER_NAMES.slice(0, players), ++seed)
    pool.push(state)
    const [orders, dealt] = randomOrders(state)
    state = resolveTurn(board, dealt, orders).state
  }
  return pool
}

export interface PairFigures {
  /** Per CPU second: the median round and the slowest–fastest rounds, today and before. */
  today: Spread
  before: Spread
  /** The median over the rounds of today's rate divided by the one measured right before it. */
  ratio: number
}

export interface EngineFigures {
  board: string
  players: number
  rounds: number
  fullTurn: PairFigures
  deal: PairFigures
  fill: PairFigures
  /** Resolving alone: the same code on both paths, so measured once. */
  resolve: Spread
}

/** Today's and the old path in alternating rounds; returns both spreads and the per-pair ratio. */
function alternate(rounds: number, seconds: number, items: number, today: (i: number) => void, before: (i: number) => void): PairFigures {
  const t: number[] = []
  const b: number[] = []
  for (let round = 0; round < rounds; round++) {
    b.push(timedRounds(1, seconds, items, before)[0]!)
    t.push(timedRounds(1, seconds, items, today)[0]!)
  }
  return { today: spreadOf(t), before: spreadOf(b), ratio: median(t.map((rate, i) => rate / b[i]!)) }
}

/**
 * `rounds` one-second rounds of full turns per path, alternating, then shorter rounds of each part.
 * Rounds, not one long run: this machine's speed moves by a third from one second to the next
 * (docs/performance.md); alternating lets both paths see the same machine.
 */
export function benchEngine(board: Board, players: number, rounds = 9, seconds = 1): EngineFigures {
  const states = statesToDeal(board, players, 2000)
  const dealt = states.map(dealHands)
  const filled = dealt.map((state) => TODAY.fill(state))
  const n = states.length
  const fullTurn = (path: TurnPath) => (i: number) => {
    const [orders, ready] = path.fill(path.deal(states[i % n]!))
    resolveTurn(board, ready, orders)
  }
  for (let i = 0; i < 2000; i++) { fullTurn(TODAY)(i); fullTurn(BEFORE)(i) } // warm-up
  const partRounds = Math.max(3, Math.ceil(rounds / 2))
  return {
    board: board.name,
    players,
    rounds,
    fullTurn: alternate(rounds, seconds, n, fullTurn(TODAY), fullTurn(BEFORE)),
    deal: alternate(partRounds, seconds / 2, n, (i) => TODAY.deal(states[i]!), (i) => BEFORE.deal(states[i]!)),
    fill: alternate(partRounds, seconds / 2, n, (i) => TODAY.fill(dealt[i]!), (i) => BEFORE.fill(dealt[i]!)),
    resolve: spreadOf(timedRounds(partRounds, seconds / 2, n, (i) => resolveTurn(board, filled[i]![1], filled[i]![0]))),
  }
}

/** One whole simulated 8-player game, timed. */
export function benchGame(board: Board): { turns: number; ms: number } {
  const started = process.hrtime.bigint()
  const game = simulateGame(board, 8, 2026, 1000)
  return { turns: game.turnsPlayed, ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10 }
}
