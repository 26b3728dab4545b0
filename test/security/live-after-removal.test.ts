// A live stream (GET /games/:id/live) is allowed when it opens; it must not outlast the right to
// it. A player the GM removed, or one who signed out everywhere, kept an open stream that went on
// telling a member's view at every change: who has sent a program this turn (a spectator is not
// told even how many), the reopened player, what waits. Written first; a real server on
// 127.0.0.1 read as a browser's EventSource reads it (no browser needed).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { messages, openStream, waitUntil } from '../browser/streams.js'
import { firstCards } from '../mail/helpers.js'
import { PLAYERS, setUpGame, testApp, type Client, type TestApp } from '../server/helpers.js'

let t: TestApp
let origin: string
let gm: Client, ann: Client, bob: Client, cid: Client
let gameId: string
const opened: ReturnType<typeof openStream>[] = []

beforeAll(async () => {
  t = await testApp()
  const set = await setUpGame(t.app, PLAYERS.slice(0, 3))
  ;({ gm, gameId } = set)
  ;[ann, bob, cid] = set.players as [Client, Client, Client]
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`)).status).toBe(200)
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(async () => {
  for (const stream of opened) stream.close()
  await t.close()
})

/** The member's live stream, opened with the client's session, once its first message is in. */
async function follow(c: Client) {
  const stream = openStream({ origin }, `/games/${gameId}/live`, { cookie: c.headers.cookie! })
  opened.push(stream)
  await waitUntil(() => updates(stream).length > 0)
  expect(stream.status()).toBe(200)
  return stream
}

const updates = (stream: ReturnType<typeof openStream>) => messages(stream.text()).filter((m) => m.event === 'update').map((m) => m.data!)
const toldOf = (stream: ReturnType<typeof openStream>, player: string) => updates(stream).some((d) => JSON.stringify(d.submitted).includes(player))

const submit = async (c: Client) => {
  const res = await c.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await firstCards(c, gameId, 1) })
  expect(res.status).toBe(201)
}

it('ends the stream of a player the GM removed, before it tells them anything more', async () => {
  const kept = await follow(ann)
  const gmStream = await follow(gm) // the GM, who does not play, follows too
  const removed = await follow(bob)
  expect(updates(removed)[0]).toHaveProperty('submitted') // a member's view while Bob plays
  expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/2/remove`, { reason: 'gone quiet' })).status).toBe(200)
  const told = updates(removed).length
  await submit(cid)
  // Ann, still playing, and the GM are told Cid's program is in; Bob's stream ends with nothing more.
  for (const still of [kept, gmStream]) await waitUntil(() => toldOf(still, 'P3'))
  await waitUntil(() => removed.ended())
  expect(updates(removed).slice(told)).toEqual([])
})

it('ends the stream of a session that signed out everywhere, at the next change', async () => {
  const stream = await follow(cid)
  expect((await cid.call('POST', '/api/v1/auth/logout-everywhere')).status).toBeLessThan(300)
  const told = updates(stream).length
  await submit(ann)
  await waitUntil(() => stream.ended())
  expect(updates(stream).slice(told)).toEqual([])
})
