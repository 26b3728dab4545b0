// One way to declare a JSON API route: its zod schemas validate the request and, collected here,
// become the OpenAPI document. Auth is part of the declaration, checked before the handler.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { forbidden, parseInput, unauthorized } from '../errors.js'
import type { UserRow } from '../repositories/users.js'
import type { Viewer } from '../services/context.js'

type Schema = z.ZodType
type Out<S> = S extends z.ZodType ? z.output<S> : undefined

export interface RouteSpec<B extends Schema | undefined, P extends Schema | undefined, Q extends Schema | undefined = undefined> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  url: string
  summary: string
  tag: string
  /** 'user': signed in (cookie or API token); 'public': anyone. */
  auth: 'user' | 'public'
  /**
   * A game's API token may call this route: only that game's player actions (view, submit). A
   * token is refused (403) by every other 'user' route, before anything is read or changed.
   */
  tokens?: true
  /**
   * With `tokens`: the route checks an API token itself, inside the write transaction that stores
   * what it was sent (services/auth.ts, checkedViewer), so the check and the write are one step
   * and the request pays for no separate look-up. Its handler gets a viewer whose `user` is null
   * until it does (Viewer.uncheckedToken). A request refused for anything else has its token
   * checked first (errors.ts), so an unknown token still gets 401, never a 400 that tells what the
   * body should hold.
   */
  tokenCheckedInWrite?: true
  /** Runs before the body is read, e.g. a rate limit that counts every attempt. */
  guard?: (request: FastifyRequest) => Promise<void> | void
  body?: B
  params?: P
  /** The query string (`?from=…`), for paged answers. */
  query?: Q
  /** Documented response body (for OpenAPI); the handler's return value is sent as is. */
  response?: Schema
  status?: number
  /**
   * Who may call it, checked first, on the raw path values: an outsider gets 404 and a player 403
   * whatever they send, never a 400 that tells them what the path or body should hold.
   */
  access?: (input: { params: Record<string, string | undefined>; viewer: Viewer }) => void
  /** Fastify route config, e.g. `{ rateLimit: … }` for @fastify/rate-limit. */
  config?: Record<string, unknown>
  handler: (input: {
    body: Out<B>; params: Out<P>; query: Out<Q>; viewer: Viewer; user: UserRow; request: FastifyRequest; reply: FastifyReply
  }) => unknown
}

export type AnyRouteSpec = RouteSpec<Schema | undefined, Schema | undefined, Schema | undefined>

export const TOKEN_REFUSED = 'an API token works only for its own game\'s player actions (viewing the game and its turns, submitting a program); sign in for the rest'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set from RouteSpec.tokenCheckedInWrite: the session hook leaves the API token unchecked. */
    tokenCheckedInWrite?: boolean
  }
}

export function routeRegistry() {
  const routes: AnyRouteSpec[] = []
  return {
    routes,
    define<B extends Schema | undefined = undefined, P extends Schema | undefined = undefined, Q extends Schema | undefined = undefined>(app: FastifyInstance, spec: RouteSpec<B, P, Q>) {
      routes.push(spec as unknown as AnyRouteSpec)
      app.route({
        method: spec.method,
        url: spec.url,
        // Only a route a token may call can leave its token to be checked in the write.
        config: { ...spec.config, tokenCheckedInWrite: spec.tokenCheckedInWrite === true && spec.tokens === true },
        handler: async (request, reply) => {
          const viewer = request.viewer
          // Only a route declared tokenCheckedInWrite is handed an unchecked token (plugins/session.ts).
          if (spec.auth === 'user' && !viewer.user && viewer.uncheckedToken === undefined) throw unauthorized()
          if (spec.auth === 'user' && viewer.tokenGameId !== undefined && !spec.tokens) throw forbidden(TOKEN_REFUSED)
          spec.access?.({ params: (request.params ?? {}) as Record<string, string | undefined>, viewer })
          await spec.guard?.(request)
          const body = (spec.body ? parseInput(spec.body, request.body, 'body') : undefined) as Out<B>
          const params = (spec.params ? parseInput(spec.params, request.params, 'path') : undefined) as Out<P>
          const query = (spec.query ? parseInput(spec.query, request.query, 'query') : undefined) as Out<Q>
          const result = await spec.handler({ body, params, query, viewer, user: viewer.user!, request, reply })
          if (reply.sent) return reply
          reply.status(spec.status ?? 200)
          return result ?? { ok: true }
        },
      })
    },
  }
}
export type RouteRegistry = ReturnType<typeof routeRegistry>
