// Engine benchmarks: a full turn as the server plays it (deal the hands, fill every program at
// random, resolve) on the busiest 12×12 board with 8 and with 4 robots, today's engine against the
// whole engine as it was when issue 17 was opened (bench/baseline/old-engine.ts, taken from git),
// in alternating one-second rounds in this one process; then dealing, filling and resolving alone,
// also alternating. Figures, never assertions.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileBoard, parseBoard } from '../src/engine/board.js'
import { PLAYER_NAMES, simulateGame } from '../src/engine/simulation.js'
import type { Board, BoardDefinition, GameState, TurnOrders } from '../src/engine/types.js'
import { oldFillAll, type EngineCopy } from './baseline/engine-copy.js'
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

/** One engine's way through a turn: today's, or the one before issue 17 (each on its own compiled board). */
export interface TurnPath {
  deal(state: GameState): GameState
  fill(dealt: GameState): [Orders, GameState]
  resolve(state: GameState, orders: Orders): void
}

/** An engine copy's way through a turn as the server plays it, on its own compiled board (so neither warms the other's caches). */
export function pathOf(engine: EngineCopy, board: Board): TurnPath {
  const own = engine.compileBoard(definitionOf(board))
  const fillAll = engine.fillMissingOrdersFor
  return {
    deal: engine.dealHands,
    fill: fillAll ? (dealt) => fillAll(dealt, () => true) : (dealt) => oldFillAll(engine, dealt),
    resolve: (state, orders) => { engine.resolveTurn(own, state, orders) },
  }
}

/** The board as authored, for an engine copy to compile its own. */
export function definitionOf(board: Board): BoardDefinition {
  return { name: board.name, rows: board.rows, cols: board.cols, start: board.start, elements: board.elements }
}

/** What plays the games the bench's states come from: an engine's own functions. */
export type GameMaker = Pick<EngineCopy, 'compileBoard' | 'newGame' | 'randomOrders' | 'resolveTurn'>

/**
 * The states, dealt states and filled orders the parts are timed on, all made by `maker`, a copy
 * that is not timed. Made by an engine being timed, they cost it a quarter of its deal rate and
 * more of its fill rate: V8 saw the objects its deals made live long and allocated them in the
 * old generation from then on (pretenuring), also in the timed rounds where they die at once.
 */
export function benchInputs(maker: EngineCopy, board: Board, players: number, size = 2000) {
  const states = statesToDeal(maker, definitionOf(board), players, size)
  const path = pathOf(maker, board)
  const dealt = states.map(path.deal)
  const filled = dealt.map(path.fill)
  return { states, dealt, filled }
}

/**
 * Game states about to be dealt, from seeded games (each replaced by a new one after 40 turns),
 * played by `maker`: a separate copy of an engine (see loadEngineCopy), so that neither engine
 * being compared has run anything but the bench's own turns. The states go through JSON, as the
 * server stores and loads them.
 */
export function statesToDeal(maker: GameMaker, definition: BoardDefinition, players: number, size: number): GameState[] {
  const board = maker.compileBoard(definition)
  const pool: GameState[] = []
  let seed = 1
  let state = maker.newGame(board, PLAYER_NAMES.slice(0, players), seed)
  while (pool.length < size) {
    if (state.gameOver || state.turn > 40) state = maker.newGame(board, PLAYER_NAMES.slice(0, players), ++seed)
    pool.push(JSON.parse(JSON.stringify(state)) as GameState)
    const [orders, dealt] = maker.randomOrders(state)
    state = maker.resolveTurn(board, dealt, orders).state
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
  baseline: string
  fullTurn: PairFigures
  deal: PairFigures
  fill: PairFigures
  resolve: PairFigures
}

/**
 * Today's and the old path in alternating rounds; returns both spreads and the per-pair ratio.
 * Which goes first swaps every pair: the second of a pair pays for collecting the first one's
 * garbage, which cost the second up to a fifth of its rate when the old path always went first.
 */
function alternate(rounds: number, seconds: number, items: number, today: (i: number) => void, before: (i: number) => void): PairFigures {
  const t: number[] = []
  const b: number[] = []
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      b.push(timedRounds(1, seconds, items, before)[0]!)
      t.push(timedRounds(1, seconds, items, today)[0]!)
    } else {
      t.push(timedRounds(1, seconds, items, today)[0]!)
      b.push(timedRounds(1, seconds, items, before)[0]!)
    }
  }
  return { today: spreadOf(t), before: spreadOf(b), ratio: median(t.map((rate, i) => rate / b[i]!)) }
}

/**
 * `rounds` one-second rounds of full turns per engine, alternating, then half-second rounds of each
 * part. Rounds, not one long run: this machine's speed moves by a third from one second to the
 * next (docs/performance.md); alternating lets both engines see the same machine. Both engines
 * deal, fill and resolve the same states (the random stream is the same in both), made by `maker`.
 */
export function benchEngine(board: Board, engines: { today: EngineCopy; old: EngineCopy; maker: EngineCopy }, players: number, rounds = 9, seconds = 1): EngineFigures {
  const today = pathOf(engines.today, board)
  const before = pathOf(engines.old, board)
  const { states, dealt, filled } = benchInputs(engines.maker, board, players)
  const n = states.length
  const fullTurn = (path: TurnPath) => (i: number) => {
    const [orders, ready] = path.fill(path.deal(states[i % n]!))
    path.resolve(ready, orders)
  }
  for (let i = 0; i < 2000; i++) { fullTurn(today)(i); fullTurn(before)(i) } // warm-up
  const partRounds = Math.max(3, Math.ceil(rounds / 2))
  const part = (call: (path: TurnPath, i: number) => void) =>
    alternate(partRounds, seconds / 2, n, (i) => call(today, i), (i) => call(before, i))
  return {
    board: board.name,
    players,
    rounds,
    baseline: engines.old.commit,
    fullTurn: alternate(rounds, seconds, n, fullTurn(today), fullTurn(before)),
    deal: part((path, i) => path.deal(states[i]!)),
    fill: part((path, i) => path.fill(dealt[i]!)),
    resolve: part((path, i) => path.resolve(filled[i]![1], filled[i]![0])),
  }
}

/** One whole simulated 8-player game, timed. */
export function benchGame(board: Board): { turns: number; ms: number } {
  const started = process.hrtime.bigint()
  const game = simulateGame(board, 8, 2026, 1000)
  return { turns: game.turnsPlayed, ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10 }
}
