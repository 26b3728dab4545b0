// Limits a hostile person runs into: sign-in mail to one address (shared by the page and the API,
// whatever address of origin asks), invitation mail to one address, program versions per player
// and turn, the paged version history, the deadline checked when a program arrives, and what a
// 429 says it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, HOUR, setUpGame, testApp, type TestApp } from '../server/helpers.js'
import { formToken, twoGames } from './setup.js'

let t: TestApp
let s: Awaited<ReturnType<typeof twoGames>>
beforeAll(async () => {
  t = await testApp({ signInMailsPerHour: undefined, loginRateLimit: 20 })
  s = await twoGames(t.app)
})
afterAll(async () => { await t.close() })

const signInMails = (email: string) => t.app.services.outbox.all().filter((m) => m.kind === 'sign-in' && m.recipient.toLowerCase() === email).length

describe('sign-in mail to one address', () => {
  it('is limited per recipient, across the page and the API and every address of origin', async () => {
    const victim = 'victim@example.org'
    const api = (i: number) => t.app.inject({
      method: 'POST', url: '/api/v1/auth/login', remoteAddress: `10.1.0.${i}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: victim }),
    })
    const { token, cookie } = await formToken(t.app, '', '/sign-in')
    const form = (i: number) => t.app.inject({
      method: 'POST', url: '/sign-in', remoteAddress: `10.2.0.${i}`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: token, email: victim.toUpperCase() }).toString(),
    })
    expect((await api(1)).statusCode).toBe(202)
    expect((await form(1)).statusCode).toBe(200)
    expect((await api(2)).statusCode).toBe(202)
    const refused = await api(3)
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toMatchObject({ error: 'rate_limited', message: expect.stringMatching(/sent to this address recently/) })
    const page = await form(2)
    expect(page.statusCode).toBe(429)
    expect(page.body).toMatch(/a link was sent recently/i)
    for (let i = 4; i < 40; i++) await api(i)
    expect(signInMails(victim)).toBe(3)
    // Another address is not affected, and the allowance comes back after an hour.
    expect((await api(99)).statusCode).toBe(429)
    expect((await client(t.app, 'x').call('POST', '/api/v1/auth/login', { email: 'other@example.org' })).status).toBe(202)
    t.clock.now += HOUR
    expect((await api(100)).statusCode).toBe(202)
    expect(signInMails(victim)).toBe(4)
  })

  it('answers a flood from one address of origin with a 429 that says what it is', async () => {
    const codes: number[] = []
    let last = ''
    for (let i = 0; i < 25; i++) {
      const res = await t.app.inject({
        method: 'POST', url: '/api/v1/auth/login', remoteAddress: '10.3.0.1', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: `f${i}@example.org` }),
      })
      codes.push(res.statusCode)
      last = res.body
    }
    expect(codes.filter((c) => c === 429).length).toBeGreaterThan(0)
    expect(JSON.parse(last)).toMatchObject({ error: 'rate_limited' })
  })
})

describe('program versions', () => {
  const url = () => `/api/v1/games/${s.gameId}/turns/${s.turn}/submission`
  const cards = async () => ((await s.ann.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).json.me.hand as string[]).slice(0, 5)

  it('are capped at 100 per player and turn, with a message naming the cap; the latest stands', async () => {
    const hand = await cards()
    for (let i = 1; i <= 100; i++) {
      const res = await s.ann.call('POST', url(), { cards: i % 2 ? hand : [...hand].reverse() })
      expect(res.status, `version ${i}`).toBe(201)
    }
    const refused = await s.ann.call('POST', url(), { cards: hand })
    expect(refused.status).toBe(409)
    expect(refused.json).toMatchObject({ error: 'too_many_versions', message: expect.stringMatching(/100 versions/) })
    expect((await s.ann.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).json.me.submission.version).toBe(100)
  })

  it('come back in pages, and no response grows without bound', async () => {
    const base = `/api/v1/games/${s.gameId}/turns/${s.turn}/submissions`
    const first = await s.ann.call('GET', base)
    expect(first.json.submissions.P1).toHaveLength(25)
    expect(first.json.submissions.P1[0].version).toBe(1)
    expect(first.json.next).toBe(`${base}?from=26`)
    const seen: number[] = []
    let next: string | null = base
    while (next) {
      const page = await s.ann.call('GET', next)
      expect(page.text.length).toBeLessThan(64 * 1024)
      seen.push(...page.json.submissions.P1.map((v: { version: number }) => v.version))
      next = page.json.next
    }
    expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    expect((await s.ann.call('GET', `${base}?from=0`)).status).toBe(400)
    expect((await s.ann.call('GET', `${base}?limit=1000`)).status).toBe(400)
  })
})

describe('the deadline', () => {
  it('is checked when a program arrives, not at the next tick of the clockwork', async () => {
    const turn = (await s.bob.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).json
    const hand = (turn.me.hand as string[]).slice(0, 5)
    const saved = t.clock.now
    t.clock.now = Date.parse(turn.deadline)
    const late = await s.bob.call('POST', `/api/v1/games/${s.gameId}/turns/${s.turn}/submission`, { cards: hand })
    expect(late.status).toBe(409)
    expect(late.json.message).toMatch(/deadline/)
    expect((await s.bob.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).json.me.submission).toBeNull()
    t.clock.now = Date.parse(turn.deadline) - 1
    expect((await s.bob.call('POST', `/api/v1/games/${s.gameId}/turns/${s.turn}/submission`, { cards: hand })).status).toBe(201)
    t.clock.now = saved
  })
})

describe('invitation mail to one address', () => {
  it('is limited per recipient, so a GM cannot bomb an address with invitations', async () => {
    // One game holds one open invitation per address (games.ts sendInvite): the GM invites from a new game each time.
    const victim = 'invited-victim@example.org'
    const { gm } = await setUpGame(t.app, [], { seats: 3 })
    const inviteFromNewGame = async (email: string) => {
      const game = (await gm.call('POST', '/api/v1/games', { name: 'Another game', board: 'training-floor', seats: 3 })).json.id as string
      return gm.call('POST', `/api/v1/games/${game}/invites`, { email, seat: 1 })
    }
    const codes: number[] = []
    for (let i = 0; i < 8; i++) codes.push((await inviteFromNewGame(i % 2 ? victim : victim.toUpperCase())).status)
    expect(codes).toEqual([201, 201, 201, 201, 201, 429, 429, 429])
    const refused = await inviteFromNewGame(victim)
    expect(refused.json).toMatchObject({ error: 'rate_limited', message: expect.stringMatching(/5 invitations/) })
    expect(t.app.services.outbox.all().filter((m) => m.kind === 'invitation' && m.recipient.toLowerCase() === victim)).toHaveLength(5)
    t.clock.now += HOUR
    expect((await inviteFromNewGame(victim)).status).toBe(201)
  })
})
