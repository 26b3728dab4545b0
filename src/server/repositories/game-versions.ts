// A version of each game that moves with every write to any of its rows, for caches that must be
// exact rather than merely fresh (the game page: pages/game-page-cache.ts), read without SQL.
//
// How every write is seen, whoever makes it:
// - this connection: TEMP triggers (they live only in this connection, so no migration and nothing
//   in the database file) on every table of the schema, made from the schema itself when the
//   tracker is first asked for, call a JavaScript function inside the writing statement: a row with a
//   `game_id` (or a `turn_id`, or the games row itself) moves its game's version; a write to any
//   other table moves every game's (a table added later is covered the same way, by default);
// - any other connection (a second server process, the sqlite3 shell, the backup command): its
//   commit moves SQLite's `PRAGMA data_version`, which `current()` reads (data-version.ts: once per
//   synchronous run, shared with the other caches); then every game's moves.
// Only tables that no cached view reads are left out (IGNORED, each with why).
// Each game also has a core version, which moves only with writes to its own rows of games, seats
// and turns (and with everything else that moves all games): the checks of a program submission
// read nothing else, and every submission writes a submissions row, which moves the game's version.
// A version that moved for a write later rolled back only costs a rendering; the version is read
// before a view's data is, so a write during an asynchronous rendering makes that rendering stale.
import type { Db } from '../plugins/db.js'
import { dataVersionNow } from './data-version.js'

/** Tables no game view shows, so their writes (frequent, some of them) move no version. */
const IGNORED: Record<string, string> = {
  sessions: 'read per request before any cache, by the session lookup',
  login_tokens: 'sign-in links',
  api_tokens: 'checked per request before any cache',
  outbox: 'mail waiting or sent (the mail worker writes it all the time)',
  mail_digest: 'mail', mail_preferences: 'mail', message_mail_pending: 'mail', message_mail_sent: 'mail',
  reply_tokens: 'program-by-mail tokens', inbound_messages: 'inbound mail log', imap_state: 'inbound mail position',
  webhook_deliveries: 'webhook queue', schema_migrations: 'applied at start', server_keys: 'secrets, never shown',
  missed_program_fallbacks: 'the missed-program bot\'s programs planned ahead (migration 050): read by the close only, never shown',
}

export interface GameVersions {
  /** The game's version now: equal strings mean no write touched the game in between. */
  current(gameId: string): string
  /** The game's core version now: equal strings mean no write touched its games, seats or turns rows in between. */
  core(gameId: string): string
  /** How many games have a version of their own (the rest share the start value). */
  readonly size: number
}

/** The tables whose writes move a game's core version as well (see the top of the file). */
const CORE_TABLES: ReadonlySet<string> = new Set(['games', 'seats', 'turns'])

/** Past this many games with their own version, all start again from a new generation (bounds the map). */
const MAX_TRACKED = 100_000

const trackers = new WeakMap<Db, GameVersions>()

export function gameVersions(db: Db): GameVersions {
  let tracker = trackers.get(db)
  if (!tracker) {
    tracker = track(db)
    trackers.set(db, tracker)
  }
  return tracker
}

function track(db: Db): GameVersions {
  const versions = new Map<string, number>()
  const coreVersions = new Map<string, number>()
  let generation = 0
  let tick = 0
  const gameChanged = (gameId: unknown) => {
    if (typeof gameId !== 'string') return null
    if (versions.size >= MAX_TRACKED) everythingChanged()
    versions.set(gameId, ++tick)
    return null
  }
  const gameCoreChanged = (gameId: unknown) => {
    if (typeof gameId !== 'string') return null
    gameChanged(gameId)
    coreVersions.set(gameId, tick)
    return null
  }
  const everythingChanged = () => {
    generation++
    versions.clear()
    coreVersions.clear()
    return null
  }
  db.function('botwars_game_changed', { deterministic: false, directOnly: false }, gameChanged)
  db.function('botwars_game_core_changed', { deterministic: false, directOnly: false }, gameCoreChanged)
  db.function('botwars_all_changed', { deterministic: false, directOnly: false }, everythingChanged)
  const tables = db.prepare<[], string>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck().all()
  for (const table of tables) {
    if (Object.hasOwn(IGNORED, table)) continue
    const columns = new Set(db.prepare<[], string>(`SELECT name FROM pragma_table_info('${table.replaceAll("'", "''")}')`).pluck().all())
    const gameOf = (row: 'NEW' | 'OLD') =>
      table === 'games' ? `${row}.id` : columns.has('game_id') ? `${row}.game_id` : columns.has('turn_id') ? `(SELECT game_id FROM turns WHERE id = ${row}.turn_id)` : null
    for (const op of ['INSERT', 'UPDATE', 'DELETE'] as const) {
      const rows = op === 'INSERT' ? ['NEW' as const] : op === 'DELETE' ? ['OLD' as const] : ['OLD' as const, 'NEW' as const]
      const changed = CORE_TABLES.has(table) ? 'botwars_game_core_changed' : 'botwars_game_changed'
      const body = gameOf('NEW') === null ? 'SELECT botwars_all_changed();' : rows.map((row) => `SELECT ${changed}(${gameOf(row)});`).join(' ')
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS "botwars_version_${table}_${op.toLowerCase()}" AFTER ${op} ON main."${table}" BEGIN ${body} END`)
    }
  }
  let seenDataVersion = dataVersionNow(db)
  /** Another connection's commit moves every game's versions. */
  const seeOtherConnections = () => {
    const now = dataVersionNow(db)
    if (now !== seenDataVersion) {
      seenDataVersion = now
      everythingChanged()
    }
  }
  return {
    current(gameId) {
      seeOtherConnections()
      return `${generation}.${versions.get(gameId) ?? 0}`
    },
    core(gameId) {
      seeOtherConnections()
      return `${generation}.${coreVersions.get(gameId) ?? 0}`
    },
    get size() { return versions.size },
  }
}
