// The SQLite database: opened with WAL, foreign keys and a busy timeout, and brought up to date
// with the numbered plain-SQL files in migrations/ (each applied once, in its own transaction).
import Database from './sqlite.js'
import { chmodSync, closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export type Db = Database.Database

const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url))

/**
 * The database holds every hand and program and the outbox (sign-in links): only its owner may
 * read it. The file is made 0600 before SQLite opens it, and SQLite gives the -wal and -shm files
 * the database's mode; files left by an older version are tightened.
 */
export const PRIVATE_FILE = 0o600

export function openDatabase(path: string): Db {
  if (path !== ':memory:') {
    if (!existsSync(path)) closeSync(openSync(path, 'a', PRIVATE_FILE))
    for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, PRIVATE_FILE)
  }
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  db.pragma('synchronous = NORMAL')
  migrate(db)
  return db
}

export function migrate(db: Db, dir = MIGRATIONS_DIR): string[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)')
  const isDone = db.prepare('SELECT 1 FROM schema_migrations WHERE name = ?').pluck()
  const files = readdirSync(dir).filter((f) => /^\d+-.*\.sql$/.test(f)).sort()
  const applied: string[] = []
  for (const file of files) {
    const sql = readFileSync(dir + file, 'utf8')
    // Checked inside the write transaction, so two processes starting at once apply a file once.
    db.transaction(() => {
      if (isDone.get(file)) return
      db.exec(sql)
      db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)').run(file, Date.now())
      applied.push(file)
    }).immediate()
  }
  return applied
}
