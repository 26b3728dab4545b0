// Live streams are bounded (live/routes.ts): one signed-in person, or one address of origin on a
// spectator link, opening more than the limit is refused with 429, and closing one lets another in.
// Found by a hostile review: 300 streams from one session (and 300 from one address) were all
// accepted, and each change of the game then worked out a view for every one of them.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { STREAMS_PER_PERSON, STREAMS_PER_SPECTATOR_ADDRESS } from '../../src/server/live/routes.js'
import { messages, openStream, waitUntil } from '../browser/streams.js'
import { startedGame } from '../gm/helpers.js'
import { PLAYERS, testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
let origin: string
const streams: ReturnType<typeof openStream>[] = []
beforeAll(async () => { t = await testApp(); origin = await t.app.listen({ host: '127.0.0.1', port: 0 }) })
afterAll(async () => { for (const s of streams) s.close(); await t.close() })

async function openMany(count: number, path: string, headers: Record<string, string> = {}) {
  const opened = Array.from({ length: count }, () => openStream({ origin }, path, headers))
  streams.push(...opened)
  await waitUntil(() => opened.every((s) => s.status() !== 0))
  return opened
}

it('refuses a person a stream over the limit, across games and tabs, and lets one in when another closes', async () => {
  const { gameId, players: [ann, bob] } = await startedGame(t.app, {}, PLAYERS.slice(0, 2))
  const cookie = { cookie: ann!.headers.cookie! }
  const first = await openMany(STREAMS_PER_PERSON, `/games/${gameId}/live`, cookie)
  expect(first.map((s) => s.status())).toEqual(first.map(() => 200))
  const [over] = await openMany(1, `/games/${gameId}/live`, cookie)
  expect(over!.status()).toBe(429)
  // Another person is not held up by Ann's streams.
  const [bobs] = await openMany(1, `/games/${gameId}/live`, { cookie: bob!.headers.cookie! })
  expect(bobs!.status()).toBe(200)
  // Ann closes a tab: once the server has seen the stream go, she may open one again.
  first[0]!.close()
  let again = (await openMany(1, `/games/${gameId}/live`, cookie))[0]!
  // Asked again until then; the 30 s only guard against a hang (it was 100 tries, some 5 s, which a loaded machine could use up).
  for (const until = Date.now() + 30_000; again.status() === 429 && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 50))
    again = (await openMany(1, `/games/${gameId}/live`, cookie))[0]!
  }
  expect(again.status()).toBe(200)
  await waitUntil(() => messages(again.text()).length > 0)
})

it('refuses one address more spectator streams than the limit', async () => {
  const { gameId } = await startedGame(t.app, {}, PLAYERS.slice(0, 2).map((p) => ({ ...p, email: `w-${p.email}` })))
  const token = t.app.services.games.byId(gameId)!.public_token
  const opened = await openMany(STREAMS_PER_SPECTATOR_ADDRESS + 1, `/watch/${token}/live`)
  expect(opened.filter((s) => s.status() === 200)).toHaveLength(STREAMS_PER_SPECTATOR_ADDRESS)
  expect(opened.filter((s) => s.status() === 429)).toHaveLength(1)
})
