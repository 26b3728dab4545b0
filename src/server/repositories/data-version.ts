// SQLite's `PRAGMA data_version` (it moves when another connection commits), read at most once per
// synchronous run of JavaScript and shared by the caches that check it: a kept report page asked
// it three times in one run (its facts, the page, the message thread), each a trip into SQLite.
//
// Exact: no other connection's commit can be told apart from one made just after a synchronous
// run began, so one reading at the run's start serves the whole run; the next run (the next
// request, the next callback, anything after an await) reads again. Inside a transaction the
// reading is cheap and is made every time.
import type { Db } from '../plugins/db.js'

interface Reading { read: () => number; value: number | null }

const readings = new WeakMap<Db, Reading>()

export function dataVersionNow(db: Db): number {
  let reading = readings.get(db)
  if (!reading) {
    const statement = db.prepare<[], number>('PRAGMA data_version').pluck()
    reading = { read: () => statement.get()!, value: null }
    readings.set(db, reading)
  }
  // Inside a transaction SQLite answers from the transaction's own snapshot, with no trip to the
  // file's locks (~0.05 µs): read it each time, so that a write transaction sees every commit made
  // before it began, even one made since a reading earlier in the same run.
  if (db.inTransaction) return reading.read()
  if (reading.value === null) {
    reading.value = reading.read()
    const done = reading
    queueMicrotask(() => { done.value = null })
  }
  return reading.value
}
