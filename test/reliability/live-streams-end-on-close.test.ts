// Shutdown with a live page open ends its stream at once (live/routes.ts preClose, hub.close). A
// stream is never idle, so the server waited for it and sat out its whole grace period before
// dropping it (found by a hostile review). The race only tells a hang from an end (without the fix
// app.close() never returns here: the test app has no grace period), so its 30 s are a hang guard
// that no loaded machine comes near, not a measure (it was 3 s).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { messages, openStream, waitUntil } from '../browser/streams.js'
import { startedGame } from '../gm/helpers.js'
import { testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
let closed = false
beforeAll(async () => { t = await testApp() })
afterAll(async () => {
  if (!closed) t.app.server.closeAllConnections()
  await t.close().catch(() => {})
})

it('app.close() ends open live streams at once instead of waiting on them', async () => {
  const { gm, gameId } = await startedGame(t.app)
  const game = t.app.services.games.byId(gameId)!
  const origin = await t.app.listen({ host: '127.0.0.1', port: 0 })
  const member = openStream({ origin }, `/games/${gameId}/live`, { cookie: gm.headers.cookie! })
  const spectator = openStream({ origin }, `/watch/${game.public_token}/live`)
  await waitUntil(() => messages(member.text()).length > 0 && messages(spectator.text()).length > 0)
  const closing = t.app.close().then(() => { closed = true })
  const inTime = await Promise.race([closing.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 30_000))])
  if (!inTime) t.app.server.closeAllConnections() // what server.ts does after its grace period
  await closing
  expect({ inTime, endedByServer: member.ended() && spectator.ended() }).toEqual({ inTime: true, endedByServer: true })
})
