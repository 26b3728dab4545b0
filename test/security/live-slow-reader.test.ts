// A live stream whose reader never reads is cut off (live/routes.ts MAX_UNREAD_BYTES). Found by a
// hostile review: the server went on writing every change into the socket's buffer, so one client
// that opened a stream and stopped reading held a little more of the server's memory with each
// change of the game, for as long as it kept the connection open.
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { MAX_UNREAD_BYTES } from '../../src/server/live/routes.js'
import { startedGame } from '../gm/helpers.js'
import { PLAYERS, testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
let port: number
beforeAll(async () => {
  t = await testApp()
  const origin = await t.app.listen({ host: '127.0.0.1', port: 0 })
  port = Number(new URL(origin).port)
})
afterAll(async () => { await t.close() })

/** Opens a member's stream on a raw socket that reads the response's head, then stops reading. */
async function stalledStream(path: string, cookie: string): Promise<{ socket: Socket; closed: () => boolean }> {
  const socket = connect(port, '127.0.0.1')
  let closed = false
  socket.on('close', () => { closed = true })
  socket.on('error', () => {})
  await new Promise<void>((resolve) => socket.once('connect', resolve))
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nCookie: ${cookie}\r\n\r\n`)
  const head = await new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))))
  expect(head).toMatch(/^HTTP\/1\.1 200/)
  socket.pause()
  return { socket, closed: () => closed }
}

it('ends a stream whose reader has stopped reading, and keeps serving the readers that read', async () => {
  const { gameId, players: [ann, bob] } = await startedGame(t.app, {}, PLAYERS.slice(0, 2))
  const stalled = await stalledStream(`/games/${gameId}/live`, ann!.headers.cookie!)
  const live = t.app.live!
  await expect.poll(() => live.followerCount).toBe(1)
  const turn = t.app.services.turns.current(gameId)!
  // Each new deadline is a change every follower is told about. The socket's kernel buffers take
  // the first few megabytes; what the server holds beyond them is bounded.
  let changes = 0
  for (; changes < 40_000 && live.followerCount > 0; changes++) {
    t.app.services.turns.setDeadline(turn.id, turn.deadline + (changes + 1) * 60_000, false)
    live.poll()
    if (changes % 200 === 0) await new Promise((r) => setImmediate(r))
  }
  expect(live.followerCount).toBe(0)
  // The server dropped the connection: reading again, the client finds it closed.
  stalled.socket.resume()
  await expect.poll(() => stalled.closed()).toBe(true)
  expect(MAX_UNREAD_BYTES).toBeLessThanOrEqual(256 * 1024)
  // Bob, who reads, can follow the game as before.
  const page = await fetch(`http://127.0.0.1:${port}/games/${gameId}/live`, { headers: { accept: 'text/event-stream', cookie: bob!.headers.cookie! } })
  expect(page.status).toBe(200)
  const reader = page.body!.getReader()
  const first = new TextDecoder().decode((await reader.read()).value)
  expect(first).toContain('event: update')
  await reader.cancel()
})
