// The database's WAL is checkpointed by a worker thread, so that syncing files to disk never
// waits on the event loop.
//
// Why: with synchronous=NORMAL, SQLite's automatic checkpoint runs inside the COMMIT that takes
// the WAL past its threshold (1,000 pages by default): it copies the WAL into the database and
// syncs both files. Under a steady stream of submissions that came every ~100 group commits, each
// ~4 ms on the event loop (about 4 µs of every submission, and a stall for every request waiting
// at that moment; docs/performance.md). Here a worker thread with a connection of its own runs a
// PASSIVE checkpoint every CHECKPOINT_EVERY_MS: it takes no write lock, so writes go on while it
// copies and syncs, and SQLite keeps a checkpoint crash-safe whichever connection runs it.
//
// The app's own connection keeps an automatic checkpoint, at BACKSTOP_PAGES. A checkpoint that runs
// while writes go on never ends exactly as the next write begins, and only then does SQLite start
// the WAL again from its beginning: the backstop finds nearly every page already copied, and makes
// the restart. It also bounds the WAL if the worker falls behind; if the worker fails, the app's
// connection checkpoints as SQLite does by default again.
import { Worker } from 'node:worker_threads'
import type { Db } from './db.js'
import { SQLITE_MODULE_PATH } from './sqlite.js'

/** How often the worker checkpoints: at 20,000 submissions a second (about a WAL page each), some 1,000 pages each time. */
export const CHECKPOINT_EVERY_MS = 50
/** The app's own connection checkpoints past this many WAL pages (16 MiB with 4 KiB pages). */
export const BACKSTOP_PAGES = 4000
/** SQLite's default threshold, used again if the worker fails. */
export const SQLITE_DEFAULT_PAGES = 1000
/** How long stop() waits for the worker to close its connection before it is terminated. */
const STOP_GRACE_MS = 2000

export interface Checkpointer {
  /** Ends the worker, its connection closed: call before closing the database. */
  stop(): Promise<void>
  /** Whether the worker is running (false once it has stopped or failed). */
  readonly running: boolean
}

export function startCheckpointer(db: Db, path: string, warn: (message: string) => void): Checkpointer {
  const worker = new Worker(new URL('./checkpoint-worker.cjs', import.meta.url), {
    workerData: { modulePath: SQLITE_MODULE_PATH, path, everyMs: CHECKPOINT_EVERY_MS },
  })
  // The worker never keeps a process alive; stop() ends it in an orderly way.
  worker.unref()
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`)
  let running = true
  let stopping = false
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  const fail = (why: string) => {
    if (!running || stopping) return
    running = false
    if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`)
    warn(`the WAL checkpointer stopped (${why}): the app's connection checkpoints for itself again`)
  }
  worker.on('message', (message: { error?: string }) => {
    if (message.error) warn(`a WAL checkpoint failed: ${message.error} (tried again in ${CHECKPOINT_EVERY_MS} ms)`)
  })
  worker.on('error', (error) => fail(error.message))
  worker.on('exit', (code) => fail(`exit code ${code}`))
  return {
    get running() { return running },
    async stop() {
      if (!running) return
      stopping = true
      worker.postMessage('stop')
      const grace = setTimeout(() => void worker.terminate(), STOP_GRACE_MS)
      await exited
      clearTimeout(grace)
      running = false
    },
  }
}
