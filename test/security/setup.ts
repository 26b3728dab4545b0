// Shared by the security tests: a game with a GM, two players and an outsider, all signed in
// through the real sign-in path (test/server/helpers.ts), and the list of every JSON API route
// (from /api/v1/openapi.json) and every form post of the web pages.
import type { FastifyInstance } from 'fastify'
import { AppError } from '../../src/server/errors.js'
import { PLAYERS, setUpGame, signIn, type Client } from '../server/helpers.js'

export interface ApiRoute { method: string; path: string; body: boolean; tags: string[] }

export async function apiRoutes(c: Client): Promise<ApiRoute[]> {
  const doc = (await c.call('GET', '/api/v1/openapi.json')).json
  return Object.entries(doc.paths as Record<string, Record<string, { requestBody?: unknown; tags?: string[] }>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, body: op.requestBody !== undefined, tags: op.tags ?? [] })))
}

/** Every form post of the web pages (src/server/pages/*: kit.post). */
export const PAGE_POSTS = [
  '/sign-in', '/sign-out', '/games/new', '/games/{gameId}/join', '/games/{gameId}/invite', '/games/{gameId}/start', '/invites/{token}',
  ...['close', 'extend', 'pause', 'resume', 'reopen', 'resolve', 'publish', 'replace', 'abandon'].map((a) => `/games/{gameId}/gm/${a}`),
  // The GM's job (issue 12) and bots (issue 15) on the console; a practice game from the home page.
  ...['correct', 'rollback', 'end', 'settings', 'open-seat', 'remove', 'seat-bot'].map((a) => `/games/{gameId}/gm/${a}`),
  '/practice',
  // Stopping a series from its page.
  '/series/{seriesId}/stop',
  '/games/{gameId}/turns/{turn}/submit',
  // The mail settings form. (/mail/unsubscribe takes no form token: the HMAC in its link
  // authorises, as one-click unsubscribe needs; test/mail/mail-out.test.ts tries forged links.)
  '/settings/mail',
]

export function fill(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? 'x'))
}

/** A started 2-player game, and a second game (its own GM and player) nobody of the first is in. */
export async function twoGames(app: FastifyInstance) {
  const first = await setUpGame(app, PLAYERS.slice(0, 2))
  const [ann, bob] = first.players as [Client, Client]
  if ((await first.gm.call('POST', `/api/v1/games/${first.gameId}/start`, { reason: 'go' })).status !== 200) throw new Error('start')
  const outsider = await signIn(app, 'eve@example.org', 'Eve')
  const otherGm = await signIn(app, 'olga@example.org', 'Olga')
  const created = await otherGm.call('POST', '/api/v1/games', { name: 'Other game', board: 'training-floor', seats: 2 })
  const otherGameId = created.json.id as string
  const game = (await first.gm.call('GET', `/api/v1/games/${first.gameId}`)).json
  return { gm: first.gm, ann, bob, outsider, otherGm, gameId: first.gameId, otherGameId, publicToken: game.publicToken as string, turn: game.currentTurn.number as number }
}

/** The form token and cookies a page hands out (what a browser on this site holds). */
export async function formToken(app: FastifyInstance, cookie: string, url = '/games/new') {
  const res = await app.inject({ method: 'GET', url, headers: { cookie } })
  const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1]
  const csrfCookie = res.cookies.find((c) => c.name === 'botwars_csrf')
  if (!token || !csrfCookie) throw new Error(`no form token on ${url}: ${res.statusCode}`)
  return { token, cookie: `${cookie}; botwars_csrf=${csrfCookie.value}` }
}

/**
 * Every row of a game's own tables, and how much mail is queued, as one string: equal before and
 * after a refused request means it changed nothing.
 */
export function gameRows(app: FastifyInstance, gameId: string): string {
  const db = app.services.db
  const rows = (sql: string) => db.prepare(sql).all(gameId)
  const ofTurns = 'turn_id IN (SELECT id FROM turns WHERE game_id = ?)'
  return JSON.stringify([
    rows('SELECT * FROM games WHERE id = ?'),
    rows('SELECT * FROM seats WHERE game_id = ?'),
    rows('SELECT * FROM turns WHERE game_id = ?'),
    rows(`SELECT * FROM submissions WHERE ${ofTurns}`),
    rows(`SELECT * FROM corrections WHERE ${ofTurns}`),
    rows('SELECT * FROM gm_actions WHERE game_id = ?'),
    rows('SELECT * FROM messages WHERE game_id = ?'),
    db.prepare('SELECT count(*) FROM outbox').pluck().get(),
  ])
}

/**
 * How a service call refused: [status, message] of the AppError it threw; ['no refusal'] when it
 * returned. Anything else it threw (a bug, such as reading undefined) is thrown on.
 */
export function refusalOf(call: () => unknown): [number, string] | ['no refusal'] {
  try {
    call()
  } catch (error) {
    if (error instanceof AppError) return [error.statusCode, error.message]
    throw error
  }
  return ['no refusal']
}
