// Compiled boards, kept so a request does not parse and compile its game's board (the board
// file a game stores never changes once the game is created). A compiled board carries more than
// its squares: the engine's rays and per-board tables (engine/rays.ts, engine/board-tables.ts)
// and the bots' distance fields (bots/distance.ts) hang off it. Measured once turns were played
// on it: 70–190 KB for the boards of boards/, up to about 490 KB (3.4 KB a square) when bots have
// played too (docs/performance.md, "Memory with 10,000 games"). Kept per game without a bound,
// as before, 10,000 games read once each held over a gigabyte.
//
// So boards are kept by their text, and bounded by their squares:
// - games whose stored board file is the same text share one compiled board (most games are
//   played on the boards of boards/);
// - the boards kept hold at most `maxSquares` squares together (BOARD_CACHE_SQUARES), least
//   recently used out first; the board just used is always kept, however large;
// - to skip hashing a board's text on every call, each game remembers its board through a
//   WeakRef (at most BOARD_CACHE_GAMES games), which keeps nothing alive by itself; a board that
//   was let go but is still alive is kept again when its game asks for it (and counted again).
import { compileBoard, parseBoard } from '../../engine/board.js'
import type { Board, BoardDefinition } from '../../engine/types.js'
import { lruMap } from './lru.js'

/** Squares of the compiled boards kept (BOARD_CACHE_SQUARES): about 140 boards of 12×12. */
export const BOARD_CACHE_SQUARES = 20_000
/** Games that remember which kept board is theirs (a WeakRef each, about 100 bytes). */
export const BOARD_CACHE_GAMES = 10_000

export interface BoardCache {
  /** The game's compiled board; `definition` is called only when no board of the same text is kept. */
  get(game: { id: string; board_json: string }, definition: () => BoardDefinition): Board
  /** Compiled boards kept, and their squares together. */
  readonly boards: number
  readonly squares: number
}

export function boardCache(maxSquares = BOARD_CACHE_SQUARES, maxGames = BOARD_CACHE_GAMES): BoardCache {
  const byText = lruMap<string, Board>({ maxEntries: Infinity, maxWeight: maxSquares, weigh: (board) => board.squares.length })
  // Each board's text, the very string that keys it in byText (so finding it again hashes nothing new).
  const textOf = new WeakMap<Board, string>()
  const byGame = lruMap<string, WeakRef<Board>>(maxGames)

  return {
    get(game, definition) {
      const remembered = byGame.get(game.id)?.deref()
      const text = remembered ? textOf.get(remembered)! : game.board_json
      let board = byText.get(text)
      if (!board) {
        // Not kept (never, or let go but still alive through a game's WeakRef): kept again.
        board = remembered ?? compileBoard(definition())
        textOf.set(board, text)
        byText.set(text, board)
      }
      if (!remembered) byGame.set(game.id, new WeakRef(board))
      return board
    },
    get boards() { return byText.size },
    get squares() { return byText.weight },
  }
}

/** A game's stored board file, parsed (it was checked when the game was created). */
export function boardDefinition(game: { id: string; board_json: string }): BoardDefinition {
  const parsed = parseBoard(JSON.parse(game.board_json), [], { stored: true })
  if (!parsed.ok) throw new Error(`game ${game.id} holds a bad board: ${parsed.error}`)
  return parsed.value
}
