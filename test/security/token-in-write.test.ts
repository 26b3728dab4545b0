// A program submitted with a game's API token has its token checked inside the transaction that
// stores it (services/turns.ts, storeProgram; issue 17): the check and the write are one step. So a
// token revoked a moment before, by this process or by another connection to the same SQLite file,
// stores nothing, and every refusal is the one the other routes give: 401 for a token that is
// unknown, revoked or malformed whatever the body holds, 404 for another game.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Database from '../../src/server/plugins/sqlite.js'
import { hashSecret } from '../../src/server/repositories/users.js'
import { client, inviteToken, testApp, type Client, type TestApp } from '../server/helpers.js'
import { twoGames } from './setup.js'

let t: TestApp
let s: Awaited<ReturnType<typeof twoGames>>
let other: Database.Database
beforeAll(async () => {
  t = await testApp()
  s = await twoGames(t.app)
  other = new Database(join(t.dir, 'botwars.db'))
})
afterAll(async () => {
  other.close()
  await t.close()
})

const versions = () => (t.app.services.db.prepare('SELECT COUNT(*) AS n FROM submissions').get() as { n: number }).n
const submitUrl = (gameId = s.gameId) => `/api/v1/games/${gameId}/turns/${s.turn}/submission`

async function annWithToken(): Promise<{ token: string; bearer: Client; cards: string[] }> {
  const token = (await s.ann.call('POST', `/api/v1/games/${s.gameId}/api-token`)).json.token as string
  const bearer = client(t.app, 'token', { authorization: `Bearer ${token}` })
  const hand = (await bearer.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).json.me.hand as string[]
  return { token, bearer, cards: hand.slice(0, 5) }
}

/** A running game of Olga's in which Ann and Eve play: Ann's token of the first game must not open it. */
async function gameWhereAnnPlaysToo(): Promise<{ gameId: string; annHand: string[] }> {
  const made = await s.otherGm.call('POST', '/api/v1/games', { name: 'Ann plays here too', board: 'training-floor', seats: 2 })
  const gameId = made.json.id as string
  for (const [player, name, colour] of [[s.ann, 'Ann', 'red'], [s.outsider, 'Eve', 'blue']] as const) {
    expect((await s.otherGm.call('POST', `/api/v1/games/${gameId}/invites`, { email: player.email })).status).toBe(201)
    expect((await player.call('POST', `/api/v1/invites/${inviteToken(t.app, player.email)}/join`, { name, colour })).status).toBe(200)
  }
  expect((await s.otherGm.call('POST', `/api/v1/games/${gameId}/start`)).status).toBe(200)
  const annHand = (await s.ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me.hand as string[]
  expect(annHand.length).toBeGreaterThanOrEqual(5)
  return { gameId, annHand }
}

describe('a submission made with an API token', () => {
  it('is refused once this process has revoked the token, and the previous program stands', async () => {
    const { bearer, cards } = await annWithToken()
    expect((await bearer.call('POST', submitUrl(), { cards })).status).toBe(201)
    const before = versions()
    expect((await s.ann.call('DELETE', `/api/v1/games/${s.gameId}/api-token`)).status).toBe(200)
    const refused = await bearer.call('POST', submitUrl(), { cards: [...cards].reverse() })
    expect(refused.status).toBe(401)
    expect(refused.json.message).toMatch(/API token/)
    expect(versions()).toBe(before)
  })

  it('is refused once another connection to the database has revoked the token, with no run in between', async () => {
    const { token, bearer, cards } = await annWithToken()
    expect((await bearer.call('POST', submitUrl(), { cards })).status).toBe(201) // the token is now known to this process
    const before = versions()
    other.prepare('UPDATE api_tokens SET revoked_at = 1 WHERE token_hash = ?').run(hashSecret(token))
    expect((await bearer.call('POST', submitUrl(), { cards: [...cards].reverse() })).status).toBe(401)
    expect(versions()).toBe(before)
  })

  it('with an unknown or malformed token gets 401 whatever the body holds, never a 400 that describes the body', async () => {
    const before = versions()
    for (const body of [{ cards: ['FWD1:500'] }, { cards: 'not a list' }, {}, { cards: ['FWD1:500'], surprise: 1 }]) {
      const unknown = await client(t.app, 'x', { authorization: `Bearer ${'A'.repeat(32)}` }).call('POST', submitUrl(), body)
      expect(unknown.status, JSON.stringify(body)).toBe(401)
      for (const header of ['Bearer', 'Bearer a b', `Bearer ${'x'.repeat(500)}`, 'Basic YWxhZGRpbjpvcGVuc2VzYW1l']) {
        expect((await client(t.app, 'x', { authorization: header }).call('POST', submitUrl(), body)).status, header).toBe(401)
      }
    }
    // Bodies Fastify itself refuses before any route runs (not JSON, not a JSON type, too large): 401 too.
    const unknownToken = { authorization: `Bearer ${'A'.repeat(32)}` }
    for (const [type, payload] of [['application/json', '{"cards": ['], ['text/plain', 'FWD1:500'], ['application/json', JSON.stringify({ cards: ['x'.repeat(2_000_000)] })]]) {
      const res = await t.app.inject({ method: 'POST', url: submitUrl(), headers: { ...unknownToken, 'content-type': type! }, payload })
      expect(res.statusCode, `${type} ${payload!.slice(0, 20)}`).toBe(401)
    }
    // A path that is not a number, with an unknown token: 401 too.
    const badPath = await client(t.app, 'x', { authorization: `Bearer ${'A'.repeat(32)}` }).call('POST', `/api/v1/games/${s.gameId}/turns/nope/submission`, {})
    expect(badPath.status).toBe(401)
    expect(versions()).toBe(before)
  })

  it("with a valid token still gets 400 for a bad body, naming the field, and the previous program stands", async () => {
    const { bearer } = await annWithToken()
    const before = versions()
    const refused = await bearer.call('POST', submitUrl(), { cards: 'not a list' })
    expect(refused.status).toBe(400)
    expect(refused.text).toMatch(/cards/)
    expect(versions()).toBe(before)
  })

  it("of one game stores nothing in another game, even one where its owner plays", async () => {
    const { bearer, cards } = await annWithToken()
    const before = versions()
    const elsewhere = await bearer.call('POST', submitUrl(s.otherGameId), { cards })
    expect(elsewhere.status).toBe(404)
    expect(versions()).toBe(before)
    // Ann plays in this one, with her session: her token of the first game still opens nothing here.
    const { gameId, annHand } = await gameWhereAnnPlaysToo()
    for (const url of [`/api/v1/games/${gameId}`, `/api/v1/games/${gameId}/turns/1`, `/api/v1/games/${gameId}/turns/1/submissions`, `/api/v1/games/${gameId}/history`]) {
      expect((await bearer.call('GET', url)).status, url).toBe(404)
    }
    expect((await bearer.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: annHand.slice(0, 5) })).status).toBe(404)
    expect(versions()).toBe(before)
    // The same program with her session is hers to send.
    expect((await s.ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: annHand.slice(0, 5) })).status).toBe(201)
  })

  it('many at once, one revoked: only the revoked one is refused', async () => {
    const { bearer, cards } = await annWithToken()
    const bobToken = (await s.bob.call('POST', `/api/v1/games/${s.gameId}/api-token`)).json.token as string
    const bob = client(t.app, 'bob-token', { authorization: `Bearer ${bobToken}` })
    const bobHand = (await bob.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).json.me.hand as string[]
    other.prepare('UPDATE api_tokens SET revoked_at = 1 WHERE token_hash = ?').run(hashSecret(bobToken))
    const before = versions()
    // Sent together, so they share one transaction (services/group-commit.ts).
    const answers = await Promise.all([bearer.call('POST', submitUrl(), { cards }), bob.call('POST', submitUrl(), { cards: bobHand.slice(0, 5) })])
    expect(answers.map((a) => a.status)).toEqual([201, 401])
    expect(versions()).toBe(before + 1)
  })
})
