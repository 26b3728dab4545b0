// SQLite's `PRAGMA data_version` (it moves when another connection commits), read at most once per
// synchronous run of JavaScript and shared by the caches that check it: a kept report page asked
// it three times in one run (its facts, the page, the message thread), each a trip into SQLite.
//
// Exact: no other connection's commit can be told apart from one made just after a synchronous
// run began, so one reading at the run's start serves the whole run; the next run (the next
// request, the next callback, anything after an await) reads again.
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
  if (reading.value === null) {
    reading.value = reading.read()
    const done = reading
    queueMicrotask(() => { done.value = null })
  }
  return reading.value
}
