// The one bounded map of the server's in-memory caches: at most `maxEntries` entries and, when
// `weigh` is given, at most `maxWeight` of what it counts (bytes, squares). What goes first is what
// was least recently used, as the CLOCK algorithm approximates it ("second chance"): a read only
// marks its entry as used; when room is needed, the oldest entry goes unless it was used since it
// was last looked at, in which case it is unmarked and moved to the back, and the next is looked at.
// The entry just set is always kept, even when it alone is over `maxWeight` (a caller that must not
// keep such an entry checks before setting it).
//
// Why not move every entry read to the back (exact LRU): moving is a delete and an insert in the
// Map, and a kept page's request reads eight of these maps. With many viewers each reading their
// pages in turn, every read moved its entry (measured in bench:server's profile: a third of the
// maps' time). Marking is one write; the moves happen only when something must go, at most one per
// entry marked. An entry read at least once between two passes of the clock is never dropped.
// docs/performance.md, "Memory with 10,000 games", lists every cache and its bound.

export interface LruOptions<V> {
  maxEntries: number
  maxWeight?: number
  /** What one value counts against maxWeight (e.g. its bytes); 1 for each entry when not given. */
  weigh?: (value: V) => number
}

export interface LruMap<K, V> {
  /** The value; the read counts as a use (see above). */
  get(key: K): V | undefined
  /** The value, without making it used. */
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
  // A Map iterates in insertion order: its first entry is the oldest, where the clock's hand is.
  const entries = new Map<K, { value: V; weight: number; used: boolean }>()
  let weight = 0

  const drop = (key: K): boolean => {
    const entry = entries.get(key)
    if (!entry) return false
    entries.delete(key)
    weight -= entry.weight
    return true
  }

  /** Makes room: the oldest entry not used since the hand last passed it goes (never `kept`). */
  const evict = (kept: K) => {
    while ((entries.size > maxEntries || weight > maxWeight) && entries.size > 1) {
      const [key, entry] = entries.entries().next().value!
      if (entry.used || key === kept) {
        // A second chance (the entry just set reaches the front only once every older entry has had one).
        entry.used = false
        entries.delete(key)
        entries.set(key, entry)
      } else {
        drop(key)
      }
    }
  }

  return {
    get(key) {
      const entry = entries.get(key)
      if (!entry) return undefined
      entry.used = true
      return entry.value
    },
    peek: (key) => entries.get(key)?.value,
    set(key, value) {
      drop(key)
      const entry = { value, weight: weigh(value), used: false }
      entries.set(key, entry)
      weight += entry.weight
      evict(key)
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
