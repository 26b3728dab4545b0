// The bounded map every in-memory cache of the server uses (src/server/services/lru.ts): at most
// so many entries and so much weight (bytes, squares), least recently used out first.
import { expect, it } from 'vitest'
import { lruMap } from '../../src/server/services/lru.js'

it('lets the least recently used go first (a read counts as a use, a peek does not)', () => {
  const map = lruMap<string, number>(2)
  map.set('a', 1)
  map.set('b', 2)
  expect(map.get('a')).toBe(1)
  map.set('c', 3)
  expect([map.peek('a'), map.peek('b'), map.peek('c'), map.size]).toEqual([1, undefined, 3, 2])
  map.set('d', 4)
  expect([map.peek('a'), map.peek('c'), map.peek('d')]).toEqual([undefined, 3, 4])
})

it('never drops an entry read at least once in every maxEntries / 2 insertions, and moves only entries of the older half', () => {
  const map = lruMap<string, number>(8)
  map.set('hot', 0)
  for (let i = 0; i < 1000; i++) {
    map.set(`cold${i}`, i)
    if (i % 4 === 3) expect(map.get('hot')).toBe(0)
  }
  expect(map.size).toBe(8)
  // 'd', read in the newer half, stays where it is; 'a', read in the older half, goes to the back; so 'b' goes first.
  const small = lruMap<string, number>(4)
  for (const key of ['a', 'b', 'c', 'd']) small.set(key, 1)
  small.get('d')
  small.get('a') // in the older half: moved to the back
  small.set('e', 1)
  expect([...['a', 'b', 'c', 'd', 'e'].map((k) => small.peek(k) !== undefined)]).toEqual([true, false, true, true, true])
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
