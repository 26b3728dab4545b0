// The session and API-token caches (src/server/repositories/watched-cache.ts) stay exact: a
// revocation, a sign-out or a rename is seen at once when this process made it, and by the next
// synchronous run (the next request) when another connection to the same SQLite file did: a
// commit made while a run is under way cannot be told apart from one made just after it. Inside a
// write transaction every commit made before it began is seen, and a row read there is kept only
// if it cannot be the transaction's own write.
import Database from '../../src/server/plugins/sqlite.js'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/server/plugins/db.js'
import { hashSecret, usersRepository } from '../../src/server/repositories/users.js'
import { watchedCache } from '../../src/server/repositories/watched-cache.js'
import { tempDir } from './helpers.js'

let db: Db
let other: Database.Database
let path: string
beforeEach(() => {
  path = join(tempDir(), 'cache.db')
  db = openDatabase(path)
  other = new Database(path)
  db.exec("INSERT INTO users (id, email, name, created_at) VALUES (1, 'ann@example.org', 'Ann', 0), (2, 'gm@example.org', 'GM', 0)")
  db.exec("INSERT INTO games (id, name, board_name, board_json, gm_user_id, seat_count, turn_length_ms, review_window_ms, close_early, gm_plays, seed, public_token, status, created_at) VALUES ('g1', 'G', 'b', '{}', 2, 2, 1, 0, 0, 0, 1, 'pub', 'running', 0)")
})
afterEach(() => { other.close(); db.close() })

it('answers a repeated lookup from memory, and counts nothing it did not find', () => {
  const cache = watchedCache<{ n: number }>(db)
  let loads = 0
  expect(cache.get('a', () => { loads++; return { n: 1 } })).toEqual({ n: 1 })
  expect(cache.get('a', () => { loads++; return { n: 2 } })).toEqual({ n: 1 })
  expect(cache.get('missing', () => { loads++; return undefined })).toBeUndefined()
  expect(cache.get('missing', () => { loads++; return undefined })).toBeUndefined()
  expect(loads).toBe(3)
  expect(cache.size).toBe(1)
})

/** Lets the synchronous run end, as it does between two requests. */
const nextRun = () => new Promise<void>((resolve) => setImmediate(resolve))

it('drops everything when another connection commits', async () => {
  const cache = watchedCache<{ n: number }>(db)
  cache.get('a', () => ({ n: 1 }))
  other.exec("UPDATE users SET name = 'Anne' WHERE id = 1")
  expect(cache.get('a', () => ({ n: 2 }))).toEqual({ n: 1 }) // the same run: as if the commit came just after
  await nextRun()
  expect(cache.get('a', () => ({ n: 2 }))).toEqual({ n: 2 })
})

it('inside a transaction, sees every commit made before it began, even within the same run', () => {
  const cache = watchedCache<{ n: number }>(db)
  cache.get('a', () => ({ n: 1 }))
  other.exec("UPDATE users SET name = 'Anne' WHERE id = 1")
  // No run in between: outside a transaction this would still be the reading before the commit.
  db.transaction(() => { expect(cache.get('a', () => ({ n: 2 }))).toEqual({ n: 2 }) }).immediate()
})

it('after a transaction that changed its rows, keeps what a later transaction reads, with no look-up outside one between', async () => {
  const cache = watchedCache<{ n: number }>(db)
  db.transaction(() => { cache.clear(); cache.get('a', () => ({ n: 1 })) })()
  await nextRun()
  db.transaction(() => { cache.get('b', () => ({ n: 2 })) })()
  db.transaction(() => { expect(cache.get('b', () => ({ n: 3 }))).toEqual({ n: 2 }) })()
})

it('keeps a row read inside a transaction only if the transaction changed none of the rows it caches', () => {
  const cache = watchedCache<{ n: number }>(db)
  db.transaction(() => { cache.get('read', () => ({ n: 1 })) })()
  expect(cache.get('read', () => ({ n: 2 }))).toEqual({ n: 1 }) // committed data: kept
  // A transaction that changed the rows (clear) and then read one back, and was rolled back.
  expect(() => db.transaction(() => {
    cache.clear()
    cache.get('written', () => ({ n: 3 }))
    throw new Error('rolled back')
  })()).toThrow('rolled back')
  expect(cache.get('written', () => ({ n: 4 }))).toEqual({ n: 4 })
  // Committed, it is still not kept from inside: the next look-up outside reads it again.
  db.transaction(() => { cache.clear(); cache.get('again', () => ({ n: 5 })) })()
  expect(cache.get('again', () => ({ n: 6 }))).toEqual({ n: 6 })
  // After a look-up outside a transaction, the next transaction keeps what it reads again.
  db.transaction(() => { cache.get('later', () => ({ n: 7 })) })()
  expect(cache.get('later', () => ({ n: 8 }))).toEqual({ n: 7 })
})

it('hands out frozen rows, so one caller cannot change what the next one gets', () => {
  const cache = watchedCache<{ n: number }>(db)
  const row = cache.get('a', () => ({ n: 1 }))!
  expect(() => { (row as { n: number }).n = 5 }).toThrow(TypeError)
})

it('sees a token revoked by this process at once, and by another process from the next run', async () => {
  const users = usersRepository(db)
  const token = users.createApiToken(1, 'g1', 0)
  expect(users.apiTokenUser(token)).toMatchObject({ id: 1, game_id: 'g1' })
  expect(users.apiTokenUser(token)).toMatchObject({ id: 1, game_id: 'g1' }) // now from memory
  users.revokeApiTokens(1, 'g1', 1)
  expect(users.apiTokenUser(token)).toBeUndefined()

  const second = users.createApiToken(1, 'g1', 2)
  expect(users.apiTokenUser(second)).toMatchObject({ id: 1 })
  other.prepare('UPDATE api_tokens SET revoked_at = 3 WHERE token_hash = ?').run(hashSecret(second))
  await nextRun()
  expect(users.apiTokenUser(second)).toBeUndefined()
})

it('sees sign-outs, renames and expiry of sessions', async () => {
  const users = usersRepository(db)
  const session = users.createSession(1, 0, 1000)
  expect(users.sessionUser(session, 10)).toEqual({ id: 1, email: 'ann@example.org', name: 'Ann', created_at: 0, name_chosen: 0 })
  users.rename(1, 'Annie')
  expect(users.sessionUser(session, 10)?.name).toBe('Annie')
  expect(users.sessionUser(session, 10)?.name_chosen).toBe(1) // a name set by the person counts as chosen (issue 13)
  other.exec("UPDATE users SET name = 'Ann B' WHERE id = 1")
  await nextRun()
  expect(users.sessionUser(session, 10)?.name).toBe('Ann B')
  expect(users.sessionUser(session, 1000)).toBeUndefined() // expired, though cached
  users.deleteSession(session)
  expect(users.sessionUser(session, 10)).toBeUndefined()
  const again = users.createSession(1, 0, 1000)
  users.sessionUser(again, 10)
  other.prepare('DELETE FROM sessions WHERE id_hash = ?').run(hashSecret(again))
  await nextRun()
  expect(users.sessionUser(again, 10)).toBeUndefined()
})
