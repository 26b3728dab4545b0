// Group commit (src/server/services/group-commit.ts) on a real SQLite file: writes that arrive
// together share a transaction, yet each keeps its own atomicity, its own answer and its order,
// and nobody hears "done" before the COMMIT.
import Database from '../../src/server/plugins/sqlite.js'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/server/plugins/db.js'
import { groupCommit, MAX_GATHER_TURNS } from '../../src/server/services/group-commit.js'
import { tempDir } from './helpers.js'

let db: Db
let path: string
beforeEach(() => {
  path = join(tempDir(), 'group.db')
  db = openDatabase(path)
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)')
})
afterEach(() => { if (db.open) db.close() })

const insert = (text: string) => () => Number(db.prepare('INSERT INTO notes (text) VALUES (?)').run(text).lastInsertRowid)
const texts = (from: Db = db) => from.prepare('SELECT text FROM notes ORDER BY id').pluck().all()

it('writes the jobs that arrive together in one transaction, in arrival order, each answered with its own result', async () => {
  const write = groupCommit(db)
  const ids = await Promise.all(['a', 'b', 'c', 'd'].map((t) => write(insert(t))))
  expect(ids).toEqual([1, 2, 3, 4])
  expect(texts()).toEqual(['a', 'b', 'c', 'd'])
  expect(write.stats).toEqual({ batches: 1, jobs: 4 })
  await write(insert('e'))
  expect(write.stats).toEqual({ batches: 2, jobs: 5 })
})

it('rolls back only the job that throws: the others of its batch are committed and answered', async () => {
  const write = groupCommit(db)
  const results = await Promise.allSettled([
    write(insert('kept 1')),
    write(() => { insert('half done')(); throw new Error('refused after writing') }),
    write(insert('kept 1')), // UNIQUE: SQLite refuses this one
    write(insert('kept 2')),
  ])
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled'])
  expect((results[1] as PromiseRejectedResult).reason.message).toBe('refused after writing')
  expect((results[2] as PromiseRejectedResult).reason.message).toMatch(/UNIQUE/)
  expect(texts()).toEqual(['kept 1', 'kept 2'])
})

it('answers nobody before the COMMIT: another connection sees every acknowledged write', async () => {
  const write = groupCommit(db)
  const other = new Database(path, { readonly: true })
  const seen: unknown[][] = []
  await Promise.all(['x', 'y'].map((t) => write(insert(t)).then(() => seen.push(texts(other)))))
  expect(seen).toEqual([['x', 'y'], ['x', 'y']])
  other.close()
})

it('when the COMMIT cannot happen, every job of the batch fails and none of it is kept', async () => {
  const write = groupCommit(db)
  // Another connection holds the write lock past the busy timeout: BEGIN IMMEDIATE fails.
  const holder = new Database(path)
  holder.exec('BEGIN IMMEDIATE')
  db.pragma('busy_timeout = 50')
  const results = await Promise.allSettled([write(insert('p')), write(insert('q'))])
  expect(results.every((r) => r.status === 'rejected' && /locked|busy/i.test(String(r.reason)))).toBe(true)
  holder.exec('ROLLBACK')
  holder.close()
  expect(texts()).toEqual([])
  await write(insert('after'))
  expect(texts()).toEqual(['after'])
})

it('takes at most maxBatch jobs in one transaction and the rest in the next', async () => {
  const write = groupCommit(db, 3)
  await Promise.all(Array.from({ length: 7 }, (_, i) => write(insert(`n${i}`))))
  expect(write.stats).toEqual({ batches: 3, jobs: 7 })
  expect(texts()).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6'])
})

it('lets a job use nested transactions (they become savepoints inside its own)', async () => {
  const write = groupCommit(db)
  const nested = db.transaction((t: string) => insert(t)())
  const result = await Promise.allSettled([
    write(() => { nested('inner ok'); return 'ok' }),
    write(() => { nested('inner rolled back'); throw new Error('outer job fails') }),
  ])
  expect(result.map((r) => r.status)).toEqual(['fulfilled', 'rejected'])
  expect(texts()).toEqual(['inner ok'])
})

/** Waits for `turns` turns of the event loop (each a poll for input and a check phase). */
const loopTurns = async (turns: number) => { for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve)) }

it('lets jobs that keep arriving, a turn of the event loop apart, join the waiting batch', async () => {
  const write = groupCommit(db)
  const first = write(insert('a'))
  await loopTurns(1)
  const second = write(insert('b')) // arrives while the batch still gathers
  await Promise.all([first, second])
  expect(write.stats).toEqual({ batches: 1, jobs: 2 })
})

it('writes the batch once a turn of the loop brings no job, and after MAX_GATHER_TURNS turns even if jobs keep coming', async () => {
  const write = groupCommit(db)
  await write(insert('alone')) // a lone job: one empty turn, then the COMMIT
  expect(write.stats).toEqual({ batches: 1, jobs: 1 })
  // One job every turn, for twice as many turns as a batch waits: the first batch cannot take them all.
  const pending: Promise<number>[] = []
  for (let i = 0; i < 2 * MAX_GATHER_TURNS + 2; i++) {
    pending.push(write(insert(`steady ${i}`)))
    await loopTurns(1)
  }
  await Promise.all(pending)
  expect(write.stats.batches).toBeGreaterThanOrEqual(3)
  expect(write.stats.jobs).toBe(1 + 2 * MAX_GATHER_TURNS + 2)
  expect(texts()).toEqual(['alone', ...Array.from({ length: 2 * MAX_GATHER_TURNS + 2 }, (_, i) => `steady ${i}`)])
})
