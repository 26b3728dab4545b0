// What leaks without anyone breaking in: email addresses in the history that players and
// spectators read, answers with a hand or a program kept by a cache, names with line breaks that
// end up in mail, and files on disk (database, WAL, outbox, backups) readable by other users.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backupCommand } from '../../src/cli/backup.js'
import { loadConfig } from '../../src/server/config.js'
import { client, inviteToken, signIn, tempDir, testApp, type TestApp } from '../server/helpers.js'
import { twoGames } from './setup.js'

let t: TestApp
let s: Awaited<ReturnType<typeof twoGames>>
beforeAll(async () => {
  t = await testApp()
  s = await twoGames(t.app)
  // A replacement leaves an invitee's address in the history too.
  expect((await s.gm.call('POST', `/api/v1/games/${s.gameId}/seats/2/replace`, { email: 'newcomer@example.org', reason: 'left' })).status).toBe(200)
})
afterAll(async () => { await t.close() })

describe('email addresses', () => {
  it('reach only their owner and the GM: not players, not spectators', async () => {
    const everyone = ['gm@example.org', 'ann@example.org', 'bob@example.org', 'newcomer@example.org']
    const read = async (c: { call: typeof s.ann.call }) => [
      (await c.call('GET', `/api/v1/games/${s.gameId}`)).text,
      (await c.call('GET', `/api/v1/games/${s.gameId}/history`)).text,
      (await c.call('GET', `/api/v1/games/${s.gameId}/turns/${s.turn}`)).text,
      (await c.call('GET', `/api/v1/public/${s.publicToken}`)).text,
    ].join('\n')
    const ann = await read(s.ann)
    for (const email of everyone.filter((e) => e !== s.ann.email)) expect(ann, email).not.toContain(email)
    const spectator = (await read(client(t.app, 'nobody'))) + (await t.app.inject({ method: 'GET', url: `/watch/${s.publicToken}` })).body
    for (const email of everyone) expect(spectator, email).not.toContain(email)
    const annPage = (await t.app.inject({ method: 'GET', url: `/games/${s.gameId}`, headers: { cookie: s.ann.headers.cookie! } })).body
    for (const email of everyone.filter((e) => e !== s.ann.email)) expect(annPage, email).not.toContain(email)
    // The GM still has them: they invited these people.
    const seats = (await s.gm.call('GET', `/api/v1/games/${s.gameId}`)).json.seats as { player: string; email: string | null; invited: string | null }[]
    expect(seats.find((seat) => seat.email === 'ann@example.org')).toBeDefined()
    expect(seats.map((seat) => seat.invited)).toContain('newcomer@example.org')
    const history = (await s.gm.call('GET', `/api/v1/games/${s.gameId}/history`)).json.history
    expect(history.find((h: { action: string }) => h.action === 'replace').detail.invited).toBe('newcomer@example.org')
    expect(history.find((h: { action: string }) => h.action === 'invite').detail.email).toBe('ann@example.org')
  })
})

describe('caches', () => {
  it('are told not to keep any JSON answer, least of all one with a hand or a program', async () => {
    for (const url of [`/api/v1/games/${s.gameId}`, `/api/v1/games/${s.gameId}/turns/${s.turn}`, `/api/v1/games/${s.gameId}/turns/${s.turn}/submissions`, '/api/v1/me']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: s.ann.headers.cookie! } })
      expect(res.statusCode).toBe(200)
      expect(res.headers['cache-control'], url).toBe('no-store')
    }
  })
})

describe('names', () => {
  it('lose control characters and line breaks, are trimmed and bounded, wherever they are typed', async () => {
    const gm = await signIn(t.app, 'names@example.org')
    const made = await gm.call('POST', '/api/v1/games', { name: '  Evil\r\nBcc: all@example.org\u0000\u202e  ', board: 'training-floor', seats: 2, gmPlays: true, gmColour: 'red', gmName: 'G\tM\n' })
    expect(made.status).toBe(201)
    expect(made.json.name).toBe('Evil Bcc: all@example.org')
    expect(made.json.seats[0].name).toBe('G M')
    expect((await gm.call('PATCH', '/api/v1/me', { name: 'Me\r\nX-Header: 1' })).json.name).toBe('Me X-Header: 1')
    expect((await gm.call('PATCH', '/api/v1/me', { name: '\r\n\t ' })).json).toMatchObject({ error: 'bad_request', field: 'name' })
    expect((await gm.call('PATCH', '/api/v1/me', { name: 'x'.repeat(61) })).status).toBe(400)
    await gm.call('POST', `/api/v1/games/${made.json.id}/invites`, { email: 'joiner@example.org' })
    const joiner = await signIn(t.app, 'joiner@example.org')
    const joined = await joiner.call('POST', `/api/v1/invites/${inviteToken(t.app, 'joiner@example.org')}/join`, { name: 'Jo\u0007\r\nSubject: hi', colour: 'blue' })
    expect(joined.status).toBe(200)
    const game = (await gm.call('GET', `/api/v1/games/${made.json.id}`)).json
    expect(game.seats[1].name).toBe('Jo Subject: hi')
    // Nothing stored keeps a control character, so no mail gets one from a name.
    const rows = t.app.services.db.prepare("SELECT name FROM games UNION ALL SELECT name FROM users UNION ALL SELECT name FROM seats WHERE name IS NOT NULL").pluck().all() as string[]
    for (const name of rows) expect(name, JSON.stringify(name)).not.toMatch(/[\u0000-\u001f\u007f\u2028\u2029]/)
  })
})

describe('files on disk', () => {
  it('are for their owner only: data directory, database, WAL, outbox and backups', async () => {
    const root = tempDir()
    const dataDir = join(root, 'data')
    const config = loadConfig({ DATABASE_PATH: join(dataDir, 'botwars.db') })
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
    const app = await testApp({ dir: dataDir, config: { ...config, smtpUrl: undefined } })
    try {
      await signIn(app.app, 'files@example.org')
      await app.app.mailer.deliver()
      for (const file of ['botwars.db', 'botwars.db-wal', 'botwars.db-shm', 'session-secret']) {
        expect(existsSync(join(dataDir, file)), file).toBe(true)
        expect(statSync(join(dataDir, file)).mode & 0o777, file).toBe(0o600)
      }
      const outbox = join(dataDir, 'outbox')
      expect(statSync(outbox).mode & 0o777).toBe(0o700)
      const mails = readdirSync(outbox)
      expect(mails.length).toBeGreaterThan(0)
      for (const mail of mails) expect(statSync(join(outbox, mail)).mode & 0o777, mail).toBe(0o600)
      const backup = join(root, 'backup.db')
      await backupCommand([backup, '--database', join(dataDir, 'botwars.db')])
      expect(statSync(backup).mode & 0o777).toBe(0o600)
    } finally {
      await app.close()
    }
  })
})
