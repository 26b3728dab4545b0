// The game page kept per viewer (issue 17): rendered once for a (game, signed-in person) and sent
// again while no write has touched the game (repositories/game-versions.ts: every row of the game,
// in any table, by this process or any other connection), with the request's own parts filled in
// (the parts compressed once, gzip assembled per request: gzip-parts.ts).
//
// Why that is safe:
// - a kept page is one person's own page, keyed by the game and their user id: it is found only by
//   them, after the session lookup every request makes. Whether they may see the game at all is
//   part of the game's rows (seats, GM), so losing a seat or gaining one moves the version;
// - it is used only while the game's version is the one read before its data was: a submission, a
//   message, a setting, a deadline, a publication, a rollback, a correction, a seat change, the
//   game's end, a rename (the users table moves every version) all make a new rendering;
// - what changes without any write is filled per request, never kept: the person's name and e-mail
//   in the layout (they are in the session's row), the CSRF token of this session, the server's clock,
//   and every "in 2 days" / "5 minutes ago" (slots holding the moment, worked out per request);
// - a page rendered inside a transaction (which may yet roll back) is not kept.
// test/pages/game-page-cache.test.ts tries to break each of these.
//
// Bounded: GAME_PAGES_MAX_BYTES of kept pages (compressed parts, with their objects) and
// GAME_PAGES_MAX_ENTRIES pages per process, least recently used first out.
import { randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { gameVersions } from '../repositories/game-versions.js'
import type { ServiceContext } from '../services/context.js'
import { publishedPagesStore, type CachedPage, type PublishedPages } from '../services/published-pages.js'
import { acceptsGzip, cutAtSlots, gzipOf, plainOf, type DeflatedPart, type Segment } from './gzip-parts.js'
import { keptFormToken } from './kept-form-tokens.js'
import { viewerBytes } from './viewer-bytes.js'
import { formatters, type PageKit } from './kit.js'
import { liveUntil } from './services.js'

/** 16 MiB and 5,000 pages per process: a 4-player game page of ~25 KB of text keeps ~4 KB. */
export const GAME_PAGES_MAX_BYTES = 16 * 1024 * 1024
export const GAME_PAGES_MAX_ENTRIES = 5_000

// Letters and digits only, so EJS's escaping leaves them as they are; new each process.
const MARK = `bwslot${randomBytes(6).toString('hex')}`
/** name, email, csrf, now; or a moment: t<kind><ms>z, kind r ("in 2 days" / "2 days ago"), n (… / "now"), s (… / "soon"). */
const SLOT_PATTERN = new RegExp(`${MARK}(name|email|csrf|now|t[rns]\\d+z)`)
const NOBODY = Object.freeze({ name: `${MARK}name`, email: `${MARK}email` })

/** The clock a kept page is rendered with: every time it would print relative to now becomes a slot. */
export interface PageClock {
  /** "in 2 days" before `ms`, else `past`: 'now' or 'soon'. */
  until(ms: number, past: 'now' | 'soon'): string
  /** "in 2 days" / "2 days ago" (the layout's relative()). */
  relative(t: number | string | null | undefined): string
}

export const liveClock = (now: number): PageClock => ({ until: liveUntil(now), relative: formatters(now).relative })

const slotClock: PageClock = {
  until: (ms, past) => `${MARK}t${past === 'now' ? 'n' : 's'}${ms}z`,
  relative(t) {
    const ms = t === null || t === undefined ? NaN : typeof t === 'number' ? t : Date.parse(t)
    return Number.isNaN(ms) ? '' : `${MARK}tr${ms}z`
  },
}

/** A kept page: its parts compressed once (gzip-parts.ts) and the per-request slots between them. */
interface KeptPage extends CachedPage {
  readonly parts: readonly DeflatedPart[]
  readonly slots: readonly string[]
}

interface Cache {
  pages: PublishedPages
  stats: { hits: number; misses: number }
}
const caches = new WeakMap<ServiceContext['db'], Cache>()

function cacheOf(ctx: Pick<ServiceContext, 'db'>): Cache {
  let cache = caches.get(ctx.db)
  if (!cache) {
    cache = { pages: publishedPagesStore(ctx.db, GAME_PAGES_MAX_BYTES, GAME_PAGES_MAX_ENTRIES), stats: { hits: 0, misses: 0 } }
    caches.set(ctx.db, cache)
  }
  return cache
}

/** For tests and the memory bench: how full the cache is, how often it was used. */
export function gamePageCache(ctx: Pick<ServiceContext, 'db'>) {
  const cache = cacheOf(ctx)
  return { get size() { return cache.pages.size }, get bytes() { return cache.pages.bytes }, stats: cache.stats, clear: () => cache.pages.clear() }
}

/** One slot's text for this request, other than the viewer's own (viewer-bytes.ts) and the form token. */
function slotValue(slot: string, now: number): string {
  if (slot === 'now') return String(now)
  const ms = Number(slot.slice(2, -1))
  const clock = liveClock(now)
  return slot[1] === 'r' ? clock.relative(ms) : clock.until(ms, slot[1] === 'n' ? 'now' : 'soon')
}

export interface KeptGamePage {
  gameId: string
  /** The page's data as the signed-in viewer sees it, times through `clock`; undefined if they are no member (nothing kept or sent). */
  data: (clock: PageClock) => Record<string, unknown> | undefined
}

/**
 * Sends the viewer's game page from the cache, rendering and keeping it first if need be; false
 * (nothing sent) when `data` says the viewer is no member of the game. (Not the reply: a reply is
 * thenable, and an async function would wait for it and hand back undefined.)
 */
export async function sendKeptGamePage(kit: PageKit, request: FastifyRequest, reply: FastifyReply, page: KeptGamePage): Promise<boolean> {
  const user = request.viewer.user!
  const cache = cacheOf(kit.ctx)
  const key = `${page.gameId}/game/${user.id}`
  // Read before the data: a write while the page renders leaves it stale at once.
  const version = gameVersions(kit.ctx.db).current(page.gameId)
  let kept = cache.pages.get(key, version) as KeptPage | undefined
  if (kept) cache.stats.hits++
  else {
    const data = page.data(slotClock)
    if (!data) return false
    cache.stats.misses++
    const html = await kit.html(request, reply, 'game', { ...data, user: NOBODY, csrfToken: `${MARK}csrf`, now: `${MARK}now`, relative: slotClock.relative })
    // No ETag is sent (yet): the hash is not needed.
    kept = { ...cutAtSlots(html, SLOT_PATTERN), fingerprint: version, hash: '' }
    cache.pages.set(key, kept)
  }
  const person = viewerBytes(user)
  const values = new Map<string, Buffer>([['name', person.name], ['email', person.email]])
  if (kept.slots.includes('csrf')) values.set('csrf', keptFormToken(kit.ctx, request, reply))
  const now = kit.ctx.now()
  const segments: Segment[] = [kept.parts[0]!]
  kept.slots.forEach((slot, i) => {
    let value = values.get(slot)
    if (!value) values.set(slot, (value = Buffer.from(slotValue(slot, now))))
    segments.push(value, kept.parts[i + 1]!)
  })
  reply.status(200).header('cache-control', 'no-store').header('vary', 'accept-encoding').type('text/html; charset=utf-8')
  if (acceptsGzip(request)) reply.header('content-encoding', 'gzip').send(gzipOf(segments))
  else reply.send(plainOf(segments))
  return true
}
