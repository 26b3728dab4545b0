// The bounded map every in-memory cache of the server uses (src/server/services/lru.ts): at most
// so many entries and so much weight (bytes, squares), least recently used out first as the CLOCK
// algorithm approximates it: a read marks its entry, and a marked entry gets a second chance.
import { expect, it } from 'vitest'
import { lruMap } from '../../src/server/services/lru.js'

it('lets what was not used go first (a read counts as a use, a peek does not)', () => {
  const map = lruMap<string, number>(2)
  map.set('a', 1)
  map.set('b', 2)
  expect(map.get('a')).toBe(1)
  map.set('c', 3)
  expect([map.peek('a'), map.peek('b'), map.peek('c'), map.size]).toEqual([1, undefined, 3, 2])
  // 'a' had its second chance when 'b' went (it is behind 'c' now) and was not read since; nor was 'c'.
  map.set('d', 4)
  expect([map.peek('a'), map.peek('c'), map.peek('d')]).toEqual([1, undefined, 4])
  map.peek('a')
  map.set('e', 5)
  expect([map.peek('a'), map.peek('d'), map.peek('e')]).toEqual([undefined, 4, 5])
})

it('never drops an entry read at least once between two passes of the clock, and moves an entry only when room is needed', () => {
  const map = lruMap<string, number>(8)
  map.set('hot', 0)
  for (let i = 0; i < 1000; i++) {
    map.set(`cold${i}`, i)
    if (i % 4 === 3) expect(map.get('hot')).toBe(0)
  }
  expect(map.size).toBe(8)
  // 'a' and 'd' were read: when room is needed, 'a' (the oldest) gets its second chance and 'b' goes.
  const small = lruMap<string, number>(4)
  for (const key of ['a', 'b', 'c', 'd']) small.set(key, 1)
  small.get('d')
  small.get('a')
  small.set('e', 1)
  expect([...['a', 'b', 'c', 'd', 'e'].map((k) => small.peek(k) !== undefined)]).toEqual([true, false, true, true, true])
  // Next 'c' goes (never read); then 'd', read once, has its second chance, and 'e' goes.
  small.set('f', 1)
  small.set('g', 1)
  expect([...['a', 'c', 'd', 'e', 'f', 'g'].map((k) => small.peek(k) !== undefined)]).toEqual([true, false, true, false, true, true])
})

it('keeps the weight of what it holds under maxWeight, and always the entry just set', () => {
  const map = lruMap<string, Buffer>({ maxEntries: 100, maxWeight: 10, weigh: (b) => b.length })
  for (let i = 0; i < 20; i++) {
    map.set(`k${i}`, Buffer.alloc(3))
    expect(map.weight).toBeLessThanOrEqual(10)
  }
  expect([map.size, map.weight]).toEqual([3, 9])
  map.set('k5', Buffer.alloc(4))
  expect([map.size, map.weight]).toEqual([3, 10])
  map.set('huge', Buffer.alloc(50))
  expect([map.size, map.weight, map.peek('huge')?.length]).toEqual([1, 50, 50])
  map.set('k1', Buffer.alloc(1))
  expect([map.size, map.weight]).toEqual([1, 1])
})

it('counts what it drops: delete, deleteWhere and clear', () => {
  const map = lruMap<string, string>({ maxEntries: 10, maxWeight: 100, weigh: (s) => s.length })
  for (const key of ['g1/1/a', 'g1/2/a', 'g2/1/a']) map.set(key, 'xyz')
  map.deleteWhere((key) => key.startsWith('g1/'))
  expect([map.size, map.weight, [...map.values()]]).toEqual([1, 3, ['xyz']])
  expect(map.delete('g2/1/a')).toBe(true)
  expect(map.delete('g2/1/a')).toBe(false)
  map.set('x', 'ab')
  map.clear()
  expect([map.size, map.weight]).toEqual([0, 0])
})

it('refuses a bound that leaves no room', () => {
  expect(() => lruMap(0)).toThrow(RangeError)
  expect(() => lruMap({ maxEntries: 5, maxWeight: 0 })).toThrow(RangeError)
})

it('reads cost no reordering: many readers in turn keep the map as it was set', () => {
  const map = lruMap<string, number>(1000)
  for (let i = 0; i < 1000; i++) map.set(`k${i}`, i)
  for (let round = 0; round < 3; round++) for (let i = 0; i < 1000; i++) map.get(`k${i}`)
  expect([...map.values()].slice(0, 3)).toEqual([0, 1, 2])
  // Full and every entry read: the one that goes is the oldest once all have had their second chance.
  map.set('new', -1)
  expect([map.size, map.peek('k0'), map.peek('k1'), map.peek('new')]).toEqual([1000, undefined, 1, -1])
})
