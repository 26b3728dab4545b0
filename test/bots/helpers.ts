// Builders for the bots' tests: the shipped boards, and dealt game states in odd corners of the
// rules (damaged robots with fused registers, reboots, reinstated robots choosing a facing).
import fc from 'fast-check'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileBoard, parseBoard } from '../../src/engine/board.js'
import { dealHands, FULL_DECK, fusedRegistersFor } from '../../src/engine/deck.js'
import { newGame } from '../../src/engine/game.js'
import { randomOrders } from '../../src/engine/simulation.js'
import { resolveTurn } from '../../src/engine/turn.js'
import type { Board, Card, GameState, RobotState } from '../../src/engine/types.js'

const BOARDS_DIR = fileURLToPath(new URL('../../boards', import.meta.url))

export const SHIPPED_BOARDS: Board[] = readdirSync(BOARDS_DIR).filter((f) => f.endsWith('.json')).sort().map((file) => {
  const parsed = parseBoard(JSON.parse(readFileSync(join(BOARDS_DIR, file), 'utf8')))
  if (!parsed.ok) throw new Error(`${file}: ${parsed.error}`)
  return compileBoard(parsed.value)
})

/** A game on `board` after `turns` turns of random programs (the engine's own simulation), not dealt yet. */
export function playedState(board: Board, players: number, seed: number, turns: number): GameState {
  let state = newGame(board, ['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay'].slice(0, players), seed)
  for (let t = 0; t < turns && !state.gameOver; t++) {
    const [orders, dealt] = randomOrders(state)
    state = resolveTurn(board, dealt, orders).state
  }
  return state
}

export interface Twist {
  hp: number
  /** Fused registers hold a card (true) or wait for one after a reboot (false, R33, A1). */
  fusedHoldCards: boolean
  rebooting: boolean
  /** Reinstated at the end of the last turn, so it names its facing now (R29, A4). */
  reinstated: boolean
  stations: number
  extraMemory: boolean
}

/** Changes seat 0's robot as `twist` says, consistently with R27 (fused registers match HP), then deals (R7). */
export function twistedDeal(board: Board, state: GameState, twist: Twist): GameState {
  const others = new Set<number>()
  for (const robot of state.robots) for (const card of Object.values(robot.fused)) if (card) others.add(card.priority)
  const spare = FULL_DECK.filter((card) => !others.has(card.priority))
  const robot = state.robots[0]!
  const fused: Record<string, Card | null> = {}
  fusedRegistersFor(twist.hp).forEach((k, i) => { fused[k] = twist.fusedHoldCards ? spare[i * 7]! : null })
  const at = robot.at ?? board.start.at
  const changed: RobotState = {
    ...robot,
    at,
    mode: twist.reinstated ? 'virtual' : robot.mode === 'destroyed' ? 'real' : robot.mode,
    robotsLeft: Math.max(1, robot.robotsLeft),
    hp: twist.hp,
    fused,
    rebooting: twist.rebooting,
    placedAfterTurn: twist.reinstated ? state.turn - 1 : robot.placedAfterTurn,
    stations: board.elements.filter((e) => e.type === 'upgrade').slice(0, twist.stations).map((e) => e.at),
    options: twist.extraMemory ? ['Extra Memory'] : [],
  }
  const robots = state.robots.map((r, i) => (i === 0 ? changed : r))
  // Real robots never share a square (R24): others on seat 0's square become virtual there.
  const fixed = robots.map((r, i) => (i > 0 && r.at && r.at.row === at.row && r.at.col === at.col && r.mode === 'real' ? { ...r, mode: 'virtual' as const } : r))
  return dealHands({ ...state, robots: fixed, turn: Math.max(state.turn, 2) })
}

/** A seat in a random corner of the rules, for property tests: a shipped board, a few random turns played, seat 0 twisted. */
export function seatCaseArb(options: { minPlayers: number; rebooting: boolean }) {
  return fc.record({
    board: fc.nat(SHIPPED_BOARDS.length - 1),
    players: fc.integer({ min: options.minPlayers, max: 6 }),
    seed: fc.integer(),
    turns: fc.nat(12),
    hp: fc.integer({ min: 1, max: 10 }),
    fusedHoldCards: fc.boolean(),
    rebooting: options.rebooting ? fc.boolean() : fc.constant(false),
    reinstated: fc.boolean(),
    stations: fc.nat(6),
    extraMemory: fc.boolean(),
  })
}

/** The board and the dealt state of a seat case; skips (fc.pre) cases whose game ended in the random turns. */
export function dealtCase(t: Twist & { board: number; players: number; seed: number; turns: number }): { board: Board; dealt: GameState } {
  const board = SHIPPED_BOARDS[t.board]!
  const played = playedState(board, t.players, t.seed, t.turns)
  fc.pre(!played.gameOver)
  return { board, dealt: twistedDeal(board, played, t) }
}
