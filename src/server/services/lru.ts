// A Map with a bound on its entries, least recently used out first. A Map iterates in insertion
// order, so re-inserting an entry when it is read keeps the least recently used one first.

export interface LruMap<K, V> {
  get(key: K): V | undefined
  set(key: K, value: V): void
  values(): IterableIterator<V>
  readonly size: number
}

export function lruMap<K, V>(maxEntries: number): LruMap<K, V> {
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`an LRU map needs room for at least one entry (got ${maxEntries})`)
  const entries = new Map<K, V>()
  return {
    get(key) {
      const value = entries.get(key)
      if (value === undefined) return undefined
      entries.delete(key)
      entries.set(key, value)
      return value
    },
    set(key, value) {
      entries.delete(key)
      entries.set(key, value)
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!)
    },
    values: () => entries.values(),
    get size() { return entries.size },
  }
}
