// A live stream (GET /games/:id/live) is allowed when it opens; it must not outlast the right to
// it. A player the GM removed, or one who signed out everywhere, kept an open stream that went on
// telling a member's view at every change: who has sent a program this turn (a spectator is not
// told even how many), the reopened player, what waits. Written first; a real server on
// 127.0.0.1 and a streaming fetch, as a browser's EventSource reads it.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PLAYERS, setUpGame, testApp, type Client, type TestApp } from '../server/helpers.js'
import { firstCards } from '../mail/helpers.js'

let t: TestApp
let base: string
let gm: Client, ann: Client, bob: Client, cid: Client
let gameId: string

beforeAll(async () => {
  t = await testApp()
  const set = await setUpGame(t.app, PLAYERS.slice(0, 3))
  ;({ gm, gameId } = set)
  ;[ann, bob, cid] = set.players as [Client, Client, Client]
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`)).status).toBe(200)
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
})
const opened: Stream[] = []
afterAll(async () => {
  for (const stream of opened) stream.close()
  await t.close()
})

interface Stream { events: { data: Record<string, unknown> }[]; ended: boolean; close(): void }

/** Opens the member's live stream with the client's session and collects its events until it ends. */
async function follow(c: Client): Promise<Stream> {
  const abort = new AbortController()
  const res = await fetch(`${base}/games/${gameId}/live`, { headers: { cookie: c.headers.cookie!, accept: 'text/event-stream' }, signal: abort.signal })
  expect(res.status).toBe(200)
  const stream: Stream = { events: [], ended: false, close: () => abort.abort() }
  opened.push(stream)
  void (async () => {
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      const reader = res.body!.getReader()
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffer += decoder.decode(read.value, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n')
          if (data) stream.events.push({ data: JSON.parse(data) as Record<string, unknown> })
        }
      }
    } catch { /* aborted by the test */ }
    stream.ended = true
  })()
  await until(() => stream.events.length > 0)
  return stream
}

/** Waits (at most 10 s) for a condition the server's live poll (every 250 ms) will bring about. */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 25) {
    if (waited > 10_000) throw new Error('the live stream did not get there in 10 s')
    await new Promise((r) => setTimeout(r, 25))
  }
}

const submit = async (c: Client) => {
  const res = await c.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await firstCards(c, gameId, 1) })
  expect(res.status).toBe(201)
}

it('ends the stream of a player the GM removed, before it tells them anything more', async () => {
  const kept = await follow(ann)
  const gmStream = await follow(gm) // the GM, who does not play, follows too
  const removed = await follow(bob)
  expect(removed.events[0]!.data).toHaveProperty('submitted') // a member's view while Bob plays
  expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/2/remove`, { reason: 'gone quiet' })).status).toBe(200)
  const told = removed.events.length
  await submit(cid)
  // Ann, still playing, and the GM are told Cid's program is in; Bob's stream ends with nothing more.
  for (const still of [kept, gmStream]) await until(() => still.events.some((e) => JSON.stringify(e.data.submitted).includes('P3')))
  await until(() => removed.ended)
  expect(removed.events.slice(told).map((e) => e.data)).toEqual([])
  kept.close()
  gmStream.close()
})

it('ends the stream of a session that signed out everywhere, at the next change', async () => {
  const stream = await follow(cid)
  expect((await cid.call('POST', '/api/v1/auth/logout-everywhere')).status).toBeLessThan(300)
  const told = stream.events.length
  await submit(ann)
  await until(() => stream.ended)
  expect(stream.events.slice(told).map((e) => e.data)).toEqual([])
})
