// A small in-memory cache of rows that are read on nearly every request and change rarely (who
// a session or an API token belongs to), kept exact rather than merely fresh:
// - this process's own writes to those rows call `clear()` (the repository does, in each of its
//   writing methods);
// - any other connection's commit (a second server process, the backup command, a GM fixing
//   something with the sqlite3 shell) changes SQLite's `PRAGMA data_version`, which every lookup
//   checks (read once per synchronous run and shared with the other caches that check it,
//   repositories/data-version.ts): when it moved, everything cached is dropped. So a commit made
//   before a request began is seen by it; one made while a synchronous run is under way cannot be
//   told apart from one made just after, and the next run sees it.
// Only found rows are kept (an unknown key always goes to the database). A row read inside a
// transaction is kept only if this process has not changed those rows in that transaction (no
// `clear()` since it began): then it is committed data, which no rollback can take back; otherwise
// it might be the transaction's own write. The rows are frozen so no caller can change what
// another caller gets, and the least recently used go first past `limit`.
import type { Db } from '../plugins/db.js'
import { lruMap } from '../services/lru.js'
import { dataVersionNow } from './data-version.js'

export interface WatchedCache<V extends object> {
  get(key: string, load: () => V | undefined): V | undefined
  clear(): void
  readonly size: number
}

export function watchedCache<V extends object>(db: Db, limit = 10_000): WatchedCache<V> {
  const entries = lruMap<string, Readonly<V>>(limit)
  let seenVersion = dataVersionNow(db)
  // Whether clear() was called inside the transaction under way. Reset once that transaction is
  // over: by the first look-up outside a transaction, or when the synchronous run ends (a
  // better-sqlite3 transaction function never outlives its run). Busy servers make every look-up
  // inside a transaction (the submission route: services/auth.ts, checkedViewer), so waiting for a
  // look-up outside one would stop the cache from ever keeping a row again.
  let clearedInTransaction = false
  const resetWhenOver = () => { if (!db.inTransaction) clearedInTransaction = false }
  return {
    get(key, load) {
      const inTransaction = db.inTransaction
      if (!inTransaction) clearedInTransaction = false
      const version = dataVersionNow(db)
      if (version !== seenVersion) {
        entries.clear()
        seenVersion = version
      }
      const cached = entries.get(key)
      if (cached) return cached
      const loaded = load()
      if (loaded === undefined || (inTransaction && clearedInTransaction)) return loaded
      const frozen = Object.freeze(loaded)
      entries.set(key, frozen)
      return frozen
    },
    clear() {
      entries.clear()
      if (db.inTransaction) {
        clearedInTransaction = true
        queueMicrotask(resetWhenOver)
      }
    },
    get size() { return entries.size },
  }
}
