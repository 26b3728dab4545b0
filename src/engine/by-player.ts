// Records keyed by player name: hands, orders, registers. A name is any string (FORMAT.md section
// 2), JavaScript's own words too: assigned to a plain object, `__proto__` sets its prototype instead
// of a key (the player's registers vanished from the result), and `constructor` is found on every
// plain object that lacks it. So the engine makes these records on a prototype that holds nothing
// and inherits nothing, and reads by name only what a record itself holds (records parsed from
// JSON do have Object's prototype).

/**
 * The prototype of every record: an object with no prototype and no keys, never changed. Neither
 * the `__proto__` accessor nor `constructor` is on its chain, so assigning any name makes an own
 * key. Not Object.create(null) for each record: V8 keeps an object without a prototype as a hash
 * table from the start, and the engine fills three such records every turn (hands, orders,
 * registers); an instance of a class is an ordinary object with fast keys.
 */
const EMPTY_PROTOTYPE: object = Object.freeze(Object.create(null) as object)

function PlayerRecord(this: object): void {}
PlayerRecord.prototype = EMPTY_PROTOTYPE

/** An empty record keyed by player name, in which every name is a key like any other. */
export function byPlayer<T>(): Record<string, T> {
  return new (PlayerRecord as unknown as new () => Record<string, T>)()
}

/** What `record` itself holds for `player`, never what a prototype holds under that name. */
export function forPlayer<T>(record: Readonly<Record<string, T>>, player: string): T | undefined {
  return Object.hasOwn(record, player) ? record[player] : undefined
}
