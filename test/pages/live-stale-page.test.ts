// A page and its live stream are two requests: a turn may close, or be published, between them (a
// slow load, a tab restored). The page carries the game as it showed it (data-live-at), and live.js
// treats a first message that differs as a catch-up: the page is reloaded, once; a page that still
// differs after that gets a note instead, so it can never reload without end. Found by a hostile
// review: the first message ("hello") was ignored, and the page stayed on a turn that had closed.
// Run here: the real server's messages fed to the real views/static/live.js in a stand-in page.
import { readFileSync } from 'node:fs'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { messages, openStream, waitUntil } from '../browser/streams.js'
import { closeTurn, startedGame } from '../gm/helpers.js'
import { PLAYERS, testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
let origin: string
const streams: ReturnType<typeof openStream>[] = []
beforeAll(async () => { t = await testApp(); origin = await t.app.listen({ host: '127.0.0.1', port: 0 }) })
afterAll(async () => { for (const s of streams) s.close(); await t.close() })

/** live.js in a stand-in page with these body attributes and session storage: what it did when handed `events`. */
function runLiveJs(attributes: Record<string, string>, events: { data: unknown }[], storage = new Map<string, string>()) {
  let reloaded = false
  const note = { hidden: true, textContent: '', appendChild() {} }
  const listeners: Record<string, (e: { data: string }) => void> = {}
  const document = {
    title: 'Test game — BotWars',
    body: { getAttribute: (n: string) => attributes[n] ?? null, hasAttribute: (n: string) => n in attributes, setAttribute() {} },
    getElementById: (id: string) => (id === 'live-note' ? note : null),
    querySelector: () => null, querySelectorAll: () => [], addEventListener() {}, createElement: () => ({}),
  }
  class EventSource { constructor(public url: string) {} addEventListener(kind: string, f: (e: { data: string }) => void) { listeners[kind] = f } }
  const sessionStorage = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => { storage.set(k, v) } }
  const window = { EventSource, sessionStorage, location: { href: 'http://x/games/g', pathname: '/games/g', reload: () => { reloaded = true } }, addEventListener() {} }
  runInNewContext(readFileSync('views/static/live.js', 'utf8'), { window, document, EventSource })
  for (const e of events) listeners.update!({ data: JSON.stringify(e.data) })
  return { reloaded, noted: !note.hidden ? note.textContent : null }
}

const bodyAttributes = (html: string) => Object.fromEntries([...html.matchAll(/ (data-live(?:-at)?)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]))

async function firstMessage(path: string, cookie: string) {
  const stream = openStream({ origin }, path, { cookie })
  streams.push(stream)
  await waitUntil(() => messages(stream.text()).some((m) => m.event === 'update'))
  return messages(stream.text()).filter((m) => m.event === 'update')[0]!
}

it('a game page rendered before its turn closed is reloaded once when its stream opens after', async () => {
  const { gameId, players: [ann] } = await startedGame(t.app, {}, PLAYERS.slice(0, 2))
  const cookie = ann!.headers.cookie!
  const page = await t.app.inject({ url: `/games/${gameId}`, headers: { cookie } })
  const attributes = bodyAttributes(page.body)
  expect(attributes['data-live-at']).toBe('running.1.open.0')
  await closeTurn(t.app, t.clock, ann!, gameId) // turn 1 closes while the page is still loading
  const hello = await firstMessage(`/games/${gameId}/live`, cookie)
  expect(hello.data).toMatchObject({ turnStatus: 'draft', kind: 'hello' })
  const storage = new Map<string, string>()
  expect(runLiveJs(attributes, [hello], storage)).toEqual({ reloaded: true, noted: null })
  // Had the reloaded page still shown the old state, it is not reloaded again: a note says so.
  expect(runLiveJs(attributes, [hello], storage)).toMatchObject({ reloaded: false, noted: expect.stringContaining('moved on') })
})

it('a page whose game has not moved is left alone by the first message', async () => {
  const { gameId, players: [ann] } = await startedGame(t.app, {}, PLAYERS.slice(0, 2).map((p) => ({ ...p, email: `still-${p.email}` })))
  const cookie = ann!.headers.cookie!
  const attributes = bodyAttributes((await t.app.inject({ url: `/games/${gameId}`, headers: { cookie } })).body)
  const hello = await firstMessage(`/games/${gameId}/live`, cookie)
  expect(runLiveJs(attributes, [hello])).toEqual({ reloaded: false, noted: null })
})
