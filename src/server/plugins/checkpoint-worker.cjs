// The checkpointer's worker thread (plugins/checkpointer.ts): a connection of its own to the
// database, running a PASSIVE checkpoint every `everyMs`. Plain CommonJS, so that a worker starts
// the same way under tsx, vitest and node alone, with nothing to compile.
//
// workerData: { modulePath: the better-sqlite3 build the app itself loaded, path: the database
// file, everyMs }. Messages to the parent: { error: string } when a checkpoint fails (it tries
// again next time). The message 'stop' closes the connection and ends the thread.
'use strict'
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.modulePath)

const db = new Database(workerData.path, { fileMustExist: true })
// The checkpointing connection's own setting decides the syncs: the WAL before its pages are
// copied, the database after (SQLite's guarantee against power loss for synchronous=NORMAL).
db.pragma('synchronous = NORMAL')
// PASSIVE never waits for a lock; a check that finds another checkpoint running is simply skipped.
db.pragma('busy_timeout = 0')

const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) })
  }
}, workerData.everyMs)

parentPort.on('message', (message) => {
  if (message !== 'stop') return
  clearInterval(timer)
  db.close()
  parentPort.close()
})
