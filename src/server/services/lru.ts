// The one bounded map of the server's in-memory caches: at most `maxEntries` entries and, when
// `weigh` is given, at most `maxWeight` of what it counts (bytes, squares), least recently used out
// first. A Map iterates in insertion order, so re-inserting an entry when it is read keeps the
// least recently used one first. The entry just set is always kept, even when it alone is over
// `maxWeight` (a caller that must not keep such an entry checks before setting it).
//
// A read moves its entry to the back only when the entry is in the older half of the map: moving
// is a delete and an insert in the Map, and a kept page's request reads five of these maps, mostly
// entries read moments before (the session, the cookie signatures, the page). An entry in the newer
// half has at least half the map's entries in front of it, so it cannot be the next to go; once it
// drifts into the older half, its next read moves it. So an entry read at least once in every
// maxEntries / 2 insertions is never dropped, and what goes first is always from the older half.
// docs/performance.md, "Memory with 10,000 games", lists every cache and its bound.

export interface LruOptions<V> {
  maxEntries: number
  maxWeight?: number
  /** What one value counts against maxWeight (e.g. its bytes); 1 for each entry when not given. */
  weigh?: (value: V) => number
}

export interface LruMap<K, V> {
  /** The value; the read counts as a use (moving the entry back if it is in the older half, see above). */
  get(key: K): V | undefined
  /** The value, without making it recently used. */
  peek(key: K): V | undefined
  set(key: K, value: V): void
  delete(key: K): boolean
  /** Drops every entry whose key passes `test`. */
  deleteWhere(test: (key: K) => boolean): void
  clear(): void
  values(): IterableIterator<V>
  readonly size: number
  /** The sum of weigh(value) over the entries kept. */
  readonly weight: number
}

export function lruMap<K, V>(options: LruOptions<V> | number): LruMap<K, V> {
  const { maxEntries, maxWeight = Infinity, weigh = () => 1 } = typeof options === 'number' ? { maxEntries: options } : options
  if (!(maxEntries >= 1) || !(maxWeight > 0)) throw new RangeError(`an LRU map needs room for at least one entry (got ${maxEntries} entries, ${maxWeight} weight)`)
  // `moved`: the insertion count when the entry last went to the back (see above).
  const entries = new Map<K, { value: V; weight: number; moved: number }>()
  let weight = 0
  let insertions = 0

  const drop = (key: K): boolean => {
    const entry = entries.get(key)
    if (!entry) return false
    entries.delete(key)
    weight -= entry.weight
    return true
  }

  return {
    get(key) {
      const entry = entries.get(key)
      if (!entry) return undefined
      if (insertions - entry.moved >= entries.size >>> 1) {
        entries.delete(key)
        entry.moved = ++insertions
        entries.set(key, entry)
      }
      return entry.value
    },
    peek: (key) => entries.get(key)?.value,
    set(key, value) {
      drop(key)
      const entry = { value, weight: weigh(value), moved: ++insertions }
      entries.set(key, entry)
      weight += entry.weight
      while ((entries.size > maxEntries || weight > maxWeight) && entries.size > 1) drop(entries.keys().next().value!)
    },
    delete: drop,
    deleteWhere(test) {
      for (const key of [...entries.keys()]) if (test(key)) drop(key)
    },
    clear() {
      entries.clear()
      weight = 0
    },
    *values() {
      for (const entry of entries.values()) yield entry.value
    },
    get size() { return entries.size },
    get weight() { return weight },
  }
}
