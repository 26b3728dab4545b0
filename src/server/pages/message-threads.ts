// A game's message thread as one viewer reads it (views/partials/messages.ejs: the public thread,
// their own private threads, whom they may write to), rendered once and kept until the game's
// messages or the table change. The turn report page and the game page both show it; rendering it
// through EJS on every view was most of a kept report page's cost.
//
// Exact, not merely fresh. A kept thread is used only while
// - the game's messages mark is the one it was rendered at (repositories/message-marks.ts: moved
//   by every write to the messages table in the same call, by a rename, and by any other
//   connection's commit through `PRAGMA data_version`), and
// - the viewer's place at the table is the same: the key holds the viewer's id and the table's
//   shape (the GM, table talk, who sits in which seat under which name: message-marks.ts tableShape()), so a GM
//   who changes, a player who joins or leaves, or table talk switched on make another key.
// The key is the viewer's own (their user id): one viewer's thread, which may hold their private
// messages, is never given to anyone else. The CSRF token of the thread's forms is not kept: the
// caller fills in the viewer's token on each use. A thread with form errors is never kept (the
// caller renders it as before). Threads rendered inside a transaction are not kept (it may roll back).
//
// Bounded: at most MESSAGE_THREADS_MAX_BYTES of kept text and MESSAGE_THREADS_MAX_ENTRIES threads
// per database (one per process in production), least recently used out first.
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ejs from 'ejs'
import type { Db } from '../plugins/db.js'
import { messagesVersion, tableShape } from '../repositories/message-marks.js'
import type { Membership, ServiceContext } from '../services/context.js'
import { messagesFor, messagesMark, messageTargets } from '../services/messages.js'
import { deflateParts, PART_OVERHEAD_BYTES, type DeflatedPart } from './gzip-parts.js'
import { lruMap, type LruMap } from '../services/lru.js'
import { formatters } from './kit.js'

export const MESSAGE_THREADS_MAX_BYTES = 16 * 1024 * 1024
export const MESSAGE_THREADS_MAX_ENTRIES = 10_000

/** Where the thread is shown: its forms post to `${gameBase}/messages` and come back to `back`. */
export interface ThreadPlace { gameBase: string; back: string }

export interface KeptThread {
  /** The thread's HTML with the viewer's CSRF token in its forms. */
  html(csrfToken: string): string
  /** The thread cut where the CSRF token goes: html(t) is parts.join(t). */
  readonly parts: readonly string[]
  /** The parts compressed once (raw deflate, flushed to a byte boundary), made on first use. */
  deflatedParts(): readonly DeflatedPart[]
  /** services/messages.ts messagesMark of the thread: the live pages compare it. */
  readonly mark: string
  /** A hash of the thread's text (token left out), for ETags. */
  readonly hash: string
}

const VIEW = join(fileURLToPath(new URL('../../../views/', import.meta.url)), 'partials', 'messages.ejs')
let template: ejs.TemplateFunction | undefined
// Letters and digits only, so EJS's escaping leaves it as it is; new each process.
const TOKEN_MARK = `bwtoken${randomBytes(6).toString('hex')}`

/** The thread's locals for views/partials/messages.ejs (its CSRF token aside), as services/messages.ts has them. */
export function threadLocals(ctx: ServiceContext, m: Membership, viewerId: number, place: ThreadPlace) {
  const messages = messagesFor(ctx, m, viewerId)
  return { messages, messagesMark: messagesMark(messages), messageTargets: messageTargets(m, viewerId), isGm: m.isGm, ...place }
}

function render(ctx: ServiceContext, m: Membership, viewerId: number, place: ThreadPlace): KeptThread {
  template ??= ejs.compile(readFileSync(VIEW, 'utf8'), { filename: VIEW, cache: true })
  const locals = threadLocals(ctx, m, viewerId, place)
  const text = template({ ...formatters(ctx.now()), ...locals, csrfToken: TOKEN_MARK })
  const parts = text.split(TOKEN_MARK)
  let deflated: DeflatedPart[] | undefined
  return {
    parts,
    html: (csrfToken) => parts.join(ejs.escapeXML(csrfToken)),
    deflatedParts: () => (deflated ??= deflateParts(parts.map((part) => Buffer.from(part)))),
    mark: locals.messagesMark,
    hash: createHash('sha256').update(text).digest('base64url').slice(0, 16),
  }
}

interface Entry { stamp: string; thread: KeptThread; bytes: number }

interface Store { entries: LruMap<string, Entry>; maxBytes: number }

const stores = new WeakMap<Db, Store>()

function newStore(maxBytes: number, maxEntries: number): Store {
  return { entries: lruMap<string, Entry>({ maxEntries, maxWeight: maxBytes, weigh: (entry) => entry.bytes }), maxBytes }
}

function storeOf(db: Db): Store {
  let store = stores.get(db)
  if (!store) {
    store = newStore(MESSAGE_THREADS_MAX_BYTES, MESSAGE_THREADS_MAX_ENTRIES)
    stores.set(db, store)
  }
  return store
}

/** Who reads, where, and the table's shape as the caller read it (repositories/message-marks.ts: tableShape or TABLE_SHAPE_SQL). */
export interface ThreadOwner extends ThreadPlace { gameId: string; viewerId: number; shape: string }

/**
 * The viewer's thread, from the store while it is still exact, else rendered from `load()` (the
 * membership of the same viewer in the same game, read now) and kept.
 */
export function keptThread(ctx: ServiceContext, owner: ThreadOwner, load: () => Membership): KeptThread {
  const store = storeOf(ctx.db)
  const key = `${owner.gameId}\n${owner.viewerId}\n${owner.gameBase}\n${owner.back}`
  const stamp = `${messagesVersion(ctx.db, owner.gameId)}\n${owner.shape}`
  const entry = store.entries.get(key)
  if (entry?.stamp === stamp) return entry.thread
  if (entry) store.entries.delete(key)
  const m = load()
  if (m.game.id !== owner.gameId) throw new Error('a thread loaded for another game')
  const thread = render(ctx, m, owner.viewerId, owner)
  // Text (two bytes a character at most in V8), its compressed copy when made, the objects.
  const bytes = 3 * thread.parts.reduce((n, p) => n + p.length, 0) + PART_OVERHEAD_BYTES * thread.parts.length + 500
  if (!ctx.db.inTransaction && bytes <= store.maxBytes) store.entries.set(key, { stamp, thread, bytes })
  return thread
}

/** The viewer's thread in a game whose membership the caller already read. */
export function messageThread(ctx: ServiceContext, m: Membership, viewerId: number, place: ThreadPlace): KeptThread {
  return keptThread(ctx, { gameId: m.game.id, viewerId, shape: tableShape(m), ...place }, () => m)
}

/** How many threads and bytes are kept (for the memory bench and tests). */
export function keptThreads(db: Db): { size: number; bytes: number } {
  const { entries } = storeOf(db)
  return { size: entries.size, bytes: entries.weight }
}

/** Forgets every kept thread of this database (tests and the memory bench). */
export function forgetThreads(db: Db): void {
  storeOf(db).entries.clear()
}

/** Test and bench hook: smaller bounds for this database's store. */
export function boundThreads(db: Db, maxBytes: number, maxEntries: number): void {
  stores.set(db, newStore(maxBytes, maxEntries))
}
