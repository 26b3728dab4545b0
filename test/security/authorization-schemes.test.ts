// An Authorization header in another scheme than Bearer (the Basic credentials a reverse proxy's
// password makes browsers send) is not ours: the session cookie decides, as without it. Found by a
// hostile review: any such header answered 401 on every route, so a signed-in browser behind such a
// proxy was sent to /sign-in on every page and /sign-in to itself. And the scheme's name is read in
// any case ("bearer", RFC 7235 §2.1), as clients may write it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLAYERS, testApp, type TestApp } from '../server/helpers.js'
import { startedGame } from '../gm/helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

const BASIC = 'Basic dXNlcjpwYXNz' // user:pass, as a browser sends it behind an nginx auth_basic

describe('an Authorization header that is not a Bearer token', () => {
  it('does not sign a browser out, nor send /sign-in to itself', async () => {
    const g = await startedGame(t.app, {}, PLAYERS.slice(0, 2))
    const cookie = g.players[0]!.headers.cookie!
    const home = await t.app.inject({ method: 'GET', url: '/', headers: { cookie, authorization: BASIC, accept: 'text/html' } })
    const signInPage = await t.app.inject({ method: 'GET', url: '/sign-in', headers: { authorization: BASIC, accept: 'text/html' } })
    const api = await t.app.inject({ method: 'GET', url: `/api/v1/games/${g.gameId}`, headers: { cookie, authorization: BASIC } })
    const boards = await t.app.inject({ method: 'GET', url: '/api/v1/boards', headers: { authorization: BASIC } })
    expect({
      home: home.statusCode, signInPage: [signInPage.statusCode, signInPage.headers.location], api: api.statusCode, boards: boards.statusCode,
    }).toEqual({ home: 200, signInPage: [200, undefined], api: 200, boards: 200 })
  })

  it('takes a valid token whatever the case of the scheme ("bearer", RFC 6750 §2.1 / RFC 7235 §2.1)', async () => {
    const g = await startedGame(t.app, {}, PLAYERS.slice(0, 2))
    const token = (await g.players[0]!.call('POST', `/api/v1/games/${g.gameId}/api-token`)).json.token as string
    const upper = await t.app.inject({ method: 'GET', url: `/api/v1/games/${g.gameId}`, headers: { authorization: `Bearer ${token}` } })
    const lower = await t.app.inject({ method: 'GET', url: `/api/v1/games/${g.gameId}`, headers: { authorization: `bearer ${token}` } })
    expect(upper.statusCode).toBe(200)
    expect(lower.statusCode, lower.body).toBe(200)
  })
})
