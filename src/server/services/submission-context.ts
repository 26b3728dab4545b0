// What a program submission checks before it is stored (the game, the user's seat, the turn, the
// seat's latest version), read inside the submission's write transaction. The first three change
// rarely (a deal, a pause, a lock, a close) while a player may send many versions in a turn, so the
// place is kept in memory and used again while the game's core version has not moved
// (repositories/game-versions.ts: any write to the game's games, seats or turns rows on this
// connection, and any commit by another connection). The latest version changes with every
// submission and is always read: one look in the submissions' unique index.
//
// Exact, also when a transaction rolls back. A place read inside a transaction may include that
// transaction's own earlier writes, which a rollback undoes without moving any version back. So a
// place is kept only once its transaction has committed (`keep`, which keeps nothing while any
// transaction is open: the caller's could be nested in one that still rolls back), stamped with the
// core version read just before the place. Every later write to the game's core rows moves that
// version for good, and a kept place is used only while the version read inside the next
// submission's transaction is still its stamp. (`keep` also skips a place whose version has moved
// already: it could never be used.)
import type { Db } from '../plugins/db.js'
import { gameVersions } from '../repositories/game-versions.js'
import type { SubmissionContext, SubmissionPlace, turnsRepository } from '../repositories/turns.js'
import { lruMap } from './lru.js'

/** Places kept at most (14 values each: about 5 MiB in all, 4.8 MiB measured; docs/performance.md lists it). */
export const KEPT_PLACES = 10_000

export interface SubmissionContextRead {
  context: SubmissionContext
  /** Keeps the place read from the database for later submissions; call once the transaction has committed. Null when it came from memory. */
  keep: (() => void) | null
}

export interface SubmissionContexts {
  /** Inside the write transaction: the context of `user` submitting to `turn` of `game`, or undefined for no such game. */
  read(game: string, user: number, turn: number): SubmissionContextRead | undefined
  /** How many places are kept (for tests and the memory figures). */
  readonly size: number
}

export function submissionContexts(db: Db, turns: Pick<ReturnType<typeof turnsRepository>, 'submissionPlace' | 'latestVersion'>): SubmissionContexts {
  // Made now, outside any transaction: the tracker's TEMP triggers must not be made by a
  // transaction that could roll them back.
  const versions = gameVersions(db)
  const kept = lruMap<string, { version: string; place: Readonly<SubmissionPlace> }>(KEPT_PLACES)

  return {
    read(game, user, turn) {
      if (!db.inTransaction) throw new Error('submissionContexts.read: only inside the submission\'s write transaction')
      // The integers first: a game id may hold any character, so the key cannot be misread.
      const key = `${user}/${turn}/${game}`
      // The version is read before the place, so that a place is never newer than its version.
      const version = versions.core(game)
      const memo = kept.get(key)
      const fromMemory = memo !== undefined && memo.version === version
      const place = fromMemory ? memo.place : turns.submissionPlace(game, user, turn)
      if (place === undefined) return undefined
      const latest = place.turn_id !== null && place.player_id !== null ? turns.latestVersion(place.turn_id, place.player_id) : undefined
      const keep = fromMemory ? null : () => {
        if (!db.inTransaction && versions.core(game) === version) kept.set(key, { version, place: Object.freeze(place) })
      }
      const context: SubmissionContext = {
        ...place,
        previous_version: latest?.version ?? null,
        previous_sacrifice_at: latest?.sacrifice_at ?? null,
        previous_double_wrench: latest?.double_wrench ?? null,
      }
      return { context, keep }
    },
    get size() { return kept.size },
  }
}
