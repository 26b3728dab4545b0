// A rolled-back turn, attacked for its new draft. Turn 1 is published and read by Ann (her browser
// keeps the page and its ETag) and by a spectator; the GM rolls it back, corrects Bob's program with
// cards of his hand he had not played, and resolves the draft again. Until the GM publishes anew,
// Ann and the spectator read the withdrawn report (the report as it was published) and nothing of
// the draft: not Bob's corrected cards by the API, the pages, the pictures or the history, and not
// the kept published page under Ann's old ETag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardLabel } from '../../src/render/cards.js'
import { testApp, type Client, type TestApp } from '../server/helpers.js'
import { closeTurn, gameOf, someProgram, startedGame } from '../gm/helpers.js'
import { formToken } from './setup.js'

let t: TestApp
let gm: Client, ann: Client, bob: Client
let gameId: string
let publicToken: string
/** Bob's turn-1 cards he did not play, which only his correction in the new draft plays. */
let unplayed: string[]
let publishedReport: string
let annEtag: string
let annCookie: string
let annPage: string

beforeAll(async () => {
  t = await testApp()
  const g = await startedGame(t.app, { reviewWindowHours: 24 })
  ;({ gm, gameId } = g)
  ;[ann, bob] = g.players as [Client, Client]
  const bobProgram = await someProgram(bob, gameId, 1)
  for (const [c, cards] of [[ann, await someProgram(ann, gameId, 1)], [bob, bobProgram]] as const) {
    expect((await c.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards })).status).toBe(201)
  }
  const bobHand = (await bob.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me.hand as string[]
  unplayed = bobHand.filter((c) => !bobProgram.includes(c))
  await closeTurn(t.app, t.clock, gm, gameId)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'first' })).status).toBe(200)
  publicToken = (await gameOf(gm, gameId)).publicToken
  publishedReport = (await ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result.report
  // As a browser that holds the site's form cookie, which the page's ETag names.
  annCookie = (await formToken(t.app, ann.headers.cookie!, `/games/${gameId}`)).cookie
  const page = await t.app.inject({ method: 'GET', url: `/games/${gameId}/turns/1`, headers: { cookie: annCookie } })
  annEtag = page.headers.etag as string
  annPage = page.body
  expect(annEtag).toBeTruthy()

  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/rollback`, { reason: 'Bob mailed his program' })).status).toBe(200)
  const corrected = [...unplayed, bobProgram[0]!].slice(0, 5)
  const res = await gm.call('POST', `/api/v1/games/${gameId}/turns/1/corrections`, { player: 'P2', cards: corrected, reason: 'Bob mailed it in time' })
  expect(res.status, res.text).toBe(201)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/resolve`, { reason: 'again' })).status).toBe(200)
  // The GM's draft does play them: the look below could see them.
  expect(JSON.stringify((await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result.registers)).toContain(unplayed[0])
})
afterAll(async () => { await t.close() })

function expectNoDraftCard(where: string, text: string) {
  for (const card of unplayed) {
    expect(text, `${where} shows ${card}`).not.toContain(card)
    expect(text, `${where} shows ${cardLabel(card)}`).not.toContain(cardLabel(card))
  }
}

describe('a rolled-back turn in its new draft', () => {
  it('shows Ann the withdrawn report as it was published, and nothing of the draft anywhere', async () => {
    const withdrawn = (await ann.call('GET', `/api/v1/games/${gameId}/turns/1/withdrawn/1`)).json
    expect(withdrawn.report).toBe(publishedReport)
    const api = `/api/v1/games/${gameId}`
    for (const url of [api, `${api}/turns/1`, `${api}/turns/1/submissions`, `${api}/history`, `${api}/turns/1/withdrawn/1`]) {
      const res = await ann.call('GET', url)
      expect(res.status, url).toBe(200)
      expectNoDraftCard(url, res.text)
    }
    for (const url of [`/games/${gameId}`, `/games/${gameId}/turns/1`, `/games/${gameId}/turns/1/withdrawn/1`, `/games/${gameId}/turns/1/replay/end`,
      `/games/${gameId}/turns/1/pictures/end.svg`, `/games/${gameId}/standings`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: ann.headers.cookie! } })
      expect(res.statusCode, url).toBeLessThan(500)
      expectNoDraftCard(url, res.body)
    }
  })

  it('does not answer Ann\'s kept published page with a 304, nor serve it again', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/games/${gameId}/turns/1`, headers: { cookie: annCookie, 'if-none-match': annEtag } })
    expect(res.statusCode).not.toBe(304)
    expect(res.headers.etag).not.toBe(annEtag)
    // The report's stage sections were on the published page (below); the waiting page has none.
    expect(annPage).toContain('Stage 1')
    expect(res.body).not.toContain('Stage 1')
  })

  it('shows a spectator nothing of the draft', async () => {
    for (const url of [`/api/v1/public/${publicToken}`, `/api/v1/public/${publicToken}/turns/1`, `/watch/${publicToken}`, `/watch/${publicToken}/turns/1`,
      `/watch/${publicToken}/turns/1/pictures/end.svg`, `/watch/${publicToken}/turns/1/replay/end`]) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBeLessThan(500)
      expectNoDraftCard(url, res.body)
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/public/${publicToken}/turns/1` })).statusCode).toBe(404)
  })
})
