// Serving a published turn's page from services/published-pages.ts: rendered once per seat (the
// report puts the viewer's own robot first and marks it; the GM who does not play and spectators
// share the seatless page), then sent to every viewer holding that seat with the page's per-person
// parts filled in: the signed-in person's name and e-mail, their CSRF token, the server's clock,
// and (on members' pages) their messages, rendered per request.
//
// Why that is safe: the cached rendering never sees a real person. It is made from the turn's data
// as the seat sees it (the caller's `data()`, which must read nothing but the seat) and a
// placeholder person whose only fields are the slot markers below, so no viewer's name, e-mail, id,
// token or message can end up in it; test/pages/published-cache.test.ts tries.
import { createHash, randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { lruMap } from '../services/lru.js'
import { memberTurnFacts, publishedPages, type CachedPage, type TurnFacts } from '../services/published-pages.js'
import { acceptsGzip, cutAtSlots, gzipOf, plainOf, type DeflatedPart, type Segment } from './gzip-parts.js'
import { keptFormToken } from './kept-form-tokens.js'
import type { PageKit } from './kit.js'
import type { KeptThread } from './message-threads.js'
import type { UserRow } from '../repositories/users.js'
import { viewerBytes } from './viewer-bytes.js'

const SLOTS = ['name', 'email', 'csrf', 'now', 'messages'] as const
type Slot = (typeof SLOTS)[number]

// Letters and digits only, so EJS's escaping leaves them as they are; new each process.
const MARK = `bwslot${randomBytes(6).toString('hex')}`
const MARKER = Object.fromEntries(SLOTS.map((slot) => [slot, `${MARK}${slot}`])) as Record<Slot, string>
const SLOT_PATTERN = new RegExp(`${MARK}(${SLOTS.join('|')})`)

/** The placeholder person the cached page is rendered for: nothing but markers. */
const NOBODY = Object.freeze({ name: MARKER.name, email: MARKER.email })

/**
 * A kept page holds only its parts compressed once (about a tenth of the text; gzip-parts.ts). A
 * browser that takes gzip (all do) gets them as they are with the viewer's bytes between them;
 * anything else gets them inflated.
 */
export interface CachedPageParts extends CachedPage {
  /** The per-viewer part that goes between part i and part i + 1. */
  readonly slots: readonly Slot[]
  readonly parts: readonly DeflatedPart[]
}

function splitAtSlots(html: string, fingerprint: string): CachedPageParts {
  // What a page costs besides its compressed bytes (the parts' objects, the arrays) is counted against the bound too.
  const { parts, slots, bytes } = cutAtSlots<Slot>(html, SLOT_PATTERN)
  const hash = createHash('sha256').update(html).digest('base64url').slice(0, 22)
  return { fingerprint, slots, parts, hash, bytes }
}

export interface PublishedPageRequest {
  /** Which rendering: the same turn is a different page for members and for spectators. */
  variant: string
  /** From a fresh query; `facts.seat` is the seat the page is rendered for (null: nobody's robot first). */
  facts: TurnFacts
  /** The path the page is at, as the layout prints it. */
  path: string
  view: string
  /** The page's data as the holder of `facts.seat` sees it: it must read nothing else of who asks. */
  data: () => Record<string, unknown>
  /** The viewer's message thread (pages/message-threads.ts), where the page has one. */
  messages?: () => KeptThread
}

const NOTHING = Buffer.alloc(0)

/**
 * The viewer's part of a kept page's ETag: a digest of who they are, their form secret and their
 * thread, not the things themselves (the ETag goes out in the clear). Remembered by what it digests
 * (a SHA-256 per view was a few percent of a kept page's time); at most 20,000, ~250 bytes each.
 */
const viewerTags = lruMap<string, string>(20_000)
function viewerTag(user: UserRow | null, csrfSecret: string, threadHash: string): string {
  // A signed-in viewer's last tag is kept on their user row, as the session cache hands it out (a
  // frozen row, replaced whenever the person changes): the common case, one identity lookup.
  const last = user ? lastTags.get(user) : undefined
  if (last !== undefined && last.csrfSecret === csrfSecret && last.threadHash === threadHash) return last.tag
  const viewer = `${user?.id ?? ''}\n${user?.name ?? ''}\n${user?.email ?? ''}\n${csrfSecret}\n${threadHash}`
  let tag = viewerTags.get(viewer)
  if (tag === undefined) viewerTags.set(viewer, (tag = createHash('sha256').update(viewer).digest('base64url').slice(0, 16)))
  if (user) lastTags.set(user, { csrfSecret, threadHash, tag })
  return tag
}
const lastTags = new WeakMap<UserRow, { csrfSecret: string; threadHash: string; tag: string }>()

/** The form cookie's value (plain or `__Host-` over HTTPS): the secret the page's tokens are made from. */
const csrfSecretOf = (request: FastifyRequest) => request.cookies['__Host-botwars_csrf'] ?? request.cookies['botwars_csrf']

/**
 * Sends a published turn's page from the cache, rendering it first if need be. With an ETag of the
 * page as this viewer gets it (the seat's page, who is signed in, their messages, and their CSRF
 * secret, which the token in their cached copy is valid for): `private, no-cache` lets only the
 * viewer's own browser keep it, and ask again each time, getting a 304 while nothing changed. The
 * ETag is weak: each response carries the server's clock (and a fresh CSRF token where none is kept,
 * kept-form-tokens.ts), so two copies are equivalent, not byte for byte the same.
 */
export async function sendPublishedPage(kit: PageKit, request: FastifyRequest, reply: FastifyReply, page: PublishedPageRequest): Promise<FastifyReply> {
  const store = publishedPages(kit.ctx)
  const user = request.viewer?.user ?? null
  const { facts } = page
  const key = `${facts.gameId}/${facts.turnNumber}/${page.variant}/${facts.seat === null ? '-' : `seat:${facts.seat}`}/${user ? 'signed-in' : 'anonymous'}`
  let cached = store.get(key, facts.fingerprint) as CachedPageParts | undefined
  if (!cached) {
    // `now` is the layout's clock for the browser (data-now): the time of the request, not of the rendering.
    const html = await kit.html(request, reply, page.view, {
      ...page.data(), path: page.path, user: user ? NOBODY : null, csrfToken: MARKER.csrf, now: MARKER.now,
      ...(page.messages ? { messagesSlot: MARKER.messages } : {}),
    })
    cached = splitAtSlots(html, facts.fingerprint)
    store.set(key, cached)
  }
  const thread = page.messages && cached.slots.includes('messages') ? page.messages() : null
  const csrfSecret = csrfSecretOf(request)
  const needsCsrf = cached.slots.includes('csrf')
  const etag = !needsCsrf || csrfSecret ? `W/"${cached.hash}.${viewerTag(user, needsCsrf ? csrfSecret! : '', thread?.hash ?? '')}"` : null
  const gzip = acceptsGzip(request)
  // Each representation has its own ETag: the gzipped page has another.
  const tag = etag && gzip ? `${etag.slice(0, -1)}.gz"` : etag
  reply.header('cache-control', 'private, no-cache').header('vary', 'cookie, accept-encoding')
  if (tag) reply.header('etag', tag)
  if (tag && request.headers['if-none-match'] === tag) return reply.status(304).send()
  const tokenBytes = needsCsrf ? keptFormToken(kit.ctx, request, reply) : NOTHING
  const person = user ? viewerBytes(user) : { name: NOTHING, email: NOTHING }
  const segments: Segment[] = [cached.parts[0]!]
  cached.slots.forEach((slot, i) => {
    if (slot === 'messages') {
      // The kept thread's parts, the viewer's token between them.
      thread?.deflatedParts().forEach((part, k) => (k === 0 ? segments.push(part) : segments.push(tokenBytes, part)))
    } else {
      segments.push(slot === 'csrf' ? tokenBytes : slot === 'now' ? Buffer.from(String(kit.ctx.now())) : person[slot])
    }
    segments.push(cached.parts[i + 1]!)
  })
  reply.type('text/html; charset=utf-8')
  if (gzip) return reply.header('content-encoding', 'gzip').send(gzipOf(segments))
  return reply.send(plainOf(segments))
}

/**
 * The facts of a published turn the signed-in viewer may see as a member (GM or seated), or
 * undefined: then the page's own route decides (sign-in, not found, a draft, an open turn).
 */
export function publishedTurnFacts(kit: PageKit, request: FastifyRequest, gameId: string, number: string): TurnFacts | undefined {
  const viewer = request.viewer
  const n = Number(number)
  if (!viewer?.user || !Number.isInteger(n) || n < 1 || (viewer.tokenGameId && viewer.tokenGameId !== gameId)) return undefined
  const facts = memberTurnFacts(kit.ctx, gameId, n, viewer.user.id)
  return facts && facts.member === 1 && facts.status === 'published' ? facts : undefined
}
