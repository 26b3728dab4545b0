// `botwars backup` copies a live database (one with an open writer in WAL mode) consistently.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from '../../src/server/plugins/sqlite.js'
import { afterAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const dir = mkdtempSync(join(tmpdir(), 'botwars-backup-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function botwars(...args: string[]) {
  return spawnSync(process.execPath, [join(root, 'bin', 'botwars.mjs'), ...args], { cwd: root, encoding: 'utf8' })
}
const withEnv = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin', 'botwars.mjs'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } })

describe('botwars backup', () => {
  it('copies a database that another connection is writing to', () => {
    const live = new Database(join(dir, 'live.db'))
    live.pragma('journal_mode = WAL')
    live.exec('CREATE TABLE moves (id INTEGER PRIMARY KEY, note TEXT)')
    const insert = live.prepare('INSERT INTO moves (note) VALUES (?)')
    for (let i = 0; i < 500; i++) insert.run(`move ${i}`)
    // The writer stays open with committed rows still in the WAL, as a running server would.
    const run = botwars('backup', join(dir, 'copy.db'), '--database', join(dir, 'live.db'))
    expect(run.status, run.stderr).toBe(0)
    live.close()
    const copy = new Database(join(dir, 'copy.db'), { readonly: true })
    expect(copy.prepare('SELECT count(*) AS n FROM moves').get()).toEqual({ n: 500 })
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok')
    copy.close()
  })

  it('backs up $DATABASE_PATH when no --database is given, as the README writes the command', () => {
    // Found by a hostile review: without --database the FILE argument was dropped, and the usage printed.
    const db = new Database(join(dir, 'env.db'))
    db.exec('CREATE TABLE t (x)')
    db.close()
    const run = withEnv({ DATABASE_PATH: join(dir, 'env.db') }, 'backup', join(dir, 'env-copy.db'))
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain('backed up')
  })

  it('refuses to overwrite a file or read a database that is not there', () => {
    const missing = botwars('backup', join(dir, 'x.db'), '--database', join(dir, 'nope.db'))
    expect(missing.status).toBe(2)
    expect(missing.stderr).toMatch(/no database at/)
    new Database(join(dir, 'taken.db')).close()
    const taken = botwars('backup', join(dir, 'taken.db'), '--database', join(dir, 'taken.db'))
    expect(taken.status).toBe(2)
    expect(taken.stderr).toMatch(/already exists/)
  })
})
