// One series whose next game cannot start (its next board was removed from boards/) holds up no
// other series, and advanceSeries does not throw (services/series.ts): it threw out of the loop, so
// every later series stopped, and in server.ts the rest of the tick, the mail included, was
// skipped every tick (found by a hostile review). Putting the board back lets the series go on.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { abandonGame } from '../../src/server/services/games.js'
import { membership } from '../../src/server/services/membership.js'
import { createSeries } from '../../src/server/services/series.js'
import { user } from '../../src/testkit/games.js'
import { HOUR, tempDir, testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
const boards = tempDir('botwars-boards-')
beforeAll(async () => {
  mkdirSync(boards, { recursive: true })
  for (const b of ['training-floor', 'the-foundry']) copyFileSync(join('boards', `${b}.json`), join(boards, `${b}.json`))
  t = await testApp({ boardsDir: boards })
})
afterAll(async () => { await t.close(); rmSync(boards, { recursive: true, force: true }) })

it('one series that cannot start its next game does not stop the other series from advancing', () => {
  const ctx = t.app.services
  const gm = user(ctx, 'gm@example.org', 'Gemma')
  const broken = createSeries(ctx, gm.id, { name: 'Broken', boards: ['training-floor', 'the-foundry'], seats: ['random', 'random'], rounds: 1, turnLengthHours: 24 })
  t.clock.now += HOUR
  const fine = createSeries(ctx, gm.id, { name: 'Fine', boards: ['training-floor', 'training-floor'], seats: ['random', 'random'], rounds: 1, turnLengthHours: 24 })
  for (const s of [broken, fine]) {
    const first = ctx.bots.seriesGames(s.id)[0]!
    abandonGame(ctx, membership(ctx, first.game_id, { user: gm }), 'next')
  }
  rmSync(join(boards, 'the-foundry.json')) // the operator renamed or removed a board
  let threw: unknown = null
  try { t.app.advanceSeries() } catch (err) { threw = err }
  // The healthy series must have started its second game whatever the broken one does.
  expect(ctx.bots.seriesGames(fine.id).length).toBe(2)
  expect(threw).toBeNull()
  // The operator puts the board back: the broken series goes on at the next tick.
  copyFileSync(join('boards', 'the-foundry.json'), join(boards, 'the-foundry.json'))
  t.app.advanceSeries()
  expect(ctx.bots.seriesGames(broken.id).length).toBe(2)
})
