// R29 through the server: a robot reinstated at the end of one turn takes the facing its player
// names in the next submission (A4), and the turn's report says so.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { HOUR, PLAYERS, setUpGame, testApp, type TestApp } from './helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

it('applies the facing named after a reinstatement (R29, A4)', async () => {
  const { gm, gameId, players } = await setUpGame(t.app, PLAYERS.slice(0, 2), { reviewWindowHours: 0 })
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: 'go' })).status).toBe(200)

  // Turn 1 passes with no programs in: the server fills them (R9) and publishes at once.
  const first = (await gm.call('GET', `/api/v1/games/${gameId}`)).json.currentTurn
  t.clock.now = Date.parse(first.deadline) + 1000
  await t.app.runDueWork()
  const second = (await gm.call('GET', `/api/v1/games/${gameId}`)).json.currentTurn
  expect(second.number).toBe(2)

  // Make Ann's robot one reinstated at the end of turn 1, as if it had fallen into a pit.
  const turn = t.app.db.prepare('SELECT id, dealt_state_json FROM turns WHERE game_id = ? AND number = 2').get(gameId) as { id: number; dealt_state_json: string }
  const state = JSON.parse(turn.dealt_state_json)
  const ann = state.robots.find((r: any) => r.player === 'P1')
  Object.assign(ann, { mode: 'virtual', placedAfterTurn: 1, facing: 'N', robotsLeft: 2 })
  t.app.db.prepare('UPDATE turns SET dealt_state_json = ? WHERE id = ?').run(JSON.stringify(state), turn.id)

  const [annClient] = players
  const view = (await annClient!.call('GET', `/api/v1/games/${gameId}/turns/2`)).json
  const cards = (view.me.hand as string[]).slice(0, 5)
  const sent = await annClient!.call('POST', `/api/v1/games/${gameId}/turns/2/submission`, { cards, rebootNext: false, facing: 'W' })
  expect(sent.status, sent.text).toBe(201)

  t.clock.now = Date.parse(second.deadline) + HOUR
  await t.app.runDueWork()
  const published = (await gm.call('GET', `/api/v1/games/${gameId}/turns/2`)).json
  const chosen = published.result.start.events.filter((e: any) => e.kind === 'facing-chosen')
  expect(chosen).toEqual([expect.objectContaining({ player: 'P1', facing: 'W' })])
  expect(published.result.start.robots.find((r: any) => r.player === 'P1').facing).toBe('W')
})
