// The clockwork's advanceSeries and a GM's stop of the same series, at the same moment (services/
// series.ts). advanceSeries lists the running series, then takes each in a transaction of its own;
// a stop can land between the two. The series' state is read again inside that transaction, so a
// stopped series never gets another game; and the check and the start are one transaction, so a
// stop from another process waits for it rather than slipping in between.
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import Database from '../../src/server/plugins/sqlite.js'
import { membership } from '../../src/server/services/membership.js'
import { createSeries, stopSeries } from '../../src/server/services/series.js'
import { endWithPlacings } from '../../src/server/services/standings.js'
import { user } from '../../src/testkit/games.js'
import { tempDir, testApp, type TestApp } from './helpers.js'

let t: TestApp
const dir = tempDir()
let other: Database.Database
let interfere: ((point: string) => void) | null = null
beforeAll(async () => {
  t = await testApp({ dir, crashPoint: (name) => interfere?.(name) })
  other = new Database(join(dir, 'botwars.db'), { timeout: 0 })
})
afterAll(async () => { other.close(); await t.close() })

/** A series of bots (two games unless told) whose first game has just ended: the next tick starts game 2, or finishes a one-game series. */
function seriesBetweenGames(name: string, boards = ['training-floor', 'training-floor']) {
  const ctx = t.app.services
  const gm = user(ctx, 'gm@example.org', 'Gemma')
  const series = createSeries(ctx, gm.id, { name, boards, seats: ['random', 'random'], rounds: 1, turnLengthHours: 24 })
  const first = ctx.bots.seriesGames(series.id)[0]!
  endWithPlacings(ctx, membership(ctx, first.game_id, { user: gm }), 'next one')
  return { ctx, gm, series }
}

it('starts no game for a series stopped after the clockwork listed it as running', () => {
  const { ctx, gm, series } = seriesBetweenGames('Listed')
  let stopped = false
  interfere = (point) => {
    if (point !== 'series-listed' || stopped) return
    stopped = true
    stopSeries(ctx, series.id, gm.id, 'after-game', 'the GM stopped it meanwhile')
  }
  const started = t.app.advanceSeries()
  interfere = null
  expect(stopped).toBe(true)
  expect(started).toBe(0)
  expect(ctx.bots.seriesGames(series.id)).toHaveLength(1)
  expect(ctx.bots.series(series.id)!.status).toBe('stopped')
})

it('refuses a stop that lands after the last game ended and before the clockwork finishes the series: it finishes', () => {
  const { ctx, gm, series } = seriesBetweenGames('Played out', ['training-floor'])
  let refusal: unknown = null
  interfere = (point) => {
    if (point !== 'series-listed' || refusal) return
    try {
      stopSeries(ctx, series.id, gm.id, 'now', 'the GM stopped it meanwhile')
      refusal = 'none'
    } catch (err) {
      refusal = err
    }
  }
  t.app.advanceSeries()
  interfere = null
  expect(refusal).toMatchObject({ statusCode: 409, message: 'the series has already played its last game: it ends as finished' })
  const after = ctx.bots.series(series.id)!
  expect([after.status, after.stop_when, after.stop_reason]).toEqual(['finished', null, null])
})

it('makes a stop from another process wait while the clockwork checks and starts the next game', () => {
  const { ctx, gm, series } = seriesBetweenGames('Checked')
  let attempts = 0
  let otherWrote = false
  interfere = (point) => {
    if (point !== 'series-advance-checked') return
    attempts++
    try {
      other.prepare("UPDATE series SET status = 'stopped', ended_at = 1 WHERE id = ?").run(series.id)
      otherWrote = true
    } catch (err) {
      expect((err as { code?: string }).code).toBe('SQLITE_BUSY')
    }
  }
  expect(t.app.advanceSeries()).toBe(1)
  interfere = null
  expect([attempts, otherWrote]).toEqual([1, false])
  // Game 2 started on a running series; the stop that comes after it abandons game 2, and no game 3 follows.
  const games = ctx.bots.seriesGames(series.id)
  expect(games).toHaveLength(2)
  stopSeries(ctx, series.id, gm.id, 'now', 'stopped after all')
  t.app.advanceSeries()
  expect(ctx.bots.seriesGames(series.id).map((g) => g.status)).toEqual(['finished', 'abandoned'])
  expect(ctx.bots.series(series.id)!.status).toBe('stopped')
})
