import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/server/config.js'
import { client, lastMailTo, linksIn, openSignInLink, signIn, tempDir, testApp, type TestApp } from './helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

describe('sign-in by one-time link', () => {
  it('mails a link that signs in once and sets a signed http-only cookie', async () => {
    const anon = client(t.app, 'x')
    expect((await anon.call('POST', '/api/v1/auth/login', { email: 'Zoe@Example.org' })).status).toBe(202)
    const mail = lastMailTo(t.app, 'Zoe@Example.org', 'sign-in')!
    expect(mail.subject).toMatch(/sign-in link/)
    const link = linksIn(mail.body)[0]!
    // Opening the link (as a mail scanner would) signs nobody in and leaves it usable.
    const opened = await t.app.inject({ method: 'GET', url: link.replace('http://botwars.test', '') })
    expect(opened.statusCode).toBe(200)
    expect(opened.body).toContain('Sign in to BotWars as <strong>zoe@example.org</strong>?')
    expect(opened.cookies.find((c) => c.name === 'botwars_session')).toBeUndefined()
    await t.app.inject({ method: 'GET', url: link.replace('http://botwars.test', '') })
    const first = await openSignInLink(t.app, link)
    expect(first.statusCode).toBe(303)
    expect(first.headers.location).toBe('/')
    const cookie = first.cookies.find((c) => c.name === 'botwars_session')!
    expect(cookie.httpOnly).toBe(true)
    expect(cookie.sameSite).toBe('Lax')
    expect(cookie.value).toMatch(/\./) // signed
    const me = await client(t.app, 'zoe', { cookie: `botwars_session=${cookie.value}` }).call('GET', '/api/v1/me')
    expect(me.json).toMatchObject({ email: 'zoe@example.org', name: 'zoe' })
    const again = await openSignInLink(t.app, link)
    expect(again.statusCode).toBe(400)
  })

  it('refuses a link older than 30 minutes', async () => {
    await client(t.app, 'x').call('POST', '/api/v1/auth/login', { email: 'late@example.org' })
    const token = linksIn(lastMailTo(t.app, 'late@example.org', 'sign-in')!.body)[0]!.split('token=')[1]!
    t.clock.now += 31 * 60_000
    const res = await client(t.app, 'x').call('POST', '/api/v1/auth/link', { token })
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ error: 'bad_request', field: 'token' })
  })

  it('refuses a tampered cookie and signs out', async () => {
    const c = await signIn(t.app, 'out@example.org')
    expect((await c.call('GET', '/api/v1/me')).status).toBe(200)
    const forged = client(t.app, 'x', { cookie: c.headers.cookie!.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A')) })
    expect((await forged.call('GET', '/api/v1/me')).status).toBe(401)
    expect((await c.call('POST', '/api/v1/auth/logout')).status).toBe(200)
    expect((await c.call('GET', '/api/v1/me')).status).toBe(401)
  })

  it('API tokens work for their own game only, are shown once and can be revoked', async () => {
    const gm = await signIn(t.app, 'tok@example.org')
    const game = (await gm.call('POST', '/api/v1/games', { name: 'G', board: 'training-floor', seats: 2, gmPlays: true, gmColour: 'red' })).json
    const other = (await gm.call('POST', '/api/v1/games', { name: 'H', board: 'training-floor', seats: 2 })).json
    const { token } = (await gm.call('POST', `/api/v1/games/${game.id}/api-token`)).json
    const bot = client(t.app, 'bot', { authorization: `Bearer ${token}` })
    expect((await bot.call('GET', `/api/v1/games/${game.id}`)).status).toBe(200)
    expect((await bot.call('GET', `/api/v1/games/${other.id}`)).status).toBe(404)
    expect((await gm.call('DELETE', `/api/v1/games/${game.id}/api-token`)).json).toEqual({ revoked: 1 })
    expect((await bot.call('GET', `/api/v1/games/${game.id}`)).status).toBe(401)
    expect(JSON.stringify(t.app.services.db.prepare('SELECT * FROM api_tokens').all())).not.toContain(token)
  })
})

describe('configuration', () => {
  it('stops with a message naming a bad variable', () => {
    const dir = tempDir()
    expect(() => loadConfig({ DATABASE_PATH: `${dir}/x.db`, PORT: 'eighty' })).toThrow(/PORT/)
    expect(() => loadConfig({ DATABASE_PATH: `${dir}/x.db`, BASE_URL: 'not a url' })).toThrow(/BASE_URL/)
    expect(() => loadConfig({ DATABASE_PATH: `${dir}/x.db`, SMTP_URL: 'http://x' })).toThrow(/SMTP_URL/)
    expect(() => loadConfig({ DATABASE_PATH: `${dir}/x.db`, SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET/)
  })
  it('has defaults and keeps a generated session secret', () => {
    const dir = tempDir()
    const a = loadConfig({ DATABASE_PATH: `${dir}/d/x.db` })
    const b = loadConfig({ DATABASE_PATH: `${dir}/d/x.db` })
    expect(a).toMatchObject({ port: 3000, host: '127.0.0.1', baseUrl: 'http://127.0.0.1:3000', smtpUrl: undefined })
    expect(a.sessionSecret).toBe(b.sessionSecret)
  })
})

describe('abuse', () => {
  it('limits sign-in link requests per address of origin', async () => {
    const limited = await testApp({ loginRateLimit: 2 })
    try {
      const c = client(limited.app, 'x')
      const statuses = []
      for (let i = 0; i < 3; i++) statuses.push((await c.call('POST', '/api/v1/auth/login', { email: 'a@example.org' })).status)
      expect(statuses).toEqual([202, 202, 429])
    } finally {
      await limited.close()
    }
  })
})
