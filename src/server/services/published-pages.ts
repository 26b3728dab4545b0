// Rendered pages of published turns, kept in memory: a published turn does not change (until a
// GM's correction or a rollback), so its report is rendered once and served like a file.
//
// What is kept is what every holder of one seat (or of none: the GM who does not play, a spectator)
// sees alike: the report puts the viewer's own robot first and marks it (issue 13), so a page is
// kept per turn, per revision and per seat. It is rendered with placeholders where the layout
// names the signed-in person and holds their CSRF token and where the page shows the viewer's
// messages; those are filled per request (pages/published-turn.ts). Nothing that belongs to one
// person (a name, an address, a token, a private message) is ever stored here.
//
// Exact, not merely fresh:
// - every entry remembers the facts it was rendered from (the turn row's id, status and time of
//   publication, its published neighbours, the game's seats and the newest program version) and is
//   used only while one small query still finds those same facts;
// - a rollback or a new publication calls invalidatePublishedTurn(gameId, turn)
//   (services/published-turns.ts), which drops the turn's pages in every store of the process;
// - another connection's commit (a second server process, the sqlite3 shell) moves
//   `PRAGMA data_version`: then everything is dropped.
// Bounded: at most `maxBytes` of kept pages (compressed, with their objects) and `maxEntries`
// pages; the least recently used go first.
import type { Db } from '../plugins/db.js'
import { dataVersionNow } from '../repositories/data-version.js'
import { gameVersions } from '../repositories/game-versions.js'
import { TABLE_SHAPE_SQL } from '../repositories/message-marks.js'
import type { ServiceContext } from './context.js'
import { lruMap } from './lru.js'

/**
 * 32 MiB and 10,000 pages at most, per database (one per process in production). A page is kept
 * compressed: a 4-player report of about 50 KB of text takes about 6 KB.
 */
export const PUBLISHED_PAGES_MAX_BYTES = 32 * 1024 * 1024
export const PUBLISHED_PAGES_MAX_ENTRIES = 10_000
/** (turn, viewer) facts remembered at most: each under 1 KB (its key and two short strings: seats and table), so under ~10 MB. */
export const FACTS_MAX_ENTRIES = 10_000

export interface CachedPage {
  /** The facts the page was rendered from; compared with the database's on every use. */
  readonly fingerprint: string
  /** A hash of the viewer-independent text, for the ETag. */
  readonly hash: string
  /** What the page holds in memory (its compressed parts and their objects: pages/published-turn.ts). */
  readonly bytes: number
}

export interface PublishedPages {
  get(key: string, fingerprint: string): CachedPage | undefined
  set(key: string, page: CachedPage): void
  /** Drops every page of the turn (member and spectator, every variant). */
  invalidateTurn(gameId: string, turn: number): void
  invalidateGame(gameId: string): void
  clear(): void
  readonly size: number
  readonly bytes: number
}

/** Keys start with `${gameId}/${turn}/`, so a turn's pages can be found for invalidation. */
export function pageKey(gameId: string, turn: number, variant: string): string {
  return `${gameId}/${turn}/${variant}`
}

// Every store of the process, so that invalidatePublishedTurn, which is called without a database,
// reaches them all (tests open many; a game id is unique, so another database loses nothing).
const liveStores = new Set<WeakRef<PublishedPages>>()

/** Drops turn `turn` of game `gameId` from every store of the process. */
export function forgetPublishedTurn(gameId: string, turn: number): void {
  for (const ref of liveStores) {
    const store = ref.deref()
    if (store) store.invalidateTurn(gameId, turn)
    else liveStores.delete(ref)
  }
}

export function publishedPagesStore(db: Db, maxBytes = PUBLISHED_PAGES_MAX_BYTES, maxEntries = PUBLISHED_PAGES_MAX_ENTRIES): PublishedPages {
  const dataVersion = { get: () => dataVersionNow(db) }
  let seenVersion = dataVersion.get()
  const entries = lruMap<string, CachedPage>({ maxEntries, maxWeight: maxBytes, weigh: (page) => page.bytes })
  const dropWhere = (prefix: string) => entries.deleteWhere((key) => key.startsWith(prefix))
  const clear = () => entries.clear()

  const store: PublishedPages = {
    get(key, fingerprint) {
      const version = dataVersion.get()
      if (version !== seenVersion) {
        clear()
        seenVersion = version
      }
      const page = entries.get(key)
      if (!page) return undefined
      if (page.fingerprint !== fingerprint) {
        entries.delete(key)
        return undefined
      }
      return page
    },
    set(key, page) {
      // Rendered inside a transaction that may yet roll back: not kept.
      if (db.inTransaction || page.bytes > maxBytes) return
      entries.set(key, page)
    },
    invalidateTurn: (gameId, turn) => dropWhere(`${gameId}/${turn}/`),
    invalidateGame: (gameId) => dropWhere(`${gameId}/`),
    clear,
    get size() { return entries.size },
    get bytes() { return entries.weight },
  }
  liveStores.add(new WeakRef(store))
  return store
}

/** What a published turn's pages are rendered from, read in one indexed query per request. */
export interface TurnFacts {
  gameId: string
  turnNumber: number
  status: string
  /** Whether the viewer is the game's GM or holds one of its seats (always 1 for spectators). */
  member: 0 | 1
  /** The viewer's own seat (its player id), whose robot the report puts first; null for the GM who does not play and for spectators. */
  seat: string | null
  /** Everything else the page shows besides the turn's stored result: changes mean a new rendering. */
  fingerprint: string
  /** The table as the viewer's message thread depends on it (repositories/message-marks.ts); '' for spectators, who have none. */
  tableShape: string
}

// The game's name, the turn's row (id, status, revision, time of publication: the revision moves
// with every change of status or result, so a rollback and a new publication are always seen), the
// published turns either side of it (the page links them), the seats (names and colours in the
// tables), the newest program version of the turn (the programs table) and its newest correction.
const FACTS = `t.id || ':' || t.status || ':' || t.revision || ':' || coalesce(t.published_at, '') || ':' || g.name
  || ':' || coalesce((SELECT max(number) FROM turns p WHERE p.game_id = g.id AND p.status = 'published' AND p.number < t.number), '')
  || ':' || coalesce((SELECT min(number) FROM turns p WHERE p.game_id = g.id AND p.status = 'published' AND p.number > t.number), '')
  || ':' || coalesce((SELECT max(id) FROM submissions WHERE turn_id = t.id), '')
  || ':' || coalesce((SELECT max(id) FROM corrections WHERE turn_id = t.id), '')
  || ':' || coalesce((SELECT group_concat(seat, '|') FROM (SELECT seat_no || '=' || player_id || '=' || coalesce(name, '') || '=' || coalesce(colour, '') AS seat
       FROM seats WHERE game_id = g.id ORDER BY seat_no)), '')`

interface Store {
  pages: PublishedPages
  memberFacts: (gameId: string, number: number, userId: number) => TurnFacts | undefined
  spectatorFacts: (publicToken: string, number: number) => TurnFacts | undefined
}

const stores = new WeakMap<Db, Store>()

function storeOf(db: Db): Store {
  let store = stores.get(db)
  if (!store) {
    // Member as services/membership.ts has it: the GM, or the first seat held by the user.
    const member = db.prepare<[number, number, number, string], Omit<TurnFacts, 'member'> & { gm: 0 | 1 }>(`SELECT g.id AS gameId, t.number AS turnNumber,
        t.status AS status, (SELECT player_id FROM seats s WHERE s.game_id = g.id AND s.user_id = ? ORDER BY seat_no LIMIT 1) AS seat, g.gm_user_id = ? AS gm, ${FACTS} AS fingerprint, ${TABLE_SHAPE_SQL} AS tableShape
      FROM games g JOIN turns t ON t.game_id = g.id AND t.number = ? WHERE g.id = ?`)
    const spectator = db.prepare<[number, string], TurnFacts>(`SELECT g.id AS gameId, t.number AS turnNumber, t.status AS status, 1 AS member, NULL AS seat, ${FACTS} AS fingerprint, '' AS tableShape
      FROM games g JOIN turns t ON t.game_id = g.id AND t.number = ? WHERE g.public_token = ?`)
    // The facts of each (turn, viewer) asked for lately, used again while no write has touched
    // the game since (repositories/game-versions.ts: every write to the game's rows on this
    // connection, and any other connection's commit): a kept page then costs no SQL at all.
    const versions = gameVersions(db)
    const memo = lruMap<string, { stamp: string; facts: TurnFacts }>(FACTS_MAX_ENTRIES)
    const remembered = (key: string, gameIdOf: (facts: TurnFacts) => string, read: () => TurnFacts | undefined) => {
      const kept = memo.get(key)
      if (kept && kept.stamp === versions.current(gameIdOf(kept.facts))) return kept.facts
      if (kept) memo.delete(key)
      const facts = read()
      // The version is read after the query, with nothing in between (synchronous): it is the facts' own.
      if (!facts || db.inTransaction) return facts
      memo.set(key, { stamp: versions.current(facts.gameId), facts: Object.freeze(facts) })
      return facts
    }
    store = {
      pages: publishedPagesStore(db),
      memberFacts: (gameId, number, userId) => remembered(`${gameId}/${number}/${userId}`, (facts) => facts.gameId, () => {
        const row = member.get(userId, userId, number, gameId)
        if (!row) return undefined
        const { gm, ...facts } = row
        return { ...facts, member: gm === 1 || facts.seat !== null ? 1 : 0 }
      }),
      spectatorFacts: (publicToken, number) => remembered(`watch:${publicToken}/${number}`, (facts) => facts.gameId, () => spectator.get(number, publicToken)),
    }
    stores.set(db, store)
  }
  return store
}

/** The process's store of published pages for this database. */
export function publishedPages(ctx: Pick<ServiceContext, 'db'>): PublishedPages {
  return storeOf(ctx.db).pages
}

/** The facts of turn `number` of a game as a signed-in person sees it; undefined when there is no such turn. */
export function memberTurnFacts(ctx: Pick<ServiceContext, 'db'>, gameId: string, number: number, userId: number): TurnFacts | undefined {
  return storeOf(ctx.db).memberFacts(gameId, number, userId)
}

/** The same through a game's public link. */
export function spectatorTurnFacts(ctx: Pick<ServiceContext, 'db'>, publicToken: string, number: number): TurnFacts | undefined {
  return storeOf(ctx.db).spectatorFacts(publicToken, number)
}
