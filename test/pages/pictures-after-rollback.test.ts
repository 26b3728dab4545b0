// Regression (found in review): a published turn's pictures were sent `immutable` for a year
// (members: private; spectators: public, so shared proxies kept them too) at URLs that a rollback,
// a correction and a new publication kept. Browsers and proxies holding the withdrawn pictures
// never asked again, so the corrected report, and the GM's review of the corrected draft, showed
// the withdrawn pictures. Now the pages link them under a version (pages/pictures.ts
// turnPictureBase). Hostile: each viewer's cache is modelled as a browser or proxy keeps it, and
// the URLs come from the pages, as the browser gets them.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PLAYERS, testApp, type Client, type TestApp } from '../server/helpers.js'
import { playTurn, someProgram, startedGame } from '../gm/helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

interface Answer { statusCode: number; headers: Record<string, unknown>; body: string }

/** What a browser (or a shared proxy) keeps: every answer marked immutable, by URL, shown again without asking. */
class ImmutableCache {
  private readonly kept = new Map<string, string>()
  constructor(private readonly fetch: (url: string) => Promise<Answer>) {}
  async show(url: string): Promise<string> {
    const kept = this.kept.get(url)
    if (kept !== undefined) return kept
    const res = await this.fetch(url)
    expect(res.statusCode, url).toBe(200)
    if (String(res.headers['cache-control']).includes('immutable')) this.kept.set(url, res.body)
    return res.body
  }
}

it('gives a rolled-back and corrected turn new picture URLs, so no browser or proxy shows the withdrawn pictures', async () => {
  const g = await startedGame(t.app, {}, PLAYERS.slice(0, 2))
  const [ann, bob] = g.players as [Client, Client]
  const { gm, gameId } = g
  expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await someProgram(ann, gameId, 1) })).status).toBe(201)
  await playTurn(t.app, t.clock, gm, gameId)
  const publicToken = (await gm.call('GET', `/api/v1/games/${gameId}`)).json.publicToken as string

  const get = (url: string, c?: Client): Promise<Answer> =>
    t.app.inject({ method: 'GET', url, headers: c ? { cookie: c.headers.cookie! } : {} })
  /** The end-of-turn picture's URL as the report page links it for this viewer. */
  const endPictureOn = async (page: string, c?: Client) => {
    const res = await get(page, c)
    expect(res.statusCode, page).toBe(200)
    const src = /<img src="([^"]*\/end\.svg)"/.exec(res.body)?.[1]
    expect(src, `${page} links the end-of-turn picture`).toBeDefined()
    return src!
  }
  const memberReport = `/games/${gameId}/turns/1`
  const spectatorReport = `/watch/${publicToken}/turns/1`
  const annBrowser = new ImmutableCache((url) => get(url, ann))
  const gmBrowser = new ImmutableCache((url) => get(url, gm))
  const sharedProxy = new ImmutableCache((url) => get(url))

  const firstUrls = { ann: await endPictureOn(memberReport, ann), gm: await endPictureOn(memberReport, gm), spectator: await endPictureOn(spectatorReport) }
  const first = { ann: await annBrowser.show(firstUrls.ann), gm: await gmBrowser.show(firstUrls.gm), spectator: await sharedProxy.show(firstUrls.spectator) }
  // Published and named by its content: cached for good, answered 304 while the browser has it.
  const published = await get(firstUrls.spectator)
  expect(published.headers['cache-control']).toBe('public, max-age=31536000, immutable')
  const etag = published.headers.etag as string
  expect((await t.app.inject({ method: 'GET', url: firstUrls.spectator, headers: { 'if-none-match': etag } })).statusCode).toBe(304)
  // One member's URL never names another's picture (each has their own robot ringed).
  const annsForBob = await get(firstUrls.ann, bob)
  expect(annsForBob.statusCode === 200 && annsForBob.body === first.ann).toBe(false)

  // The GM rolls turn 1 back, corrects Ann's program (another set of her cards) and publishes again.
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/rollback`, { reason: 'rules fix' })).status).toBe(200)
  const dealt = JSON.parse(t.app.services.turns.byNumber(gameId, 1)!.dealt_state_json) as { hands: Record<string, { kind: string; priority: number }[]> }
  const other = dealt.hands.P1!.slice(4, 9).map((c) => `${c.kind}:${c.priority}`)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/corrections`, { player: 'P1', cards: other, reason: 'Ann mailed it' })).status).toBe(201)

  // The GM reviews the corrected draft: never from a cache, never immutable.
  const draftUrl = await endPictureOn(memberReport, gm)
  const draftAnswer = await get(draftUrl, gm)
  expect(draftAnswer.headers['cache-control']).toBe('private, no-cache')
  const gmReviewsWithdrawnPicture = (await gmBrowser.show(draftUrl)) !== draftAnswer.body
  expect((await get(draftUrl, ann)).statusCode).toBe(404) // a draft is the GM's alone

  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'again' })).status).toBe(200)
  const secondUrls = { ann: await endPictureOn(memberReport, ann), spectator: await endPictureOn(spectatorReport) }
  const fresh = { ann: (await get(secondUrls.ann, ann)).body, spectator: (await get(secondUrls.spectator)).body }
  expect(fresh.ann).not.toBe(first.ann) // the correction moved the robots: the picture is another one now

  expect({
    annReportShowsWithdrawnPicture: (await annBrowser.show(secondUrls.ann)) !== fresh.ann,
    gmReviewedWithdrawnPicture: gmReviewsWithdrawnPicture,
    sharedCacheServesWithdrawnPicture: (await sharedProxy.show(secondUrls.spectator)) !== fresh.spectator,
  }).toEqual({ annReportShowsWithdrawnPicture: false, gmReviewedWithdrawnPicture: false, sharedCacheServesWithdrawnPicture: false })

  // A withdrawn URL (an old page, a link kept somewhere) never answers new content under itself:
  // it sends the asker on to the current picture, by a redirect nobody keeps.
  for (const [url, c, now] of [[firstUrls.ann, ann, secondUrls.ann], [firstUrls.spectator, undefined, secondUrls.spectator]] as const) {
    const res = await get(url, c)
    expect(res.statusCode === 200 && res.body !== (url === firstUrls.ann ? first.ann : first.spectator), url).toBe(false)
    if (res.statusCode !== 200) {
      expect(res.statusCode).toBe(302)
      expect(res.headers.location).toBe(now)
      expect(res.headers['cache-control']).toBe('no-store')
    }
  }
  // Without a version the URL's content can change: asked again every time.
  const plain = await get(`/watch/${publicToken}/turns/1/pictures/end.svg`)
  expect(plain.statusCode).toBe(200)
  expect(plain.headers['cache-control']).toBe('public, no-cache')
})
