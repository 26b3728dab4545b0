// pages/gzip-parts.ts: a gzip body assembled from parts compressed once and per-request bytes must
// be a valid gzip stream of exactly their text (gunzip checks the CRC-32 and the length), whatever
// the sizes: empty parts, parts over a stored block's 65,535 bytes, long per-request values.
import { crc32, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { crcAfter, deflatePart, gzipOf, plainOf, shiftFor, type Segment } from '../../src/server/pages/gzip-parts.js'

/** Text of `length` bytes from a seeded stream (no Math.random: the same cases every run). */
function text(seed: number, length: number): Buffer {
  const out = Buffer.alloc(length)
  let x = seed || 1
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0
    out[i] = 32 + ((x >>> 16) % 90)
  }
  return out
}

describe('gzip from kept parts', () => {
  it('gives exactly the text of the parts and values in order', () => {
    const sizes = [0, 1, 5, 1023, 1024, 1025, 65_535, 65_536, 140_000]
    for (let round = 0; round < 40; round++) {
      const texts: Buffer[] = []
      const segments: Segment[] = []
      for (let i = 0; i < 1 + (round % 6); i++) {
        const t = text(round * 31 + i, sizes[(round * 7 + i * 3) % sizes.length]!)
        texts.push(t)
        segments.push((round + i) % 2 === 0 ? deflatePart(t) : t)
      }
      const whole = Buffer.concat(texts)
      expect(gunzipSync(gzipOf(segments)).equals(whole), `round ${round}`).toBe(true)
      expect(plainOf(segments).equals(whole)).toBe(true)
    }
  })

  it('keeps every body intact while later ones are built (bodies share slabs, never bytes)', () => {
    // Bodies from 1 byte to well past a quarter slab, enough of them to fill several slabs; each is
    // checked only after all of them exist, so one carved over another would fail its CRC.
    const built: { body: Buffer; whole: Buffer }[] = []
    for (let i = 0; i < 400; i++) {
      const t = text(1000 + i, [1, 700, 6_000, 20_000, 70_000][i % 5]!)
      const value = text(5000 + i, 40)
      built.push({ body: gzipOf([deflatePart(t), value]), whole: Buffer.concat([t, value]) })
    }
    for (const [i, { body, whole }] of built.entries()) expect(gunzipSync(body).equals(whole), `body ${i}`).toBe(true)
  })

  it('combines two CRCs as the CRC of the two texts one after the other', () => {
    for (const [a, b] of [[0, 0], [0, 7], [5, 0], [1, 1], [13, 255], [700, 4096], [3, 65_537], [100_000, 33]] as const) {
      const first = text(a + 1, a)
      const second = text(b + 2, b)
      expect(crcAfter(crc32(first), shiftFor(b), crc32(second)), `${a} then ${b}`).toBe(crc32(Buffer.concat([first, second])))
    }
  })
})
