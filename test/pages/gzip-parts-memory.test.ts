// A kept page part owns exactly the memory the kept-page stores count for it (issue 17: memory
// stays bounded). Small Buffers are otherwise slices of Node's shared 8 KiB pool, and one kept
// slice keeps the whole slab alive: the stores' byte bounds would undercount up to 8 KiB a part.
import { expect, it } from 'vitest'
import { cutAtSlots, deflatePart, keptBytes } from '../../src/server/pages/gzip-parts.js'
import { viewerBytes } from '../../src/server/pages/viewer-bytes.js'

it('gives each compressed part a memory block of its own size, small or large', () => {
  for (const size of [1, 200, 3000, 70_000]) {
    const part = deflatePart(Buffer.from('<td>x</td>'.repeat(Math.ceil(size / 10)).slice(0, size)))
    expect(part.deflated.buffer.byteLength).toBe(part.deflated.length)
    expect(part.deflated.byteOffset).toBe(0)
  }
})

it('keeps all of a page\'s compressed parts in one block of exactly their size, and nothing else in it', () => {
  const html = Array.from({ length: 12 }, (_, i) => `<p>${'part '.repeat(40 * (i + 1))}</p>`).join('SLOTname')
  const { parts, slots } = cutAtSlots<'name'>(html, /SLOT(name)/)
  expect([parts.length, slots.length]).toEqual([12, 11])
  const block = parts[0]!.deflated.buffer
  expect(parts.every((part) => part.deflated.buffer === block)).toBe(true)
  expect(block.byteLength).toBe(parts.reduce((n, part) => n + part.deflated.length, 0))
})

it('keeps a viewer\'s name and address, and kept text, in blocks of their own size', () => {
  const kept = [keptBytes('token-like text'), keptBytes('naïve'), ...Object.values(viewerBytes({ id: 1, name: 'Ann <b>', email: 'ann@example.org', created_at: 0 }))]
  for (const bytes of kept) expect([bytes.byteOffset, bytes.buffer.byteLength]).toEqual([0, bytes.length])
  expect(keptBytes('naïve').toString()).toBe('naïve')
  expect(viewerBytes({ id: 1, name: 'Ann <b>', email: 'a@b', created_at: 0 }).name.toString()).toBe('Ann &lt;b&gt;')
})
