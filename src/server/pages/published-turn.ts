// Serving a published turn's page from services/published-pages.ts: rendered once for a viewer who
// is nobody in particular, then sent to every member (or spectator) with the layout's few
// per-viewer parts filled in: the signed-in person's name and e-mail and their CSRF token.
//
// Why that is safe: the cached rendering never sees a real viewer. It is made from the
// viewer-independent data of the turn (the caller's `data()`, which must not read the viewer) and
// a placeholder person whose only fields are the slot markers below, so no viewer's name, e-mail,
// id, hand or token can end up in it; test/pages/published-cache.test.ts tries.
import { createHash, randomBytes } from 'node:crypto'
import { constants as zlibConstants, crc32, deflateRawSync } from 'node:zlib'
import ejs from 'ejs'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { formTokenOwner } from '../plugins/session.js'
import { memberTurnFacts, publishedPages, type CachedPage, type TurnFacts } from '../services/published-pages.js'
import type { PageKit } from './kit.js'

type Slot = 'name' | 'email' | 'csrf' | 'now'

// Letters and digits only, so EJS's escaping leaves them as they are; new each process.
const MARK = `bwslot${randomBytes(6).toString('hex')}`
const MARKER: Record<Slot, string> = { name: `${MARK}name`, email: `${MARK}email`, csrf: `${MARK}csrf`, now: `${MARK}now` }
const SLOT_PATTERN = new RegExp(`${MARK}(name|email|csrf|now)`)

/** The placeholder person the cached page is rendered for: nothing but markers. */
const NOBODY = Object.freeze({ name: MARKER.name, email: MARKER.email })

export interface CachedPageParts extends CachedPage {
  /** The per-viewer part that goes between parts[i] and parts[i + 1]. */
  readonly slots: readonly Slot[]
  /** Each part compressed once (raw deflate, flushed to a byte boundary): see gzipped(). */
  readonly deflated: readonly Buffer[]
}

const deflatePart = (part: Buffer) => deflateRawSync(part, { level: 9, finishFlush: zlibConstants.Z_SYNC_FLUSH })

function splitAtSlots(html: string, fingerprint: string): CachedPageParts {
  const pieces = html.split(SLOT_PATTERN)
  const parts: Buffer[] = []
  const slots: Slot[] = []
  pieces.forEach((piece, i) => (i % 2 === 0 ? parts.push(Buffer.from(piece)) : slots.push(piece as Slot)))
  const deflated = parts.map(deflatePart)
  const bytes = parts.reduce((n, part) => n + part.length, 0) + deflated.reduce((n, part) => n + part.length, 0)
  const hash = createHash('sha256').update(html).digest('base64url').slice(0, 22)
  return { fingerprint, parts, slots, deflated, hash, bytes }
}

// gzip (RFC 1952) around raw deflate (RFC 1951): no name, no time, unknown OS.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** The last block of a deflate stream: empty, stored, final. */
const FINAL_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff])

/** Stored (uncompressed) deflate blocks holding `data`, at a byte boundary, not final: 65,535 bytes each at most. */
function storedBlocks(data: Buffer): Buffer[] {
  const out: Buffer[] = []
  for (let at = 0; at < data.length; at += 0xffff) {
    const chunk = data.subarray(at, at + 0xffff)
    out.push(Buffer.from([0x00, chunk.length & 0xff, chunk.length >> 8, ~chunk.length & 0xff, (~chunk.length >> 8) & 0xff]), chunk)
  }
  return out
}

/**
 * The page gzipped without compressing it again: every cached part was deflated once and ends
 * flushed to a byte boundary, so the parts and the viewer's few bytes (as stored blocks) follow one
 * another as one valid deflate stream; only the CRC-32 of the whole text is computed per request.
 */
function gzipped(page: CachedPageParts, pieces: readonly Buffer[]): Buffer {
  const out: Buffer[] = [GZIP_HEADER, page.deflated[0]!]
  let crc = crc32(pieces[0]!)
  let size = pieces[0]!.length
  for (let i = 0; i < page.slots.length; i++) {
    const value = pieces[2 * i + 1]!
    out.push(...storedBlocks(value))
    out.push(page.deflated[i + 1]!)
    crc = crc32(value, crc)
    crc = crc32(pieces[2 * i + 2]!, crc)
    size += value.length + pieces[2 * i + 2]!.length
  }
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc >>> 0, 0)
  trailer.writeUInt32LE(size >>> 0, 4)
  out.push(FINAL_BLOCK, trailer)
  return Buffer.concat(out)
}

/** Whether the request's Accept-Encoding takes gzip (and does not refuse it with q=0). */
function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding']
  if (typeof header !== 'string') return false
  return header.split(',').some((item) => {
    const [coding, ...params] = item.trim().toLowerCase().split(';')
    return (coding === 'gzip' || coding === 'x-gzip') && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))
  })
}

export interface PublishedPageRequest {
  /** Which rendering: the same turn is a different page for members and for spectators. */
  variant: string
  facts: TurnFacts
  /** The path the page is at, as the layout prints it. */
  path: string
  view: string
  /** The page's data, the same for every viewer of the published turn: it must not depend on who asks. */
  data: () => Record<string, unknown>
}

/**
 * Sends a published turn's page from the cache, rendering it first if need be. With an ETag of the
 * page as this viewer gets it (the page's hash, who is signed in, and their CSRF secret, which the
 * token in their cached copy is valid for): `private, no-cache` lets only the viewer's own browser
 * keep it, and ask again each time, getting a 304 while nothing changed. The ETag is weak: each
 * response carries a fresh CSRF token and the server's clock, so two copies are equivalent, not
 * byte for byte the same.
 */
export async function sendPublishedPage(kit: PageKit, request: FastifyRequest, reply: FastifyReply, page: PublishedPageRequest): Promise<FastifyReply> {
  const store = publishedPages(kit.ctx)
  const user = request.viewer?.user ?? null
  const key = `${page.facts.gameId}/${page.facts.turnNumber}/${page.variant}/${user ? 'signed-in' : 'anonymous'}`
  let cached = store.get(key, page.facts.fingerprint) as CachedPageParts | undefined
  if (!cached) {
    // `now` is the layout's clock for the browser (data-now): the time of the request, not of the rendering.
    const html = await kit.html(request, reply, page.view, { ...page.data(), path: page.path, user: user ? NOBODY : null, csrfToken: MARKER.csrf, now: MARKER.now })
    cached = splitAtSlots(html, page.facts.fingerprint)
    store.set(key, cached)
  }
  const csrfSecret = request.cookies['botwars_csrf']
  const needsCsrf = cached.slots.includes('csrf')
  const etag = !needsCsrf || csrfSecret
    ? `W/"${cached.hash}.${createHash('sha256').update(`${user?.id ?? ''}\n${user?.name ?? ''}\n${user?.email ?? ''}\n${needsCsrf ? csrfSecret : ''}`).digest('base64url').slice(0, 16)}"`
    : null
  const gzip = acceptsGzip(request)
  // Each representation has its own ETag: the gzipped page has another.
  const tag = etag && gzip ? `${etag.slice(0, -1)}.gz"` : etag
  reply.header('cache-control', 'private, no-cache').header('vary', 'cookie, accept-encoding')
  if (tag) reply.header('etag', tag)
  if (tag && request.headers['if-none-match'] === tag) return reply.status(304).send()
  const values: Record<Slot, Buffer> = {
    name: Buffer.from(ejs.escapeXML(user?.name ?? '')),
    email: Buffer.from(ejs.escapeXML(user?.email ?? '')),
    csrf: needsCsrf ? Buffer.from(ejs.escapeXML(reply.generateCsrf({ userInfo: formTokenOwner(request) }))) : Buffer.alloc(0),
    now: Buffer.from(String(kit.ctx.now())),
  }
  const pieces: Buffer[] = [cached.parts[0]!]
  cached.slots.forEach((slot, i) => pieces.push(values[slot], cached.parts[i + 1]!))
  reply.type('text/html; charset=utf-8')
  if (gzip) return reply.header('content-encoding', 'gzip').send(gzipped(cached, pieces))
  return reply.send(Buffer.concat(pieces))
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
