// Records keyed by player name: hands, orders, registers. A name is any string (FORMAT.md section
// 2), JavaScript's own words too: assigned to a plain object, `__proto__` sets its prototype instead
// of a key (the player's registers vanished from the result), and `constructor` is found on every
// plain object that lacks it. So the engine makes these records without a prototype, and reads by
// name only what a record itself holds (records parsed from JSON do have a prototype).

/** An empty record keyed by player name, in which every name is a key like any other. */
export function byPlayer<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>
}

/** What `record` itself holds for `player`, never what a prototype holds under that name. */
export function forPlayer<T>(record: Readonly<Record<string, T>>, player: string): T | undefined {
  return Object.hasOwn(record, player) ? record[player] : undefined
}
