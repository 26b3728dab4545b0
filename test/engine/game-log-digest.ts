// One SHA-256 over everything the engine says in many seeded games: every deal, every program,
// every turn's whole result (event log, stage pictures, end table, registers, new state), on every
// board in boards/ with 2, 4 and 8 players, and from every rules case's state (ours and the public
// ones) played on for a few turns. A speed-up must leave this digest exactly as it was: the
// engine's output, its random stream and its purity (the inputs are deep-frozen, so a rule that
// changes its input in place throws) are the same or the digest says otherwise.
//
// Used by game-log-digest.test.ts (a fixed set, with the digest recorded there) and, for a larger
// set while optimising, by `npx tsx test/engine/game-log-digest.ts [seeds] [turns]`.
import { createHash, type Hash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { compileBoard, parseBoard } from '../../src/engine/board.js'
import { dealHands } from '../../src/engine/deck.js'
import { newGame } from '../../src/engine/game.js'
import { fillMissingOrdersFor } from '../../src/engine/program.js'
import { caseOutput, parseRulesCase, type ParsedCase } from '../../src/engine/rules-case.js'
import { PLAYER_NAMES } from '../../src/engine/simulation.js'
import { needsProgram, resolveTurn } from '../../src/engine/turn.js'
import { DIRECTIONS, MAX_HP, type Board, type GameState, type TurnOrders } from '../../src/engine/types.js'

const root = resolve(import.meta.dirname, '../..')

/** A small seeded generator for the test's own choices (mulberry32), apart from the game's stream. */
function sideRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/**
 * One turn as a server with players might play it: the deal (R7); most programs filled by R9, the
 * others chosen by the side generator from the hand (and some of those declare a reboot, R33, or
 * choose a facing after reinstatement, R29); then the turn. Everything goes into the hash.
 */
function playTurn(hash: Hash, board: Board, state: GameState, side: () => number): GameState {
  const dealt = dealHands(state)
  hash.update(JSON.stringify([dealt.hands, dealt.rng, dealt.robots]))
  const byServer = new Set(dealt.robots.filter(() => side() < 0.7).map((robot) => robot.player))
  const [filled, current] = fillMissingOrdersFor(dealt, (player) => byServer.has(player))
  const orders: Record<string, TurnOrders> = { ...filled }
  for (const robot of current.robots) {
    if (orders[robot.player]) continue
    const hand = [...(current.hands[robot.player] ?? [])]
    const cards = []
    if (needsProgram(robot)) {
      for (let k = 1; k <= 5; k++) if (!(k in robot.fused)) cards.push(hand.splice(Math.floor(side() * hand.length), 1)[0]!)
    }
    const chosen: TurnOrders = { cards, rebootNext: side() < 0.05 }
    if (robot.mode === 'virtual' && robot.placedAfterTurn === current.turn - 1 && side() < 0.5) chosen.facing = DIRECTIONS[Math.floor(side() * 4)]!
    orders[robot.player] = chosen
  }
  hash.update(JSON.stringify(orders))
  const result = resolveTurn(board, deepFreeze(current), deepFreeze(orders))
  hash.update(JSON.stringify(result))
  return result.state
}

/** Standing choices vary by robot (R28 sacrifice threshold, R31 double wrench), so options come into play. */
function withChoices(state: GameState, side: () => number): GameState {
  return {
    ...state,
    robots: state.robots.map((robot) => ({
      ...robot,
      sacrificeAt: Math.floor(side() * (MAX_HP + 1)),
      doubleWrench: side() < 0.5 ? 'option' : 'repair',
    })),
  }
}

export function loadBoards(): Map<string, Board> {
  const dir = join(root, 'boards')
  return new Map(readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((file) => {
    const parsed = parseBoard(JSON.parse(readFileSync(join(dir, file), 'utf8')))
    if (!parsed.ok) throw new Error(`${file}: ${parsed.error}`)
    return [file, compileBoard(parsed.value)] as const
  }))
}

export interface Digest {
  digest: string
  games: number
  turns: number
  cases: number
}

export const CASE_FOLDERS = { own: join(root, 'test/cases'), public: resolve(root, '../shared/conformance/cases') }

export interface DigestSet {
  /** Board files in boards/ to play seeded games on. */
  boards: readonly string[]
  seeds: number
  turns: number
  /** Folders of rules cases: each case is resolved, then played on for `caseTurns` turns. */
  caseFolders: readonly string[]
  caseTurns: number
}

/** Seeds 1..seeds on each board with 2, 4 and 8 players, up to `turns` turns; then every rules case and `caseTurns` more turns from it. */
export function gameLogDigest(set: DigestSet): Digest {
  const hash = createHash('sha256')
  let games = 0
  let played = 0
  const boards = loadBoards()
  for (const file of set.boards) {
    const board = boards.get(file)
    if (!board) throw new Error(`no board ${file} in boards/`)
    const { seeds, turns } = set
    for (const players of [2, 4, 8]) {
      for (let seed = 1; seed <= seeds; seed++) {
        const side = sideRandom(seed * 1000 + players)
        hash.update(`${file} ${players} ${seed}\n`)
        let state = withChoices(newGame(board, PLAYER_NAMES.slice(0, players), seed), side)
        games++
        for (let turn = 0; turn < turns && !state.gameOver; turn++, played++) state = playTurn(hash, board, state, side)
      }
    }
  }
  let cases = 0
  for (const [file, { board, state, orders }] of validCases(set.caseFolders)) {
    cases++
    hash.update(`case ${file}\n`)
    const result = resolveTurn(board, deepFreeze(state), deepFreeze(orders))
    hash.update(JSON.stringify([result, caseOutput(result)]))
    const side = sideRandom(cases)
    let next = result.state
    for (let turn = 0; turn < set.caseTurns && !next.gameOver; turn++, played++) next = playTurn(hash, board, next, side)
  }
  return { digest: hash.digest('hex'), games, turns: played, cases }
}

/** The rules case files of `folders` that are JSON, as read, by file name, in folder and name order. */
export function caseJsons(folders: readonly string[]): [string, unknown][] {
  const out: [string, unknown][] = []
  for (const folder of folders) {
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.json')).sort()) {
      try { out.push([file, JSON.parse(readFileSync(join(folder, file), 'utf8'))]) } catch { continue }
    }
  }
  return out
}

/** A board file a rules case names, read from the repository's root (FORMAT.md section 2). */
export const loadCaseBoard = (path: string): unknown => JSON.parse(readFileSync(resolve(root, path), 'utf8'))

/** The rules cases of `folders` that are valid (the others test refusals), by file name, in folder and name order. */
export function validCases(folders: readonly string[]): [string, ParsedCase][] {
  const out: [string, ParsedCase][] = []
  for (const [file, json] of caseJsons(folders)) {
    const parsed = parseRulesCase(json, loadCaseBoard)
    if (parsed.ok) out.push([file, parsed.value])
  }
  return out
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const started = Date.now()
  const result = gameLogDigest({
    boards: [...loadBoards().keys()], seeds: Number(process.argv[2] ?? 40), turns: Number(process.argv[3] ?? 60),
    caseFolders: Object.values(CASE_FOLDERS).filter(existsSync), caseTurns: 5,
  })
  console.log(`${result.digest}  (${result.games} games, ${result.cases} cases, ${result.turns} turns, ${Date.now() - started} ms)`)
}
