// Migration 048 lets a series be stopped: it rebuilds `series` for its new status, and series_games
// cascades from it (ON DELETE CASCADE, with foreign keys on while migrations run: migrations/
// README.md). A database an older release wrote, with a series under way, keeps the series and its
// games through the upgrade, and the clockwork goes on with it.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import Database from '../../src/server/plugins/sqlite.js'
import { migrate } from '../../src/server/plugins/db.js'
import { tempDir, testApp, type TestApp } from './helpers.js'

const MIGRATIONS = new URL('../../migrations/', import.meta.url)
let t: TestApp | undefined
afterAll(async () => { await t?.close() })

it('keeps every series and its games through the upgrade', async () => {
  const dir = tempDir()
  copyFileSync(new URL('../fixtures/upgrade/release-040-f44fb1f.db', import.meta.url), join(dir, 'botwars.db'))
  // The schema as it was before 048, with a series of two games written by that release's rules.
  const before = join(dir, 'migrations-before-048') + '/'
  mkdirSync(before)
  for (const file of readdirSync(MIGRATIONS).filter((f) => /^\d+-.*\.sql$/.test(f) && f < '048')) copyFileSync(new URL(file, MIGRATIONS), before + file)
  const db = new Database(join(dir, 'botwars.db'))
  db.pragma('foreign_keys = ON')
  migrate(db, before)
  const [setup, running] = db.prepare("SELECT id FROM games WHERE status IN ('setup', 'running') ORDER BY status DESC, id").pluck().all() as string[]
  const gm = db.prepare('SELECT gm_user_id FROM games WHERE id = ?').pluck().get(running) as number
  db.prepare(`INSERT INTO series (id, name, gm_user_id, boards_json, seats_json, games_total, status, created_at)
    VALUES ('old-series', 'Old cup', ?, '["training-floor"]', '["random","random"]', 3, 'running', 1)`).run(gm)
  const addGame = db.prepare("INSERT INTO series_games (series_id, position, game_id, seats_json) VALUES ('old-series', ?, ?, '[0,1]')")
  addGame.run(0, setup)
  addGame.run(1, running)
  db.close()

  t = await testApp({ dir })
  const ctx = t.app.services
  expect(ctx.bots.series('old-series')).toMatchObject({ name: 'Old cup', status: 'running', games_total: 3, stop_when: null, stop_reason: null })
  expect(ctx.bots.seriesGames('old-series').map((g) => [g.position, g.game_id])).toEqual([[0, setup], [1, running]])
  expect(ctx.db.prepare('PRAGMA foreign_key_check').all()).toEqual([])
})
