// A kept page part owns exactly the memory the kept-page stores count for it (issue 17: memory
// stays bounded). Small Buffers are otherwise slices of Node's shared 8 KiB pool, and one kept
// slice keeps the whole slab alive: the stores' byte bounds would undercount up to 8 KiB a part.
import { expect, it } from 'vitest'
import { deflatePart } from '../../src/server/pages/gzip-parts.js'

it('gives each compressed part a memory block of its own size, small or large', () => {
  for (const size of [1, 200, 3000, 70_000]) {
    const part = deflatePart(Buffer.from('<td>x</td>'.repeat(Math.ceil(size / 10)).slice(0, size)))
    expect(part.deflated.buffer.byteLength).toBe(part.deflated.length)
    expect(part.deflated.byteOffset).toBe(0)
  }
})
