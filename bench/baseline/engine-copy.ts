// Copies of the engine at a commit, as their own modules: the engine as it was when issue 17 was
// opened (src/engine at d53a520, the last commit before that engine work: dealing, filling
// AND resolving), and today's committed engine, so that `npm run bench` times a full turn of both
// in the same process, alternating rounds, each from a copy with the same history.
//
// They are taken from git, not kept in the tree: on first use `git archive COMMIT src/engine` is
// unpacked into bench/.baseline/COMMIT[-COPY]/ (ignored by git; inside the repository so that its
// imports of pure-rand and zod find ours) and imported from there. Nothing but the bench uses them.
//
// For speed only: the old engine lacks the issue-17 exactness fixes (a destroyed robot's HP is
// not always 0, FORMAT §3; pushers are not settled in R20 rounds), so a few turns record something
// different. Such turns are rare (a pusher with a chain, destruction by a pit or a crusher) and do
// the same kind of work either way, so the rates compare fairly.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { compileBoard, parseBoard } from '../../src/engine/board.js'
import type { dealHands } from '../../src/engine/deck.js'
import type { newGame } from '../../src/engine/game.js'
import type { fillMissingOrders, fillMissingOrdersFor } from '../../src/engine/program.js'
import type { randomOrders } from '../../src/engine/simulation.js'
import type { needsProgram, resolveTurn } from '../../src/engine/turn.js'
import type { GameState, TurnOrders } from '../../src/engine/types.js'

export const BASELINE_COMMIT = 'd53a520'

/** An engine copy's functions the bench calls (their signatures are today's). */
export interface EngineCopy {
  commit: string
  parseBoard: typeof parseBoard
  compileBoard: typeof compileBoard
  dealHands: typeof dealHands
  fillMissingOrders: typeof fillMissingOrders
  /** Since issue 17 (missing before: the server then called fillMissingOrders once per robot). */
  fillMissingOrdersFor?: typeof fillMissingOrdersFor
  needsProgram: typeof needsProgram
  resolveTurn: typeof resolveTurn
  newGame: typeof newGame
  randomOrders: typeof randomOrders
}

const repository = resolve(import.meta.dirname, '../..')

/** The short id of the commit `ref` names. */
function commitId(ref: string): string {
  try {
    return execFileSync('git', ['-C', repository, 'rev-parse', '--short', `${ref}^{commit}`], { encoding: 'utf8' }).trim()
  } catch (error) {
    throw new Error(`bench: no commit ${ref} (git rev-parse): ${(error as Error).message}`)
  }
}

/** Unpacks the old engine from git into bench/.baseline/FOLDER unless it is there already; returns that folder. */
function unpack(commit: string, folder: string): string {
  const target = join(repository, 'bench', '.baseline', folder)
  if (existsSync(join(target, 'src', 'engine', 'turn.ts'))) return target
  let tar: Buffer
  try {
    tar = execFileSync('git', ['-C', repository, 'archive', '--format=tar', commit, 'src/engine'], { maxBuffer: 64 * 1024 * 1024 })
  } catch (error) {
    throw new Error(`bench: cannot take the old engine from git (git archive ${commit} src/engine): ${(error as Error).message}`)
  }
  mkdirSync(target, { recursive: true })
  execFileSync('tar', ['-x', '-C', target], { input: tar })
  return target
}

/**
 * The engine at `commit`, as its own modules. `copy` names a separate copy of the same commit: V8
 * keeps what it learned about the types a function sees per copy, so a copy used only to make the
 * bench's game states leaves the two engines being compared to learn from the bench's turns alone.
 */
export async function loadEngineCopy(ref = BASELINE_COMMIT, copy = ''): Promise<EngineCopy> {
  // The folder is named by the commit id, never by a name such as HEAD: a copy unpacked under a
  // name would be reused after the name had moved on (BENCH_BASELINE=HEAD timed an old HEAD).
  const commit = commitId(ref)
  const engine = join(unpack(commit, copy ? `${commit}-${copy}` : commit), 'src', 'engine')
  const load = (file: string) => import(pathToFileURL(join(engine, file)).href)
  const [board, deck, program, turn, game, simulation] = await Promise.all(
    ['board.ts', 'deck.ts', 'program.ts', 'turn.ts', 'game.ts', 'simulation.ts'].map(load))
  return {
    commit,
    parseBoard: board.parseBoard,
    compileBoard: board.compileBoard,
    dealHands: deck.dealHands,
    fillMissingOrders: program.fillMissingOrders,
    fillMissingOrdersFor: program.fillMissingOrdersFor,
    needsProgram: turn.needsProgram,
    resolveTurn: turn.resolveTurn,
    newGame: game.newGame,
    randomOrders: simulation.randomOrders,
  }
}

/** The server's fill loop as it was then (services/resolve.ts): one old fill call per robot that must play. */
export function oldFillAll(old: EngineCopy, dealt: GameState): [Record<string, TurnOrders>, GameState] {
  let current = dealt
  const orders: Record<string, TurnOrders> = {}
  for (const robot of current.robots) {
    if (!old.needsProgram(robot)) { orders[robot.player] = { cards: [], rebootNext: false }; continue }
    const [filled, next] = old.fillMissingOrders(current, robot.player)
    orders[robot.player] = filled
    current = next
  }
  return [orders, current]
}
