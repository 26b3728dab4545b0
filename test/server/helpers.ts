// Shared by the server tests: an app on a temp-directory database with a clock the test drives,
// sign-in through the real outbox, and small API helpers.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp, type AppOptions } from '../../src/server/app.js'

export const HOUR = 3600_000
export const DAY = 24 * HOUR
export const START = Date.UTC(2030, 0, 7, 12, 0, 0)

export interface TestApp {
  app: FastifyInstance
  dir: string
  clock: { now: number }
  close(): Promise<void>
}

export function tempDir(prefix = 'botwars-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

export async function testApp(options: Partial<AppOptions> & { dir?: string; smtpUrl?: string; clock?: { now: number }; trustProxy?: number | string[] } = {}): Promise<TestApp> {
  const dir = options.dir ?? tempDir()
  const clock = options.clock ?? { now: START }
  const app = await buildApp({
    config: {
      databasePath: join(dir, 'botwars.db'), dataDir: dir, smtpUrl: options.smtpUrl, baseUrl: 'http://botwars.test',
      sessionSecret: 's'.repeat(40), mailFrom: 'BotWars <gm@botwars.test>', trustProxy: options.trustProxy,
    },
    now: () => clock.now,
    newSeed: () => 4242,
    loginRateLimit: 1000,
    // Tests sign the same people in again and again; test/security/limits.test.ts tests the real limit.
    signInMailsPerHour: 1000,
    ...options,
  })
  return {
    app, dir, clock,
    async close() {
      await app.close()
      if (!options.dir) rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface Client {
  email: string
  headers: Record<string, string>
  call(method: string, url: string, body?: unknown): Promise<{ status: number; json: any; text: string }>
}

export function client(app: FastifyInstance, email: string, headers: Record<string, string> = {}): Client {
  return {
    email,
    headers,
    async call(method, url, body) {
      const res = await app.inject({
        method: method as 'GET', url,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      })
      let json: any = null
      try { json = JSON.parse(res.body) } catch { /* not JSON */ }
      return { status: res.statusCode, json, text: res.body }
    },
  }
}

/** The links in the latest outbox message of a kind to an address. */
export function lastMailTo(app: FastifyInstance, email: string, kind?: string) {
  const rows = app.services.outbox.all().filter((r) => r.recipient.toLowerCase() === email.toLowerCase() && (!kind || r.kind === kind))
  return rows.at(-1)
}

export function linksIn(text: string): string[] {
  return text.match(/https?:\/\/\S+/g) ?? []
}

/** Signs in through the real path: request a link, read it from the outbox, use it. */
/**
 * Opens a mailed sign-in link as a person does: the GET shows a confirmation page (it must not
 * sign in by itself: mail scanners open links), and pressing its button posts the token with the
 * page's CSRF token. Returns the POST's response (303 and the session cookie when it worked), or
 * the GET's when the link was refused there.
 */
export async function openSignInLink(app: FastifyInstance, link: string, cookie = '') {
  const url = link.replace('http://botwars.test', '')
  const page = await app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} })
  if (page.statusCode !== 200) return page
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1]
  const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1]
  if (!csrf || !token) throw new Error(`no sign-in button on ${url}: ${page.body.slice(0, 200)}`)
  const csrfCookie = page.cookies.find((c) => c.name === 'botwars_csrf')
  const cookies = [cookie, csrfCookie ? `botwars_csrf=${csrfCookie.value}` : ''].filter(Boolean).join('; ')
  return app.inject({
    method: 'POST', url: '/auth/link', payload: new URLSearchParams({ _csrf: csrf, token }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies },
  })
}

export async function signIn(app: FastifyInstance, email: string, name?: string): Promise<Client> {
  const anon = client(app, email)
  const asked = await anon.call('POST', '/api/v1/auth/login', { email })
  if (asked.status !== 202) throw new Error(`login: ${asked.status} ${asked.text}`)
  const link = linksIn(lastMailTo(app, email, 'sign-in')!.body)[0]!
  const res = await openSignInLink(app, link)
  if (res.statusCode !== 303) throw new Error(`link: ${res.statusCode} ${res.body}`)
  const cookie = res.cookies.find((c) => c.name === 'botwars_session')!
  const c = client(app, email, { cookie: `botwars_session=${cookie.value}` })
  if (name) await c.call('PATCH', '/api/v1/me', { name })
  return c
}

export function inviteToken(app: FastifyInstance, email: string): string {
  const link = linksIn(lastMailTo(app, email, 'invitation')!.body)[0]!
  return link.split('/invites/')[1]!
}

/** Signs the invited person in and takes the seat their latest invitation offers; the signed-in client. */
export async function acceptInvitation(app: FastifyInstance, p: { email: string; name: string; colour: string }): Promise<Client> {
  const c = await signIn(app, p.email)
  const joined = await c.call('POST', `/api/v1/invites/${inviteToken(app, p.email)}/join`, { name: p.name, colour: p.colour })
  if (joined.status !== 200) throw new Error(`join: ${joined.status} ${joined.text}`)
  return c
}

/** A GM (Gemma unless told) and players signed in, game created with the options given, everyone joined. */
export async function setUpGame(app: FastifyInstance, players: { email: string; name: string; colour: string }[], game: Record<string, unknown> = {},
  gmPerson: { email: string; name: string } = { email: 'gm@example.org', name: 'Gemma' }) {
  const gm = await signIn(app, gmPerson.email, gmPerson.name)
  const created = await gm.call('POST', '/api/v1/games', { name: 'Test game', board: 'training-floor', seats: players.length + (game.gmPlays ? 1 : 0), ...game })
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`)
  const gameId = created.json.id as string
  const clients: Client[] = []
  for (const p of players) {
    const invited = await gm.call('POST', `/api/v1/games/${gameId}/invites`, { email: p.email })
    if (invited.status !== 201) throw new Error(`invite: ${invited.status} ${invited.text}`)
    clients.push(await acceptInvitation(app, p))
  }
  return { gm, gameId, players: clients }
}

export const PLAYERS = [
  { email: 'ann@example.org', name: 'Ann', colour: 'red' },
  { email: 'bob@example.org', name: 'Bob', colour: 'blue' },
  { email: 'cid@example.org', name: 'Cid', colour: 'green' },
]
