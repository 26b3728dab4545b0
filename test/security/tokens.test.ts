// Tokens and cookies held by the wrong hands: a game's API token used for anything but that game's
// player actions; signing out (here and everywhere); a form token taken from another session; the
// form cookie's name over HTTPS; a sign-in link followed by a path that is not ASCII.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, lastMailTo, linksIn, openSignInLink, signIn, testApp, type TestApp } from '../server/helpers.js'
import { formToken, twoGames } from './setup.js'

let t: TestApp
let s: Awaited<ReturnType<typeof twoGames>>
beforeAll(async () => {
  t = await testApp()
  s = await twoGames(t.app)
})
afterAll(async () => { await t.close() })

const count = (table: string) => (t.app.services.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n

describe("a game's API token", () => {
  it("does only that game's player actions: no new game, no rename, no list, no other tokens, no pages", async () => {
    const token = (await s.ann.call('POST', `/api/v1/games/${s.gameId}/api-token`)).json.token as string
    const bearer = client(t.app, 'token', { authorization: `Bearer ${token}` })
    const games = count('games')
    const created = await bearer.call('POST', '/api/v1/games', { name: 'Made by a token', board: 'training-floor', seats: 2 })
    expect(created.status).toBe(403)
    expect(created.json.message).toMatch(/API token/)
    expect(count('games')).toBe(games)
    expect((await bearer.call('PATCH', '/api/v1/me', { name: 'Renamed by a token' })).status).toBe(403)
    expect((await s.ann.call('GET', '/api/v1/me')).json.name).not.toBe('Renamed by a token')
    expect((await bearer.call('GET', '/api/v1/games')).status).toBe(403)
    expect((await bearer.call('GET', '/api/v1/me')).status).toBe(403)
    expect((await bearer.call('POST', `/api/v1/games/${s.gameId}/api-token`)).status).toBe(403)
    expect((await bearer.call('POST', '/api/v1/auth/logout-everywhere')).status).toBe(403)
    expect((await bearer.call('POST', `/api/v1/invites/${'x'.repeat(20)}/join`, { name: 'X', colour: 'teal' })).status).toBe(403)
    // Its own game's player actions work; another game is not there.
    expect((await bearer.call('GET', `/api/v1/games/${s.gameId}`)).status).toBe(200)
    expect((await bearer.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}/submissions`)).status).toBe(200)
    const hand = (await bearer.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).json.me.hand as string[]
    expect((await bearer.call('POST', `/api/v1/games/${s.gameId}/turns/${s.turn}/submission`, { cards: hand.slice(0, 5) })).status).toBe(201)
    expect((await bearer.call('GET', `/api/v1/games/${s.otherGameId}`)).status).toBe(404)
    // The pages treat a request with a token as signed out.
    const page = await t.app.inject({ method: 'GET', url: '/games/new', headers: { authorization: `Bearer ${token}` } })
    expect(page.statusCode).toBe(303)
    expect(page.headers.location).toMatch(/^\/sign-in/)
    // The OpenAPI document says which routes take a token.
    const doc = (await s.gm.call('GET', '/api/v1/openapi.json')).json
    expect(doc.paths['/api/v1/games'].post.security).toEqual([{ session: [] }])
    expect(doc.paths['/api/v1/games/{gameId}/turns/{turn}/submission'].post.security).toEqual([{ session: [] }, { bearer: [] }])
  })
})

describe('signing out', () => {
  it('ends only this session with a plain sign-out; "everywhere" ends every session and revokes every token', async () => {
    const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/v1/games/${s.gameId}`, headers })
    const first = await signIn(t.app, s.bob.email)
    const second = await signIn(t.app, s.bob.email)
    const token = (await first.call('POST', `/api/v1/games/${s.gameId}/api-token`)).json.token as string
    expect((await first.call('POST', '/api/v1/auth/logout')).status).toBe(200)
    expect((await me(first.headers)).statusCode).toBe(401)
    expect((await me(second.headers)).statusCode).toBe(200)
    expect((await me({ authorization: `Bearer ${token}` })).statusCode).toBe(200) // documented: tokens outlive a plain sign-out

    const everywhere = await second.call('POST', '/api/v1/auth/logout-everywhere')
    expect(everywhere.status).toBe(200)
    expect(everywhere.json.sessions).toBeGreaterThanOrEqual(2)
    expect(everywhere.json.tokens).toBe(1)
    for (const headers of [s.bob.headers, second.headers, { authorization: `Bearer ${token}` }]) expect((await me(headers)).statusCode).toBe(401)
    // The other players are not affected.
    expect((await me(s.ann.headers)).statusCode).toBe(200)
  })

  it('offers "sign out everywhere" on the pages', async () => {
    const bob = await signIn(t.app, s.bob.email)
    const other = await signIn(t.app, s.bob.email)
    const { token, cookie } = await formToken(t.app, bob.headers.cookie!)
    expect((await t.app.inject({ method: 'GET', url: '/', headers: { cookie } })).body).toContain('Sign out everywhere')
    const res = await t.app.inject({ method: 'POST', url: '/sign-out', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: token, everywhere: '1' }).toString() })
    expect(res.statusCode).toBe(303)
    expect((await other.call('GET', '/api/v1/me')).status).toBe(401)
  })
})

describe('form tokens', () => {
  it("refuse a GM action made with the victim's session and the attacker's own form cookie and token", async () => {
    const attacker = await formToken(t.app, s.outsider.headers.cookie!)
    const cookie = `${s.gm.headers.cookie}; ${attacker.cookie.split('; ').find((c) => c.startsWith('botwars_csrf='))}`
    const res = await t.app.inject({
      method: 'POST', url: `/games/${s.gameId}/gm/pause`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: attacker.token, reason: 'csrf' }).toString(),
    })
    expect(res.statusCode).toBe(403)
    expect((await s.gm.call('GET', `/api/v1/games/${s.gameId}`)).json.status).toBe('running')
  })

  it('use a __Host- cookie over HTTPS', async () => {
    const secure = await testApp({ config: { databasePath: `${t.dir}/https.db`, dataDir: t.dir, smtpUrl: undefined, baseUrl: 'https://botwars.test', sessionSecret: 's'.repeat(40), mailFrom: 'BotWars <gm@botwars.test>' } })
    try {
      const page = await secure.app.inject({ method: 'GET', url: '/sign-in' })
      const cookie = page.cookies.find((c) => c.name.includes('botwars_csrf'))!
      expect(cookie).toMatchObject({ name: '__Host-botwars_csrf', secure: true, path: '/', httpOnly: true })
      expect(cookie.domain).toBeUndefined()
    } finally {
      await secure.close()
    }
  })
})

describe('a sign-in link with a path to come back to', () => {
  it('encodes a path that is not ASCII before the link is used, and never answers 500', async () => {
    for (const [next, location] of [['/中文', '/%E4%B8%AD%E6%96%87'], ['/games?x=ü', '/games?x=%C3%BC'], ['/\t/evil.example', '/%09/evil.example']] as const) {
      const email = `next${next.length}${location.length}@example.org`
      const { token, cookie } = await formToken(t.app, '', '/sign-in')
      const asked = await t.app.inject({ method: 'POST', url: '/sign-in', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: token, email, next }).toString() })
      expect(asked.statusCode).toBe(200)
      const nextCookie = asked.cookies.find((c) => c.name === 'botwars_next')!
      const link = linksIn(lastMailTo(t.app, email, 'sign-in')!.body)[0]!
      const res = await openSignInLink(t.app, link, `botwars_next=${encodeURIComponent(nextCookie.value)}`)
      expect(res.statusCode, next).toBe(303)
      expect(res.headers.location).toBe(location)
    }
  })

  it('refuses a path that cannot be encoded, and still signs in', async () => {
    const { safeNext } = await import('../../src/server/pages/auth.js')
    expect(safeNext('/\ud800')).toBeNull()
    expect(safeNext('//evil.example')).toBeNull()
    expect(safeNext('/\\evil.example')).toBeNull()
    expect(safeNext('https://evil.example')).toBeNull()
  })
})
