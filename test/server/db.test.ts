import Database from '../../src/server/plugins/sqlite.js'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { migrate, openDatabase } from '../../src/server/plugins/db.js'
import { tempDir } from './helpers.js'

it('opens SQLite with WAL, foreign keys and a busy timeout, and applies each migration once', () => {
  const path = join(tempDir(), 'x.db')
  const db = openDatabase(path)
  expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
  expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
  expect(db.pragma('busy_timeout', { simple: true })).toBe(5000)
  expect(db.prepare('SELECT name FROM schema_migrations').pluck().all()).toContain('001-init.sql')
  expect(migrate(db)).toEqual([])
  db.close()
  const again = new Database(path)
  expect(migrate(again)).toEqual([])
  again.close()
  const checked = openDatabase(path)
  expect(() => checked.prepare("INSERT INTO seats (game_id, seat_no, player_id) VALUES ('nope', 2, 'P2')").run()).toThrow(/FOREIGN KEY/)
  checked.close()
})
