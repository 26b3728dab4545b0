// A series of bot games attacked for the bots' programs by its GM, who sits in it as an entrant
// (seats: "gm"): the GM of each game who plays, so A14 holds there too. Before the GM's program is
// in, and after the GM stops the series "now" (abandoning the game with that turn never closed),
// nothing the GM reads shows a bot's card: the series' JSON and page, the game's API, console and
// pages. Another signed-in person reads and stops nothing of the series.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardLabel } from '../../src/render/cards.js'
import { signIn, testApp, type Client, type TestApp } from '../server/helpers.js'
import { formToken } from './setup.js'

let t: TestApp
let gm: Client
let eve: Client
let seriesId: string
let gameId: string
let botCards: string[]

beforeAll(async () => {
  t = await testApp()
  gm = await signIn(t.app, 'gm@example.org', 'Gemma')
  eve = await signIn(t.app, 'eve@example.org', 'Eve')
  const res = await gm.call('POST', '/api/v1/series', { name: 'Cup', boards: ['training-floor'], seats: ['gm', 'greedy', 'strong'], rounds: 1 })
  expect(res.status, res.text).toBe(201)
  seriesId = res.json.id
  gameId = res.json.games[0].gameId
  await t.app.botsPlanned()
  const turn = t.app.services.turns.byNumber(gameId, 1)!
  const gmPlayer = t.app.services.games.seats(gameId).find((s) => s.user_id !== null)!.player_id
  botCards = t.app.services.turns.latestSubmissions(turn.id).filter((r) => r.player_id !== gmPlayer).flatMap((r) => JSON.parse(r.cards_json) as string[])
})
afterAll(async () => { await t.close() })

const page = (c: Client, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: c.headers.cookie! } })

async function expectNoBotCardForGm() {
  const api = `/api/v1/games/${gameId}`
  const texts: [string, string][] = []
  for (const url of [`/api/v1/series/${seriesId}`, api, `${api}/turns/1`, `${api}/turns/1/submissions`, `${api}/history`]) {
    const res = await gm.call('GET', url)
    expect(res.status, url).toBe(200)
    texts.push([url, res.text])
  }
  for (const url of [`/series/${seriesId}`, `/games/${gameId}`, `/games/${gameId}/gm`, `/games/${gameId}/turns/1`, `/games/${gameId}/turns/1/submit`, `/games/${gameId}/turns/1/pictures/end.svg`]) {
    const res = await page(gm, url)
    expect(res.statusCode, url).toBeLessThan(500)
    texts.push([url, res.body])
  }
  for (const [url, text] of texts) {
    for (const card of botCards) {
      expect(text, `${url} shows ${card}`).not.toContain(card)
      expect(text, `${url} shows ${cardLabel(card)}`).not.toContain(cardLabel(card))
    }
  }
}

describe('a series with its GM at the table', () => {
  it('has the bots\' programs of turn 1 in', () => {
    expect(botCards).toHaveLength(10)
  })

  it('shows the GM none of them before the GM\'s own program is in', async () => {
    expect((await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.programs).toBeNull()
    await expectNoBotCardForGm()
  })

  it('is neither read nor stopped by another signed-in person', async () => {
    expect((await eve.call('GET', `/api/v1/series/${seriesId}`)).status).toBe(403)
    expect((await page(eve, `/series/${seriesId}`)).statusCode).toBe(403)
    expect((await eve.call('POST', `/api/v1/series/${seriesId}/stop`, { when: 'now', reason: 'mine now' })).status).toBe(403)
    const { token, cookie } = await formToken(t.app, eve.headers.cookie!)
    const posted = await t.app.inject({
      method: 'POST', url: `/series/${seriesId}/stop`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: token, when: 'now', reason: 'mine now' }).toString(),
    })
    expect(posted.statusCode).toBe(403)
    expect(t.app.services.bots.series(seriesId)!.status).toBe('running')
    for (const url of [`/games/${gameId}`, `/games/${gameId}/turns/1/submit`]) expect((await page(eve, url)).statusCode, url).toBe(404)
  })

  it('shows the GM none of them after stopping the series now, which abandons the game with the turn never closed', async () => {
    const stopped = await gm.call('POST', `/api/v1/series/${seriesId}/stop`, { when: 'now', reason: 'enough' })
    expect(stopped.status, stopped.text).toBe(200)
    expect(t.app.services.games.byId(gameId)!.status).toBe('abandoned')
    await expectNoBotCardForGm()
  })
})
