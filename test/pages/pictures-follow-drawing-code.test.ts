// Regression: a turn's picture URL and ETag named the turn and its seats but not the code that
// draws it, so a release that drew pictures differently (a new colour, a fixed arrow) kept the old
// URLs, `immutable` for a year: browsers and shared proxies showed the old drawing for good, and a
// revalidated picture (the current board, the gallery) got a 304 for its old ETag. Now the drawing
// code's fingerprint (pages/drawing-fingerprint.ts, injected here as the app's option) is part of
// every picture's version and ETag. The same database is served by one release, then the next.
import { rmSync } from 'node:fs'
import { afterAll, expect, it } from 'vitest'
import { playTurn, someProgram, startedGame } from '../gm/helpers.js'
import { PLAYERS, START, tempDir, testApp, type Client } from '../server/helpers.js'

const dir = tempDir()
const clock = { now: START }
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Seen { url: string; etag: string; cache: string }

it('gives every picture a new URL and ETag when the drawing code changes, and sends the old URL on without keeping it', async () => {
  const release1 = await testApp({ dir, clock, pictureFingerprint: 'drawing-code-1' })
  const g = await startedGame(release1.app, {}, PLAYERS.slice(0, 2))
  const [ann] = g.players as [Client]
  expect((await ann.call('POST', `/api/v1/games/${g.gameId}/turns/1/submission`, { cards: await someProgram(ann, g.gameId, 1) })).status).toBe(201)
  await playTurn(release1.app, clock, g.gm, g.gameId)
  const publicToken = (await g.gm.call('GET', `/api/v1/games/${g.gameId}`)).json.publicToken as string
  const cookie = ann.headers.cookie!

  /** Every kind of picture as this release serves it: the turn's (linked from its report page), the current board, the gallery's. */
  const picturesOf = async (release: typeof release1): Promise<Record<string, Seen>> => {
    const get = (url: string, withCookie: boolean) => release.app.inject({ method: 'GET', url, headers: withCookie ? { cookie } : {} })
    const seen = async (url: string, withCookie: boolean): Promise<Seen> => {
      const res = await get(url, withCookie)
      expect(res.statusCode, url).toBe(200)
      return { url, etag: String(res.headers.etag), cache: String(res.headers['cache-control']) }
    }
    const linked = async (page: string, withCookie: boolean) => {
      const res = await get(page, withCookie)
      expect(res.statusCode, page).toBe(200)
      return /<img src="([^"]*\/end)\.svg"/.exec(res.body)![1]!
    }
    const member = await linked(`/games/${g.gameId}/turns/1`, true)
    const spectator = await linked(`/watch/${publicToken}/turns/1`, false)
    return {
      memberSvg: await seen(`${member}.svg`, true), memberPng: await seen(`${member}.png`, true),
      spectatorSvg: await seen(`${spectator}.svg`, false), spectatorPng: await seen(`${spectator}.png`, false),
      boardSvg: await seen(`/games/${g.gameId}/pictures/board.svg`, true), boardPng: await seen(`/watch/${publicToken}/pictures/board.png`, false),
      gallery: await seen('/boards/training-floor.png', false),
    }
  }
  const old = await picturesOf(release1)
  expect(old.spectatorSvg!.cache).toBe('public, max-age=31536000, immutable')
  await release1.close()

  // The next release draws pictures differently; the database, the turn and its seats are the same.
  const release2 = await testApp({ dir, clock, pictureFingerprint: 'drawing-code-2' })
  const now = await picturesOf(release2)
  for (const [name, picture] of Object.entries(now)) {
    expect(picture.etag, `${name}: a new ETag`).not.toBe(old[name]!.etag)
    // A browser revalidating with the old drawing's ETag gets the new drawing, not a 304.
    const revalidated = await release2.app.inject({ method: 'GET', url: picture.url, headers: { cookie, 'if-none-match': old[name]!.etag } })
    expect(revalidated.statusCode, `${name} revalidated`).toBe(200)
  }
  for (const name of ['memberSvg', 'memberPng', 'spectatorSvg', 'spectatorPng']) {
    expect(now[name]!.url, `${name}: a new URL`).not.toBe(old[name]!.url)
    expect(now[name]!.cache, name).toMatch(/immutable/)
    // The old URL (an old page, a proxy's link) is sent on to the new picture by a redirect nobody keeps.
    const res = await release2.app.inject({ method: 'GET', url: old[name]!.url, headers: { cookie } })
    expect([res.statusCode, res.headers.location, res.headers['cache-control']], name).toEqual([302, now[name]!.url, 'no-store'])
  }
  await release2.close()
})
