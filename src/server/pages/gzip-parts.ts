// A gzip response assembled from text compressed once and a few bytes that differ per request,
// without compressing anything again: each kept part is raw deflate flushed to a byte boundary
// (Z_SYNC_FLUSH), so kept parts and stored blocks of the per-request bytes follow one another as
// one valid deflate stream (RFC 1951), wrapped in a gzip header and trailer (RFC 1952).
//
// The trailer's CRC-32 of the whole text comes from each part's own CRC: CRC-32 is affine, so the
// CRC of "text so far, then part P of n bytes" is (crc so far)·x^(8n) ⊕ crc(P), a product of
// polynomials modulo the CRC's own (as zlib's crc32_combine_op has it). x^(8n) mod P is one 32-bit
// word worked out once per part; the product is 32 steps per request, instead of running the CRC
// over n bytes each time.
import { constants as zlibConstants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib'
import type { FastifyRequest } from 'fastify'

export interface DeflatedPart {
  /** The part as raw deflate, flushed to a byte boundary, not final. */
  readonly deflated: Buffer
  /** Its length as text, and its CRC-32. */
  readonly length: number
  readonly crc: number
  /** x^(8·length) modulo the CRC's polynomial: what `length` bytes after it do to a CRC (see above). */
  readonly shift: number
}

/** What a kept part costs in memory besides its compressed bytes (its object). */
export const PART_OVERHEAD_BYTES = 300

/** CRC-32's polynomial, reflected: bit 31 stands for x^0, bit 0 for x^31. */
const POLY = 0xedb88320

/**
 * a·b modulo POLY, both reflected. Without a branch per bit: a CRC's bits are as good as random,
 * and a mispredicted branch on half of them costs more than the work (measured for the matrix
 * this replaced: ~130 ns against ~40 per product).
 */
function multModP(a: number, b: number): number {
  let product = 0
  for (let bit = 31; bit >= 0; bit--) {
    product ^= b & -((a >>> bit) & 1)
    b = (b >>> 1) ^ (POLY & -(b & 1))
  }
  return product >>> 0
}

/** X_POW_2K[k] = x^(2^k) mod POLY: x^1 is bit 30; squaring doubles the power. Enough for any length below 2^53. */
const X_POW_2K = new Uint32Array(56)
X_POW_2K[0] = 1 << 30
for (let k = 1; k < X_POW_2K.length; k++) X_POW_2K[k] = multModP(X_POW_2K[k - 1]!, X_POW_2K[k - 1]!)

/** x^(8·length) mod POLY: the effect of `length` bytes on a CRC register. */
export function shiftFor(length: number): number {
  let power = 0x80000000 // x^0
  for (let k = 3; length > 0; k++, length = Math.floor(length / 2)) if (length % 2 === 1) power = multModP(X_POW_2K[k]!, power)
  return power >>> 0
}

/** The CRC-32 of "text of CRC `before`, then a part of CRC `crc` whose shift is `shift`". */
export function crcAfter(before: number, shift: number, crc: number): number {
  return (multModP(shift, before) ^ crc) >>> 0
}

/**
 * Compresses parts once, all of them into one memory block of their total size (each part a view
 * of its range). The block is copied from what zlib hands
 * back: that is a view of a larger chunk, and Buffer.from copies a small one into a slice of Node's
 * shared 8 KiB pool, so a kept part of 200 bytes would keep a whole slab alive (measured: 2,000 kept
 * parts of 57 KB in all held 12.5 MB), far past the bytes the kept-page stores count against their
 * bounds. One block per page rather than one per part: every request for a page reads all its
 * parts, and a dozen scattered blocks per page, among thousands of kept pages, made each request
 * wait on memory a dozen times. The block is the parts' alone, so it is freed with them.
 */
export function deflateParts(texts: readonly Buffer[]): DeflatedPart[] {
  const compressed = texts.map((text) => deflateRawSync(text, { level: 6, finishFlush: zlibConstants.Z_SYNC_FLUSH }))
  const block = Buffer.allocUnsafeSlow(compressed.reduce((n, c) => n + c.length, 0))
  let at = 0
  return texts.map((text, i): DeflatedPart => {
    const deflated = block.subarray(at, at + compressed[i]!.length)
    deflated.set(compressed[i]!)
    at += deflated.length
    return { deflated, length: text.length, crc: crc32(text), shift: shiftFor(text.length) }
  })
}

/**
 * Text as bytes in a memory block of exactly their size, for bytes that are kept (a viewer's name, a
 * form token): Buffer.from would make a small one a slice of Node's shared 8 KiB pool, and one kept
 * slice keeps the whole slab alive (see deflateParts).
 */
export function keptBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text))
  bytes.write(text)
  return bytes
}

/** One part compressed once, in a memory block of its own size (deflateParts). */
export function deflatePart(text: Buffer): DeflatedPart {
  return deflateParts([text])[0]!
}

/** A kept part, or bytes of this request alone. */
export type Segment = DeflatedPart | Buffer

// No name, no time, unknown OS.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** The last block of a deflate stream: empty, stored, final. */
const FINAL_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff])

/** The segments in order as one gzip body, written straight into one buffer of its size. */
export function gzipOf(segments: readonly Segment[]): Buffer {
  // A long per-request value is worth compressing (quickly); a few bytes go as stored blocks. Most
  // pages have none, so no second list is made for them. Bytes are placed with Uint8Array#set: a
  // page has a few dozen segments, and Buffer#copy costs a call through JavaScript checks for each.
  const pieces = segments.some(isLong) ? segments.map((s) => (isLong(s) ? { text: s, deflated: deflateRawSync(s, { level: 1, finishFlush: zlibConstants.Z_SYNC_FLUSH }) } : s)) : segments
  let total = GZIP_HEADER.length + FINAL_BLOCK.length + 8
  for (const piece of pieces) {
    if (Buffer.isBuffer(piece)) total += piece.length + 5 * Math.ceil(piece.length / 0xffff)
    else total += piece.deflated.length
  }
  const out = bodyBuffer(total)
  out.set(GZIP_HEADER, 0)
  let at = GZIP_HEADER.length
  let crc = 0
  let size = 0
  for (const piece of pieces) {
    if (Buffer.isBuffer(piece)) {
      // Stored (uncompressed) deflate blocks, not final: 65,535 bytes each at most.
      for (let from = 0; from < piece.length; from += 0xffff) {
        const n = Math.min(0xffff, piece.length - from)
        const inverse = ~n & 0xffff
        out[at] = 0
        out[at + 1] = n & 0xff
        out[at + 2] = n >>> 8
        out[at + 3] = inverse & 0xff
        out[at + 4] = inverse >>> 8
        out.set(n === piece.length ? piece : piece.subarray(from, from + n), at + 5)
        at += 5 + n
      }
      crc = crc32(piece, crc)
      size += piece.length
    } else if ('text' in piece) {
      out.set(piece.deflated, at)
      at += piece.deflated.length
      crc = crc32(piece.text, crc)
      size += piece.text.length
    } else {
      out.set(piece.deflated, at)
      at += piece.deflated.length
      crc = crcAfter(crc, piece.shift, piece.crc)
      size += piece.length
    }
  }
  out.set(FINAL_BLOCK, at)
  at += FINAL_BLOCK.length
  out.writeUInt32LE(crc >>> 0, at)
  out.writeUInt32LE(size >>> 0, at + 4)
  return out
}

const isLong = (segment: Segment): segment is Buffer => Buffer.isBuffer(segment) && segment.length > 1024

/**
 * Response bodies are carved from a shared slab, as Node's own pool does for buffers under 4 KiB:
 * a kept page's body is 6–20 KB, and a memory block of its own per response (allocated, then
 * swept by the garbage collector) cost more than assembling the body (measured: ~5.5 µs a body
 * against ~3.8 from the slab). A slab lives while any body carved from it is still being sent,
 * so what it holds is bounded by the responses in flight; bodies over a quarter slab get their own.
 */
const SLAB_BYTES = 256 * 1024
let slab = Buffer.allocUnsafeSlow(SLAB_BYTES)
let slabUsed = 0

function bodyBuffer(size: number): Buffer {
  if (size > SLAB_BYTES >>> 2) return Buffer.allocUnsafe(size)
  if (slabUsed + size > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES)
    slabUsed = 0
  }
  const out = slab.subarray(slabUsed, slabUsed + size)
  // The next body starts on an 8-byte boundary, as Node's pool aligns its buffers.
  slabUsed = (slabUsed + size + 7) & ~7
  return out
}

/** The segments as text, for the rare client that takes no gzip. */
export function plainOf(segments: readonly Segment[]): Buffer {
  return Buffer.concat(segments.map((s) => (Buffer.isBuffer(s) ? s : inflateRawSync(s.deflated, { finishFlush: zlibConstants.Z_SYNC_FLUSH }))))
}

/**
 * A rendered page cut at its slot markers (`pattern` captures each slot's name): the parts between
 * them compressed once (deflateParts: in one block), the slots in order, and what it all holds in
 * memory (objects included).
 */
export function cutAtSlots<Slot extends string>(html: string, pattern: RegExp): { parts: DeflatedPart[]; slots: Slot[]; bytes: number } {
  const texts: Buffer[] = []
  const slots: Slot[] = []
  html.split(pattern).forEach((piece, i) => (i % 2 === 0 ? texts.push(Buffer.from(piece)) : slots.push(piece as Slot)))
  const parts = deflateParts(texts)
  return { parts, slots, bytes: parts.reduce((n, part) => n + part.deflated.length + PART_OVERHEAD_BYTES, 400) }
}

/** Whether the request's Accept-Encoding takes gzip (and does not refuse it with q=0). */
export function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding']
  if (typeof header !== 'string') return false
  // A browser sends the same header with every request: the last answer is kept for it.
  if (header !== lastHeader) {
    lastHeader = header
    lastAnswer = header.split(',').some((item) => {
      const [coding, ...params] = item.trim().toLowerCase().split(';')
      return (coding === 'gzip' || coding === 'x-gzip') && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))
    })
  }
  return lastAnswer
}
let lastHeader = ''
let lastAnswer = false
