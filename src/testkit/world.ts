// Setting up a database for a real server process, and players that act over HTTP against it.
// The setup runs in-process through the services (buildApp on the same file and session secret),
// then the app is closed and the real server is started on the file.
import Database from '../server/plugins/sqlite.js'
import http from 'node:http'
import { join } from 'node:path'
import { buildApp } from '../server/app.js'
import type { FastifyInstance } from 'fastify'
import { SESSION_TTL_MS } from '../server/services/auth.js'
import { seatedGame, start, user, type NewGameOptions } from './games.js'

export interface Player { gameId: string; playerId: string; email: string; token: string; cookie: string }
export interface World { gameIds: string[]; players: Player[]; gm: { email: string; cookie: string } }

export async function withApp<T>(dir: string, secret: string, work: (app: FastifyInstance) => T | Promise<T>): Promise<T> {
  const app = await buildApp({
    config: { databasePath: join(dir, 'botwars.db'), dataDir: dir, smtpUrl: undefined, baseUrl: 'http://127.0.0.1', sessionSecret: secret, mailFrom: 'BotWars <botwars@127.0.0.1>' },
  })
  try {
    return await work(app)
  } finally {
    await app.close()
  }
}

/** Started games (players with API tokens and session cookies), prepared through the services. */
export async function prepareWorld(dir: string, secret: string, sizes: readonly number[], options: NewGameOptions = {}, tag = 'w'): Promise<World> {
  return withApp(dir, secret, (app) => {
    const ctx = app.services
    const gmUser = user(ctx, `gm-${tag}@example.org`, 'Gemma')
    const session = (userId: number) => `botwars_session=${app.signCookie(ctx.users.createSession(userId, ctx.now(), SESSION_TTL_MS))}`
    const world: World = { gameIds: [], players: [], gm: { email: gmUser.email, cookie: session(gmUser.id) } }
    sizes.forEach((size, g) => {
      const seated = Array.from({ length: size }, (_, i) => user(ctx, `p${g}-${i}-${tag}@example.org`))
      const game = seatedGame(ctx, gmUser, seated, { name: `Game ${g}`, board: 'training-floor', reviewWindowHours: 0, closeEarly: true, ...options })
      start(ctx, game, gmUser)
      world.gameIds.push(game.id)
      for (const seat of ctx.games.seats(game.id)) {
        world.players.push({
          gameId: game.id, playerId: seat.player_id, email: seat.email!,
          token: ctx.users.createApiToken(seat.user_id!, game.id, ctx.now()), cookie: session(seat.user_id!),
        })
      }
    })
    return world
  })
}

export interface Ack { gameId: string; playerId: string; turn: number; version: number; cards: string[] }

/** One HTTP request with JSON in and out, over the given agent (so a run can cut its connections when it ends). */
export function request(agent: http.Agent, method: string, url: string, headers: Record<string, string>, body?: unknown, signal?: AbortSignal) {
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = http.request(url, {
      method, agent, signal,
      headers: { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
    }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        let json: unknown = null
        try { json = JSON.parse(Buffer.concat(chunks).toString('utf8')) } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, json })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(payload)
  })
}

/**
 * One player's move over HTTP: read the open turn, submit a legal program (cards drawn from the
 * hand). Returns the acknowledgement on a 2xx, null when there is nothing to do or it was refused.
 */
export async function playOnce(agent: http.Agent, base: string, p: Player, pick: (n: number) => number, signal?: AbortSignal): Promise<Ack | null> {
  const auth = { authorization: `Bearer ${p.token}` }
  const game = await request(agent, 'GET', `${base}/api/v1/games/${p.gameId}`, auth, undefined, signal)
  if (game.status !== 200) return null
  const view = game.json as { status: string; currentTurn?: { number: number; status: string; me?: { canSubmit: boolean; hand: string[]; robot: { at: unknown; mode: string; rebooting: boolean; fused: Record<string, unknown> } } | null } }
  const turn = view.currentTurn
  const me = turn?.me
  if (view.status !== 'running' || !turn || turn.status !== 'open' || !me?.canSubmit) return null
  const wanted = me.robot.at && me.robot.mode !== 'destroyed' && !me.robot.rebooting ? 5 - Object.keys(me.robot.fused).length : 0
  const hand = [...me.hand]
  const cards = Array.from({ length: wanted }, () => hand.splice(pick(hand.length), 1)[0]!)
  const res = await request(agent, 'POST', `${base}/api/v1/games/${p.gameId}/turns/${turn.number}/submission`, auth, { cards }, signal)
  if (res.status !== 201) return null
  const body = res.json as { version: number; cards: string[] }
  return { gameId: p.gameId, playerId: p.playerId, turn: turn.number, version: body.version, cards: body.cards }
}

export function chooser(seed: number) {
  let s = seed >>> 0
  return (n: number) => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s >>> 8) % n }
}

/** A read-only look at the database file (a separate connection; WAL lets it read beside the server). */
export function readDb<T>(path: string, work: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true, fileMustExist: true })
  db.pragma('busy_timeout = 5000')
  try { return work(db) } finally { db.close() }
}
