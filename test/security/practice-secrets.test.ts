// A practice game (a person alone with bots) attacked for the bots' programs before the turn closes.
// The person is the game's GM and plays (services/bots.ts createPracticeGame), so A14 holds: the
// bots' programs are in as soon as the answer to "start" comes back, and nothing the person can read
// shows one of their cards (the answer itself, the API, the console, the pages, the pictures, the
// spectator link) until their own program is final. Nobody else signed in opens the game at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardLabel } from '../../src/render/cards.js'
import { signIn, testApp, type Client, type TestApp } from '../server/helpers.js'

let t: TestApp
let solo: Client
let eve: Client
let gameId: string
let publicToken: string
let started: string
/** The bots' cards programmed for turn 1, as stored (codes like FWD2:730). */
let botCards: string[]

beforeAll(async () => {
  t = await testApp()
  solo = await signIn(t.app, 'solo@example.org', 'Solo')
  eve = await signIn(t.app, 'eve@example.org', 'Eve')
  const res = await solo.call('POST', '/api/v1/practice', { board: 'training-floor', bots: ['greedy', 'strong', 'random'] })
  expect(res.status, res.text).toBe(201)
  started = res.text
  gameId = res.json.id
  publicToken = res.json.publicToken
  const turn = t.app.services.turns.byNumber(gameId, 1)!
  const rows = t.app.services.turns.latestSubmissions(turn.id)
  botCards = rows.filter((r) => r.player_id !== 'P1').flatMap((r) => JSON.parse(r.cards_json) as string[])
})
afterAll(async () => { await t.close() })

const page = (c: Client | null, url: string) => t.app.inject({ method: 'GET', url, headers: c ? { cookie: c.headers.cookie! } : {} })

function expectNoBotCard(where: string, text: string) {
  for (const card of botCards) {
    expect(text, `${where} shows ${card}`).not.toContain(card)
    expect(text, `${where} shows ${cardLabel(card)}`).not.toContain(cardLabel(card))
  }
}

describe('a practice game before the person\'s program is in', () => {
  it('has the three bots\' programs in already', () => {
    expect(botCards.length).toBe(15)
    expect(JSON.parse(started).currentTurn.submitted.filter((s: { submitted: boolean }) => s.submitted)).toHaveLength(3)
  })

  it('shows the person none of the bots\' cards, anywhere they can read', async () => {
    expectNoBotCard('the answer to POST /practice', started)
    const api = `/api/v1/games/${gameId}`
    for (const url of [api, `${api}/turns/1`, `${api}/turns/1/submissions`, `${api}/history`, `${api}/standings`, `${api}/messages`, `${api}/webhook`]) {
      const res = await solo.call('GET', url)
      expect(res.status, url).toBe(200)
      expectNoBotCard(url, res.text)
    }
    expect((await solo.call('GET', `${api}/turns/1`)).json.programs).toBeNull()
    for (const url of [`/games/${gameId}`, `/games/${gameId}/gm`, `/games/${gameId}/turns/1/submit`, `/games/${gameId}/standings`,
      `/games/${gameId}/pictures/board.svg`, `/games/${gameId}/turns/1/pictures/end.svg`, `/games/${gameId}/turns/1/replay/1`]) {
      const res = await page(solo, url)
      expect(res.statusCode, url).toBeLessThan(500)
      expectNoBotCard(url, res.body)
    }
    for (const url of [`/api/v1/public/${publicToken}`, `/watch/${publicToken}`]) {
      const res = await page(null, url)
      expect(res.statusCode, url).toBe(200)
      expectNoBotCard(url, res.body)
    }
  })

  it('does not let the person lock an empty program to read them', async () => {
    const lock = await solo.call('POST', `/api/v1/games/${gameId}/turns/1/lock`, { confirm: true, reason: 'peek' })
    expect(lock.status).toBe(409)
    expect((await solo.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.programs).toBeNull()
  })

  it('is not there for another signed-in person, by the API, the pages, the live stream or a webhook', async () => {
    const api = `/api/v1/games/${gameId}`
    for (const url of [api, `${api}/turns/1`, `${api}/turns/1/submissions`, `${api}/history`, `${api}/webhook`]) {
      expect((await eve.call('GET', url)).status, url).toBe(404)
    }
    expect((await eve.call('POST', `${api}/webhook`, { url: 'http://127.0.0.1:9/' })).status).toBe(404)
    expect((await eve.call('POST', `${api}/turns/1/submission`, { cards: [] })).status).toBe(404)
    for (const url of [`/games/${gameId}`, `/games/${gameId}/gm`, `/games/${gameId}/turns/1/submit`, `/games/${gameId}/live`]) {
      expect((await page(eve, url)).statusCode, url).toBe(404)
    }
  })

  it('shows them once the person\'s program is in and the turn is published (so the look above can see them)', async () => {
    const me = (await solo.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me
    const res = await solo.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: (me.hand as string[]).slice(0, 5) })
    expect(res.status, res.text).toBe(201)
    const text = (await solo.call('GET', `/api/v1/games/${gameId}/turns/1`)).text
    for (const card of botCards) expect(text).toContain(card)
  })
})
