// Another player's ids in every URL, and GM actions by players. Every API route and page that
// names a game answers someone outside it as if it did not exist (404); every GM action, in the
// API and on the pages, is refused to the game's players (403) and changes nothing; no view shows
// one player another's hand.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PLAYERS, setUpGame, testApp, type TestApp } from '../server/helpers.js'
import { apiRoutes, fill, formToken, PAGE_POSTS, twoGames, type ApiRoute } from './setup.js'

let t: TestApp
let s: Awaited<ReturnType<typeof twoGames>>
let routes: ApiRoute[]
let values: Record<string, string>
beforeAll(async () => {
  t = await testApp()
  s = await twoGames(t.app)
  routes = await apiRoutes(s.gm)
  values = { gameId: s.gameId, turn: String(s.turn), seat: '1', token: 'x'.repeat(32), publicToken: s.publicToken }
})
afterAll(async () => { await t.close() })

const PAGE_GETS = ['/games/{gameId}', '/games/{gameId}/gm', '/games/{gameId}/turns/{turn}', '/games/{gameId}/turns/{turn}/submit',
  '/games/{gameId}/turns/{turn}/replay/1', '/games/{gameId}/pictures/board.svg', '/games/{gameId}/turns/{turn}/pictures/1.svg']

function body(route: ApiRoute) {
  if (route.path.endsWith('/submission')) return { cards: [] }
  if (route.path.endsWith('/invites')) return { email: 'x@example.org' }
  if (route.path.endsWith('/replace')) return { email: 'x@example.org', reason: 'r' }
  if (route.path.endsWith('/reopen')) return { player: 'P1', reason: 'r' }
  if (route.path.endsWith('/deadline')) return { extendHours: 1, reason: 'r' }
  if (route.path.endsWith('/lock')) return { confirm: true, reason: 'r' }
  if (route.path.endsWith('/bot') || route.path.endsWith('/bot-seats')) return { bot: 'greedy', reason: 'r' }
  if (route.path.endsWith('/webhook')) return { url: 'https://bots.example.org/hook' }
  return { reason: 'r' }
}

it('answers an outsider with 404 on every API route of a game', async () => {
  const gameRoutes = routes.filter((r) => r.path.includes('{gameId}'))
  expect(gameRoutes.length).toBeGreaterThan(15)
  for (const who of [s.outsider, s.otherGm]) {
    for (const route of gameRoutes) {
      const res = await who.call(route.method, fill(route.path, values), route.method === 'GET' || route.method === 'DELETE' ? undefined : body(route))
      expect(res.status, `${who.email} ${route.method} ${route.path}`).toBe(404)
    }
  }
})

it('answers an outsider with 404 on every page of a game, and refuses every form post', async () => {
  for (const path of PAGE_GETS) {
    const res = await t.app.inject({ method: 'GET', url: fill(path, values), headers: { cookie: s.outsider.headers.cookie! } })
    expect(res.statusCode, path).toBe(404)
  }
  const { token, cookie } = await formToken(t.app, s.outsider.headers.cookie!)
  for (const path of PAGE_POSTS.filter((p) => p.includes('{gameId}'))) {
    const res = await t.app.inject({ method: 'POST', url: fill(path, values), headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: token, reason: 'r', email: 'x@example.org', name: 'X', colour: 'teal', hours: '1', player: 'P1' }).toString() })
    expect([403, 404], `${path}: ${res.statusCode}`).toContain(res.statusCode)
  }
})

it('refuses every GM action of the API to a player, and nothing changes', async () => {
  const before = (await s.gm.call('GET', `/api/v1/games/${s.gameId}`)).json
  const gmRoutes = routes.filter((r) => r.tags.includes('gm'))
  expect(gmRoutes.length).toBeGreaterThanOrEqual(10)
  for (const player of [s.ann, s.bob]) {
    for (const route of gmRoutes) {
      const res = await player.call(route.method, fill(route.path, values), body(route))
      expect(res.status, `${player.email} ${route.method} ${route.path}: ${res.text}`).toBe(403)
    }
  }
  const after = (await s.gm.call('GET', `/api/v1/games/${s.gameId}`)).json
  expect(after.status).toBe(before.status)
  expect(after.seats).toEqual(before.seats)
  expect(after.currentTurn.deadline).toBe(before.currentTurn.deadline)
  expect((await s.gm.call('GET', `/api/v1/games/${s.gameId}/history`)).json.history.map((h: { action: string }) => h.action)).toEqual(['create', 'invite', 'invite', 'start'])
})

it('refuses the GM console and its form posts to a player', async () => {
  const console_ = await t.app.inject({ method: 'GET', url: `/games/${s.gameId}/gm`, headers: { cookie: s.ann.headers.cookie! } })
  expect([403, 404]).toContain(console_.statusCode)
  const { token, cookie } = await formToken(t.app, s.ann.headers.cookie!)
  // 403 whatever the form holds and whatever the game's state: the GM check comes first, so a
  // player learns nothing from a 400 or 409 (such as whether the game has started).
  const forms: Record<string, string>[] = [{ reason: 'r', email: 'x@example.org', hours: '1', player: 'P2' }, {}, { reason: 'r'.repeat(5000), email: 'not an address', hours: 'x' }]
  for (const path of PAGE_POSTS.filter((p) => p.includes('/gm/') || p.endsWith('/start') || p.endsWith('/invite'))) {
    for (const form of forms) {
      const res = await t.app.inject({ method: 'POST', url: fill(path, values), headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: token, ...form }).toString() })
      expect(res.statusCode, `${path} ${JSON.stringify(form)}`).toBe(403)
    }
  }
  const game = (await s.gm.call('GET', `/api/v1/games/${s.gameId}`)).json
  expect(game.status).toBe('running')
  expect(game.currentTurn.status).toBe('open')
  expect((await s.gm.call('GET', `/api/v1/games/${s.gameId}/history`)).json.history.map((h: { action: string }) => h.action)).toEqual(['create', 'invite', 'invite', 'start'])
})

it('answers a player of a game not yet started with 403 on the start and invite pages, as in a started one', async () => {
  const { gameId, players } = await setUpGame(t.app, PLAYERS.slice(0, 2))
  const { token, cookie } = await formToken(t.app, players[0]!.headers.cookie!)
  for (const path of ['/games/{gameId}/start', '/games/{gameId}/invite']) {
    for (const form of [{ reason: 'r', email: 'x@example.org' }, {}] as Record<string, string>[]) {
      const res = await t.app.inject({ method: 'POST', url: fill(path, { gameId }), headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: token, ...form }).toString() })
      expect(res.statusCode, `${path} ${JSON.stringify(form)}`).toBe(403)
    }
  }
  expect((await t.app.inject({ method: 'GET', url: `/games/${gameId}/gm`, headers: { cookie } })).statusCode).toBe(403)
  expect((await players[0]!.call('GET', `/api/v1/games/${gameId}`)).json.status).toBe('setup') // not started
})

it("never shows one player another player's hand, in the API or on the pages", async () => {
  const annHand = (await s.ann.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).json.me.hand as string[]
  expect(annHand.length).toBeGreaterThan(0)
  const seen = [
    (await s.bob.call('GET', `/api/v1/games/${s.gameId}`)).text,
    (await s.bob.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).text,
    (await s.bob.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}/submissions`)).text,
    (await t.app.inject({ method: 'GET', url: `/games/${s.gameId}`, headers: { cookie: s.bob.headers.cookie! } })).body,
    (await t.app.inject({ method: 'GET', url: `/games/${s.gameId}/turns/${s.turn}/submit`, headers: { cookie: s.bob.headers.cookie! } })).body,
    (await t.app.inject({ method: 'GET', url: `/watch/${s.publicToken}` })).body,
  ].join('\n')
  for (const card of annHand) expect(seen, card).not.toContain(card)
})
