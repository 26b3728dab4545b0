// The WAL checkpointer (src/server/plugins/checkpointer.ts): a worker thread copies the WAL into
// the database while the app's connection goes on writing; the app's own automatic checkpoint
// stays as a backstop that restarts the WAL; a worker that fails hands checkpointing back.
import { closeSync, openSync, readSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/server/plugins/db.js'
import { BACKSTOP_PAGES, SQLITE_DEFAULT_PAGES, startCheckpointer, type Checkpointer } from '../../src/server/plugins/checkpointer.js'
import { waitFor } from '../../src/testkit/server-process.js'
import { tempDir } from '../server/helpers.js'

const ROW = 'x'.repeat(2000)

let cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})

/** A fresh database file with a table to write to, and the checkpointer on it. */
function setUp(path?: string): { db: Db; file: string; checkpointer: Checkpointer; warnings: string[] } {
  const dir = tempDir('botwars-checkpoint-')
  const file = join(dir, 'botwars.db')
  const db = openDatabase(file)
  db.exec('CREATE TABLE writes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)')
  const warnings: string[] = []
  const checkpointer = startCheckpointer(db, path ?? file, (message) => warnings.push(message))
  cleanup.push(async () => {
    await checkpointer.stop()
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { db, file, checkpointer, warnings }
}

/** `count` transactions of one 2 KB row each: about a page of WAL per transaction. */
function write(db: Db, count: number): void {
  const insert = db.prepare('INSERT INTO writes (body) VALUES (?)')
  for (let i = 0; i < count; i++) insert.run(ROW)
}

const size = (file: string) => statSync(file).size

/** How many times SQLite has started the WAL again from its beginning: the checkpoint sequence number of the WAL header (bytes 12-15), which each restart raises by one. */
function walRestarts(file: string): number {
  const header = Buffer.alloc(16)
  const fd = openSync(`${file}-wal`, 'r')
  try { readSync(fd, header, 0, 16, 0) } finally { closeSync(fd) }
  return header.readUInt32BE(12)
}

describe('the WAL checkpointer', () => {
  it('raises the app connection\'s own checkpoint to the backstop', () => {
    const { db } = setUp()
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES)
  })

  it('copies committed pages into the database file from its thread, while the app\'s connection would not yet', async () => {
    const { db, file } = setUp()
    const before = size(file)
    // Far below the backstop: the app's connection alone would leave every page in the WAL.
    write(db, 300)
    expect(await waitFor(() => size(file) >= before + 300 * 2000, 60_000, 20)).toBe(true)
    // Every row is there, read through the app's connection as ever.
    expect(db.prepare('SELECT count(*) FROM writes').pluck().get()).toBe(300)
  })

  it('keeps the WAL bounded under writes that never pause: the backstop restarts it', () => {
    const { db, file } = setUp()
    // Transactions back to back without a turn of the event loop, until SQLite has started the WAL
    // again from its beginning twice (overwritten, not grown). The worker alone does not: it hardly
    // ever finds every page copied between two commits, and only then may the next commit restart
    // the WAL; without the backstop the WAL holds every page written (some 8 backstops here).
    // Not a bound on the WAL's size in pages: it passes the backstop by whatever is committed while
    // the worker's checkpoint holds the lock (a commit that finds it leaves the backstop to the
    // next), and that lasts as long as the disk takes to sync: on a slow disk, more than the
    // backstop again, so a size bound failed by the machine's speed, not by the code.
    const insert = db.prepare('INSERT INTO writes (body) VALUES (?)')
    let written = 0
    while (walRestarts(file) < 2 && written < 8 * BACKSTOP_PAGES) {
      for (let i = 0; i < 100; i++) insert.run(ROW)
      written += 100
    }
    expect(walRestarts(file), `WAL restarts in ${written} transactions`).toBeGreaterThanOrEqual(2)
    expect(db.prepare('SELECT count(*) FROM writes').pluck().get()).toBe(written)
  })

  it('hands checkpointing back to the app\'s connection, with a warning, when the worker fails', async () => {
    // A worker that cannot open its database fails at once (the file must exist).
    const { db, checkpointer, warnings } = setUp('/nonexistent/botwars.db')
    expect(await waitFor(() => !checkpointer.running, 60_000, 20)).toBe(true)
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(SQLITE_DEFAULT_PAGES)
    expect(warnings.join('\n')).toMatch(/checkpointer stopped/)
    write(db, 10)
    expect(db.prepare('SELECT count(*) FROM writes').pluck().get()).toBe(10)
  })

  it('stops with its connection closed, after which the database closes as the last connection (the WAL is removed)', async () => {
    const { db, file, checkpointer, warnings } = setUp()
    write(db, 50)
    await checkpointer.stop()
    expect(checkpointer.running).toBe(false)
    await checkpointer.stop() // a second stop is harmless
    db.close()
    // SQLite deletes the WAL only when the last connection to the database closes.
    expect(() => statSync(`${file}-wal`)).toThrow()
    expect(warnings).toEqual([])
    const again = openDatabase(file)
    expect(again.prepare('SELECT count(*) FROM writes').pluck().get()).toBe(50)
    again.close()
  })
})
