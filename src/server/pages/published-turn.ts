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
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { constants as zlibConstants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib'
import ejs from 'ejs'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { formTokenOwner } from '../plugins/session.js'
import { memberTurnFacts, publishedPages, type CachedPage, type TurnFacts } from '../services/published-pages.js'
import { formatters, type PageKit } from './kit.js'

const SLOTS = ['name', 'email', 'csrf', 'now', 'messages'] as const
type Slot = (typeof SLOTS)[number]

// Letters and digits only, so EJS's escaping leaves them as they are; new each process.
const MARK = `bwslot${randomBytes(6).toString('hex')}`
const MARKER = Object.fromEntries(SLOTS.map((slot) => [slot, `${MARK}${slot}`])) as Record<Slot, string>
const SLOT_PATTERN = new RegExp(`${MARK}(${SLOTS.join('|')})`)

/** The placeholder person the cached page is rendered for: nothing but markers. */
const NOBODY = Object.freeze({ name: MARKER.name, email: MARKER.email })

/**
 * A kept page holds only its parts compressed (about a tenth of the text), with what the gzip
 * trailer needs of each: its length and CRC-32. A browser that takes gzip (all do) gets the parts
 * as they are; anything else gets them inflated.
 */
export interface CachedPageParts extends CachedPage {
  /** The per-viewer part that goes between part i and part i + 1. */
  readonly slots: readonly Slot[]
  /** Each part compressed once (raw deflate, flushed to a byte boundary): see gzipped(). */
  readonly deflated: readonly Buffer[]
  /** Each part's length, CRC-32, and the CRC-32 of as many zero bytes (see crcAfter()). */
  readonly lengths: readonly number[]
  readonly crcs: readonly number[]
  readonly zeroCrcs: readonly number[]
}

const deflatePart = (part: Buffer) => deflateRawSync(part, { level: 6, finishFlush: zlibConstants.Z_SYNC_FLUSH })
const inflatePart = (part: Buffer) => inflateRawSync(part, { finishFlush: zlibConstants.Z_SYNC_FLUSH })

// Zero bytes to run the CRC over (grown to the longest part seen; never written).
let zeros = Buffer.alloc(64 * 1024)
const zeroBytes = (n: number) => {
  if (n > zeros.length) zeros = Buffer.alloc(n)
  return zeros.subarray(0, n)
}

/**
 * The CRC-32 of text whose CRC so far is `crc`, followed by a part of `length` bytes whose own CRC is
 * `partCrc`, without the part's bytes. CRC-32 is affine in its register and its data: for data B of
 * n bytes, crc32(B, c) = crc32(0ⁿ, c) ⊕ crc32(B, 0) ⊕ crc32(0ⁿ, 0) (the last is kept per part).
 */
function crcAfter(crc: number, length: number, partCrc: number, zeroCrc: number): number {
  return (crc32(zeroBytes(length), crc) ^ partCrc ^ zeroCrc) >>> 0
}

function splitAtSlots(html: string, fingerprint: string): CachedPageParts {
  const pieces = html.split(SLOT_PATTERN)
  const parts: Buffer[] = []
  const slots: Slot[] = []
  pieces.forEach((piece, i) => (i % 2 === 0 ? parts.push(Buffer.from(piece)) : slots.push(piece as Slot)))
  // zlib hands back each part as a view of a 16 KiB (or larger) chunk: kept as it is, a page of a
  // few kilobytes held ~130 KB. Copied into one buffer of the exact size, the page holds its bytes.
  const compressed = parts.map(deflatePart)
  const packed = Buffer.concat(compressed)
  let at = 0
  const deflated = compressed.map((part) => packed.subarray(at, (at += part.length)))
  // What a page costs besides its bytes (the Buffers' own objects, the arrays): counted against the bound too.
  const bytes = packed.length + 200 * parts.length + 400
  const hash = createHash('sha256').update(html).digest('base64url').slice(0, 22)
  return {
    fingerprint, slots, deflated, hash, bytes,
    lengths: parts.map((part) => part.length),
    crcs: parts.map((part) => crc32(part)),
    zeroCrcs: parts.map((part) => crc32(zeroBytes(part.length))),
  }
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
 * The page gzipped without compressing it again: every kept part was deflated once and ends
 * flushed to a byte boundary, so the parts and the viewer's few bytes (as stored blocks) follow one
 * another as one valid deflate stream; the CRC-32 of the whole text comes from the parts' own.
 */
function gzipped(page: CachedPageParts, values: readonly Buffer[]): Buffer {
  const out: Buffer[] = [GZIP_HEADER, page.deflated[0]!]
  let crc = page.crcs[0]!
  let size = page.lengths[0]!
  values.forEach((value, i) => {
    // The viewer's few bytes as they are; a thread of messages is worth compressing (quickly).
    out.push(...(value.length > 1024 ? [deflateRawSync(value, { level: 1, finishFlush: zlibConstants.Z_SYNC_FLUSH })] : storedBlocks(value)))
    out.push(page.deflated[i + 1]!)
    crc = crcAfter(crc32(value, crc), page.lengths[i + 1]!, page.crcs[i + 1]!, page.zeroCrcs[i + 1]!)
    size += value.length + page.lengths[i + 1]!
  })
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc >>> 0, 0)
  trailer.writeUInt32LE(size >>> 0, 4)
  out.push(FINAL_BLOCK, trailer)
  return Buffer.concat(out)
}

/** The page as text, for the rare client that takes no gzip. */
function plain(page: CachedPageParts, values: readonly Buffer[]): Buffer {
  const out: Buffer[] = [inflatePart(page.deflated[0]!)]
  values.forEach((value, i) => out.push(value, inflatePart(page.deflated[i + 1]!)))
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
  /** From a fresh query; `facts.seat` is the seat the page is rendered for (null: nobody's robot first). */
  facts: TurnFacts
  /** The path the page is at, as the layout prints it. */
  path: string
  view: string
  /** The page's data as the holder of `facts.seat` sees it: it must read nothing else of who asks. */
  data: () => Record<string, unknown>
  /** The viewer's messages (views/partials/messages.ejs locals but the CSRF token), where the page has them. */
  messages?: () => Record<string, unknown>
}

// The messages partial, rendered per request with the layout's helpers (EJS keeps it compiled).
const MESSAGES_VIEW = join(fileURLToPath(new URL('../../../views/', import.meta.url)), 'partials', 'messages.ejs')

let messagesTemplate: ejs.TemplateFunction | undefined

function renderMessages(kit: PageKit, locals: Record<string, unknown>): string {
  messagesTemplate ??= ejs.compile(readFileSync(MESSAGES_VIEW, 'utf8'), { filename: MESSAGES_VIEW, cache: true })
  return messagesTemplate({ ...formatters(kit.ctx.now()), ...locals, csrfToken: MARKER.csrf })
}

/** The form cookie's value (plain or `__Host-` over HTTPS): the secret the page's tokens are made from. */
const csrfSecretOf = (request: FastifyRequest) => request.cookies['__Host-botwars_csrf'] ?? request.cookies['botwars_csrf']

/**
 * Sends a published turn's page from the cache, rendering it first if need be. With an ETag of the
 * page as this viewer gets it (the seat's page, who is signed in, their messages, and their CSRF
 * secret, which the token in their cached copy is valid for): `private, no-cache` lets only the
 * viewer's own browser keep it, and ask again each time, getting a 304 while nothing changed. The
 * ETag is weak: each response carries a fresh CSRF token and the server's clock, so two copies are
 * equivalent, not byte for byte the same.
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
  // Rendered with the token's marker, so that it can take part in the ETag.
  const messages = page.messages && cached.slots.includes('messages') ? renderMessages(kit, page.messages()) : ''
  const csrfSecret = csrfSecretOf(request)
  const needsCsrf = cached.slots.includes('csrf')
  const etag = !needsCsrf || csrfSecret
    ? `W/"${cached.hash}.${createHash('sha256').update(`${user?.id ?? ''}\n${user?.name ?? ''}\n${user?.email ?? ''}\n${needsCsrf ? csrfSecret : ''}\n${messages}`).digest('base64url').slice(0, 16)}"`
    : null
  const gzip = acceptsGzip(request)
  // Each representation has its own ETag: the gzipped page has another.
  const tag = etag && gzip ? `${etag.slice(0, -1)}.gz"` : etag
  reply.header('cache-control', 'private, no-cache').header('vary', 'cookie, accept-encoding')
  if (tag) reply.header('etag', tag)
  if (tag && request.headers['if-none-match'] === tag) return reply.status(304).send()
  const token = needsCsrf ? ejs.escapeXML(reply.generateCsrf({ userInfo: formTokenOwner(request) })) : ''
  const values: Record<Slot, Buffer> = {
    name: Buffer.from(ejs.escapeXML(user?.name ?? '')),
    email: Buffer.from(ejs.escapeXML(user?.email ?? '')),
    csrf: Buffer.from(token),
    now: Buffer.from(String(kit.ctx.now())),
    messages: Buffer.from(messages.replaceAll(MARKER.csrf, token)),
  }
  const filled = cached.slots.map((slot) => values[slot])
  reply.type('text/html; charset=utf-8')
  if (gzip) return reply.header('content-encoding', 'gzip').send(gzipped(cached, filled))
  return reply.send(plain(cached, filled))
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
