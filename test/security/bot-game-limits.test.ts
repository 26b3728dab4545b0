// Practice games and series run built-in bots on the server's one thread: a practice submission
// with seven strong bots costs about a second of CPU, and a series of bots plays itself from the
// clockwork. So one person may run only a few of each at a time (services/bot-limits.ts).
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_RUNNING_PRACTICE_GAMES, MAX_RUNNING_SERIES } from '../../src/server/services/bot-limits.js'
import { signIn, testApp, type TestApp } from '../server/helpers.js'

let t: TestApp | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

describe('a person starting bot games in bulk', () => {
  it(`runs at most ${MAX_RUNNING_PRACTICE_GAMES} practice games at a time; abandoning one frees its place; others are not limited by it`, async () => {
    t = await testApp()
    const solo = await signIn(t.app, 'solo@example.org', 'Solo')
    const started: string[] = []
    for (let i = 0; i < MAX_RUNNING_PRACTICE_GAMES; i++) {
      const res = await solo.call('POST', '/api/v1/practice', { board: 'training-floor', bots: ['random'] })
      expect(res.status, res.text).toBe(201)
      started.push(res.json.id)
    }
    const gamesBefore = (t.app.services.db.prepare('SELECT COUNT(*) AS n FROM games').get() as { n: number }).n
    const refused = await solo.call('POST', '/api/v1/practice', { board: 'training-floor', bots: ['random'] })
    expect(refused.status).toBe(429)
    expect(refused.json.error).toBe('rate_limited')
    expect(refused.json.message).toContain(`${MAX_RUNNING_PRACTICE_GAMES} practice games`)
    expect((t.app.services.db.prepare('SELECT COUNT(*) AS n FROM games').get() as { n: number }).n).toBe(gamesBefore)
    // Someone else still may.
    const other = await signIn(t.app, 'other@example.org', 'Other')
    expect((await other.call('POST', '/api/v1/practice', { board: 'training-floor', bots: ['random'] })).status).toBe(201)
    // The GM's own games with bots are not practice games and do not count.
    expect((await solo.call('POST', '/api/v1/games', { name: 'Real', board: 'training-floor', seats: 2, bots: ['greedy'] })).status).toBe(201)
    expect((await solo.call('POST', `/api/v1/games/${started[0]}/abandon`, { reason: 'enough' })).status).toBe(200)
    expect((await solo.call('POST', '/api/v1/practice', { board: 'training-floor', bots: ['random'] })).status).toBe(201)
  })

  it(`runs at most ${MAX_RUNNING_SERIES} series at a time`, async () => {
    t = await testApp()
    const gm = await signIn(t.app, 'gm@example.org', 'Gemma')
    const series = { name: 'Cup', boards: ['training-floor'], seats: ['random', 'random'], rounds: 1 }
    for (let i = 0; i < MAX_RUNNING_SERIES; i++) expect((await gm.call('POST', '/api/v1/series', series)).status).toBe(201)
    const refused = await gm.call('POST', '/api/v1/series', series)
    expect(refused.status).toBe(429)
    expect(refused.json.message).toContain(`${MAX_RUNNING_SERIES} series`)
    expect((t.app.services.db.prepare('SELECT COUNT(*) AS n FROM series').get() as { n: number }).n).toBe(MAX_RUNNING_SERIES)
    const other = await signIn(t.app, 'other@example.org', 'Other')
    expect((await other.call('POST', '/api/v1/series', series)).status).toBe(201)
  })
})
