// The event streams of the live pages (server-sent events through @fastify/sse):
//   GET /games/:gameId/live        members (players and the GM): who has submitted, what waits for you
//   GET /watch/:publicToken/live   spectators: the public view only
// Each message is an `update` whose id is the game's signature (hub.ts), so a browser that
// reconnects (EventSource sends Last-Event-ID) is told at once if it missed something.
// Heartbeats (comments every 15 s) keep proxies from closing an idle stream.
import { fastifySSE } from '@fastify/sse'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { notFound, rateLimited } from '../errors.js'
import { sessionIdOf } from '../plugins/session.js'
import { memberOf } from '../routes/api/games.js'
import type { ServiceContext } from '../services/context.js'
import { liveHub, type Follower, type LiveHub } from './hub.js'

export const HEARTBEAT_MS = 15_000
/**
 * Streams open at once per signed-in person (every game and tab together) and per address of
 * origin for spectator links. A stream is a socket, a follower and a view worked out again at each
 * change of its game, so one client opening hundreds stalled every change (a hostile review: 300
 * streams, 62 ms). A person with many tabs stays well under these; more are refused with 429,
 * which also stops a browser's EventSource from trying again.
 */
export const STREAMS_PER_PERSON = 16
export const STREAMS_PER_SPECTATOR_ADDRESS = 32
/**
 * Bytes a stream may hold unsent, beyond what the socket's kernel buffers took, before it is cut
 * off. A reader that has stopped reading would otherwise make the server keep every later change
 * for it, for as long as it holds the connection. A browser that was only slow reconnects at once
 * (EventSource) and is told what it missed (Last-Event-ID): nothing is lost by cutting it.
 */
export const MAX_UNREAD_BYTES = 64 * 1024

export async function liveRoutes(app: FastifyInstance, ctx: ServiceContext, heartbeatMs = HEARTBEAT_MS): Promise<LiveHub> {
  const hub = liveHub(ctx)
  // preClose: before the server waits for its connections to finish, which a stream never does.
  app.addHook('preClose', async () => hub.close())
  await app.register(fastifySSE, { heartbeatInterval: heartbeatMs })

  const open = new Map<string, number>()
  const stream = async (request: FastifyRequest, reply: FastifyReply, gameId: string, userId: number | null, mayFollow: () => boolean) => {
    const key = userId !== null ? `person ${userId}` : `address ${request.ip}`
    const count = open.get(key) ?? 0
    if (count >= (userId !== null ? STREAMS_PER_PERSON : STREAMS_PER_SPECTATOR_ADDRESS)) {
      throw rateLimited('too many live pages are open at once: close some, then reload this one')
    }
    open.set(key, count + 1)
    const release = () => {
      const left = (open.get(key) ?? 1) - 1
      if (left > 0) open.set(key, left)
      else open.delete(key)
    }
    reply.header('cache-control', 'no-store')
    reply.header('x-accel-buffering', 'no') // nginx: pass each event on at once
    reply.sse.keepAlive()
    const follower: Follower = {
      gameId, userId, last: null, mayFollow,
      send: (message) => {
        if (!reply.sse.isConnected || reply.raw.destroyed) return
        if (reply.raw.writableLength > MAX_UNREAD_BYTES) {
          // Closing politely would wait for the reader to take what is buffered: drop the socket.
          request.log.info({ unread: reply.raw.writableLength }, 'live stream cut off: its reader stopped reading')
          reply.raw.destroy()
          return
        }
        void reply.sse.send({ id: message.id, event: message.event, data: message.data }).catch(() => {})
      },
      end: () => reply.sse.close(),
    }
    let stop: () => void
    try {
      stop = hub.follow(follower, reply.sse.lastEventId ?? null)
    } catch (err) {
      release()
      throw err
    }
    reply.sse.onClose(() => { stop(); release() })
  }

  app.get<{ Params: { gameId: string } }>('/games/:gameId/live', { sse: 'only' }, async (request, reply) => {
    const user = request.viewer?.user
    if (!user) throw notFound('no such game')
    const m = memberOf(ctx, request.params.gameId, request.viewer)
    const sessionId = sessionIdOf(request)
    // Asked again before each later message: the session still signed in as this person, who is
    // still the game's GM or holds a seat in it (the checks this request passed just now).
    const stillMember = () => {
      if (sessionId === null || ctx.users.sessionUser(sessionId, ctx.now())?.id !== user.id) return false
      const game = ctx.games.byId(m.game.id)
      return game !== undefined && (game.gm_user_id === user.id || ctx.games.seats(game.id).some((s) => s.user_id === user.id))
    }
    return stream(request, reply, m.game.id, user.id, stillMember)
  })

  app.get<{ Params: { publicToken: string } }>('/watch/:publicToken/live', { sse: 'only' }, async (request, reply) => {
    const game = ctx.games.byPublicToken(request.params.publicToken)
    if (!game) throw notFound('no such game')
    // A spectator's link shows the public view for as long as the game has it.
    return stream(request, reply, game.id, null, () => ctx.games.byPublicToken(request.params.publicToken)?.id === game.id)
  })
  return hub
}
