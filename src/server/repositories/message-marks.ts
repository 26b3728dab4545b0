// Which games' messages changed, kept in memory so that a page can tell in microseconds whether a
// thread it rendered earlier is still the thread (pages/message-threads.ts keeps them).
//
// Exact, not merely fresh: every write to the messages table goes through repositories/messages.ts,
// which calls touchMessages(db, gameId) in the same synchronous call as the write; a rename (the
// name a former player's messages show) touches every game; and any other connection's commit (a
// second server process, the sqlite3 shell) moves `PRAGMA data_version`, read on every look-up:
// then every game counts as changed. A touch inside a transaction that rolls back only costs a
// rendering.
import type { Db } from '../plugins/db.js'
import { dataVersionNow } from './data-version.js'
import type { GameRow, SeatRow } from './games.js'

interface Marks {
  dataVersion: () => number
  seenVersion: number
  /** Moves when everything counts as changed (another connection's commit, a rename). */
  epoch: number
  games: Map<string, number>
}

/** Games with a mark of their own at most (about 100 bytes each). */
export const MAX_MARKED = 10_000

const marksOf = new WeakMap<Db, Marks>()

function marks(db: Db): Marks {
  let m = marksOf.get(db)
  if (!m) {
    const dataVersion = () => dataVersionNow(db)
    m = { dataVersion, seenVersion: dataVersion(), epoch: 0, games: new Map() }
    marksOf.set(db, m)
  }
  return m
}

/** The messages of `gameId` changed (or, without a game, anything a thread shows may have). */
export function touchMessages(db: Db, gameId?: string): void {
  const m = marks(db)
  if (gameId === undefined) {
    m.epoch++
    m.games.clear()
  } else {
    // Bounded: past MAX_MARKED games with a mark of their own, every game counts as changed once
    // (a new epoch: exact, it only costs renderings).
    if (m.games.size >= MAX_MARKED && !m.games.has(gameId)) {
      m.epoch++
      m.games.clear()
    }
    m.games.set(gameId, (m.games.get(gameId) ?? 0) + 1)
  }
}

/** A mark of the game's messages that changes whenever they may have: compare, never show. */
export function messagesVersion(db: Db, gameId: string): string {
  const m = marks(db)
  const version = m.dataVersion()
  if (version !== m.seenVersion) {
    m.seenVersion = version
    touchMessages(db)
  }
  return `${m.epoch}.${m.games.get(gameId) ?? 0}`
}

/**
 * Everything of the table a viewer's thread depends on besides the messages: the GM (their id is
 * the GM's label and decides who reads all), table talk (whom players may write to), and each
 * seat's holder and name (names in the thread, targets of the form). Compare, never show.
 */
export function tableShape(m: { game: Pick<GameRow, 'gm_user_id' | 'table_talk'>; seats: readonly SeatRow[] }): string {
  return JSON.stringify([m.game.gm_user_id, m.game.table_talk, m.seats.map((s) => [s.user_id, s.player_id, s.name])])
}

/**
 * The same shape read in SQL, as one column of a query over `games g` (pages/turns.ts's report
 * facts): what tableShape(membershipOf(g)) would say, in another spelling (the two never share a key).
 */
export const TABLE_SHAPE_SQL = `'sql:' || g.gm_user_id || ':' || g.table_talk || ':' || coalesce((SELECT group_concat(seat, '|') FROM (SELECT
    coalesce(user_id, '') || '=' || player_id || '=' || coalesce(hex(name), '') AS seat FROM seats WHERE game_id = g.id ORDER BY seat_no)), '')`
