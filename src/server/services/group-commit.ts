// Group commit: writes that arrive together share one SQLite transaction, each inside its own
// savepoint, and every caller hears back only after the shared COMMIT.
//
// Why: under load, taking the write lock and committing (BEGIN IMMEDIATE … COMMIT, the WAL
// frames it appends) was the largest single cost of a program submission. Requests that reach
// the server together are queued and written by one transaction, so that cost is paid once per
// batch instead of once per request. A batch is written on a `setImmediate` once a turn of the
// event loop has brought no new job (or after MAX_GATHER_TURNS turns): requests still arriving,
// a few microseconds apart, join it instead of each paying for a COMMIT of its own.
//
// What each caller still gets, exactly as with its own transaction:
// - atomicity: a job that throws is rolled back to its savepoint alone; the others go on, and the
//   caller gets the job's error;
// - durability before the answer: a promise settles only once COMMIT has returned, so nothing is
//   acknowledged that a crash could lose; if COMMIT itself fails, every job of the batch is rolled
//   back and every caller gets that error;
// - isolation and order: jobs run one after another, in arrival order, on the one connection.
import type { Db } from '../plugins/db.js'

interface Job {
  work: () => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

export interface GroupCommit {
  /** Runs `work` in the next shared transaction; settles after it has committed. */
  <T>(work: () => T): Promise<T>
  /** How many transactions and jobs have run: for tests and the benchmark's notes. */
  readonly stats: { batches: number; jobs: number }
}

/** Most jobs one transaction takes; more wait for the next (keeps one batch's latency bounded). */
export const MAX_BATCH = 64

/**
 * Most turns of the event loop a batch waits for more jobs while they keep arriving. Each turn is
 * a poll for input without waiting (a pending `setImmediate` keeps the loop from blocking), so a
 * lone write waits one empty turn, microseconds; under load the batch grows. With 10 clients
 * submitting at once this took the rate from 33% to 36% of a bare POST (docs/performance.md).
 */
export const MAX_GATHER_TURNS = 4

export function groupCommit(db: Db, maxBatch = MAX_BATCH): GroupCommit {
  // Calling a better-sqlite3 transaction function inside a transaction makes it a savepoint.
  const savepoint = db.transaction((work: () => unknown) => work())
  const runBatch = db.transaction((jobs: Job[]) => {
    const outcomes: { ok: boolean; value: unknown }[] = []
    for (const job of jobs) {
      try {
        outcomes.push({ ok: true, value: savepoint(job.work) })
      } catch (error) {
        outcomes.push({ ok: false, value: error })
      }
    }
    return outcomes
  })
  let queue: Job[] = []
  let scheduled = false
  /** The queue's length at the last turn of the loop the pending batch waited, and how many it waited. */
  let lengthLastTurn = 0
  let turnsWaited = 0
  const stats = { batches: 0, jobs: 0 }

  function flush(): void {
    scheduled = false
    const jobs = queue.length > maxBatch ? queue.splice(0, maxBatch) : queue
    if (jobs === queue) queue = []
    if (queue.length > 0) schedule()
    let outcomes: { ok: boolean; value: unknown }[]
    try {
      outcomes = runBatch.immediate(jobs)
    } catch (error) {
      for (const job of jobs) job.reject(error)
      return
    }
    stats.batches++
    stats.jobs += jobs.length
    jobs.forEach((job, i) => (outcomes[i]!.ok ? job.resolve(outcomes[i]!.value) : job.reject(outcomes[i]!.value)))
  }

  /** Flushes once a turn of the loop brought no new job, the batch is full, or it has waited long enough. */
  function gather(): void {
    if (queue.length > lengthLastTurn && queue.length < maxBatch && turnsWaited < MAX_GATHER_TURNS) {
      lengthLastTurn = queue.length
      turnsWaited++
      setImmediate(gather)
      return
    }
    flush()
  }

  function schedule(): void {
    if (scheduled) return
    scheduled = true
    lengthLastTurn = 0
    turnsWaited = 0
    setImmediate(gather)
  }

  const enqueue = <T>(work: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject })
      schedule()
    })
  return Object.assign(enqueue, { stats })
}
