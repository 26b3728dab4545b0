// Who is asking: a signed, http-only session cookie (set by the sign-in link) or an
// `Authorization: Bearer <api token>` header, which opens only the game it was issued for.
import cookie, { signerFactory, type UnsignResult } from '@fastify/cookie'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { unauthorized } from '../errors.js'
import { SESSION_TTL_MS, tokenViewer } from '../services/auth.js'
import type { ServiceContext, Viewer } from '../services/context.js'
import { lruMap } from '../services/lru.js'

export const SESSION_COOKIE = 'botwars_session'

/** The form cookie; over HTTPS with the `__Host-` prefix, so no other host (a sibling subdomain) can set it. */
export const csrfCookieName = (secure: boolean) => (secure ? '__Host-botwars_csrf' : 'botwars_csrf')

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer
  }
}

export async function registerSessions(app: FastifyInstance, ctx: ServiceContext, secret: string, secure: boolean) {
  await app.register(cookie, { secret: rememberingSigner(secret) })
  app.decorateRequest('viewer', null as unknown as Viewer)
  // A callback, not an async hook: with every onRequest hook synchronous, a page's route runs in the
  // same synchronous run as this lookup, so both share one reading of PRAGMA data_version
  // (repositories/data-version.ts) rather than each making a trip into SQLite.
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      request.viewer = viewerOf(ctx, request)
    } catch (error) {
      done(error as Error)
      return
    }
    done()
  })
  app.decorate('startSession', (reply: FastifyReply, sessionId: string) => {
    reply.setCookie(SESSION_COOKIE, sessionId, {
      signed: true, httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: Math.floor(SESSION_TTL_MS / 1000),
    })
  })
}

declare module 'fastify' {
  interface FastifyInstance {
    startSession(reply: FastifyReply, sessionId: string): void
  }
}

/** Signed cookie values whose signature was found valid, at most (a session's and a form cookie's per browser). */
const REMEMBERED_SIGNATURES = 20_000

/**
 * The cookie signer, remembering the signed values it found valid: every page request carries the
 * same session and form cookies, and checking each signature (an HMAC) again was a measurable part
 * of a kept page's time. Only valid results are kept (a forged value is checked every time and
 * cannot push the real ones out), in a bounded map (services/lru.ts), least recently used out first; a value once valid stays
 * valid for the same secret, so nothing is served that a fresh check would refuse.
 */
function rememberingSigner(secret: string): ReturnType<typeof signerFactory> {
  const signer = signerFactory(secret)
  const valid = lruMap<string, UnsignResult>(REMEMBERED_SIGNATURES)
  return {
    sign: (value: string) => signer.sign(value),
    unsign(input: string) {
      const known = valid.get(input)
      if (known) return known
      const result = signer.unsign(input)
      if (result.valid) valid.set(input, Object.freeze(result))
      return result
    },
  }
}

function viewerOf(ctx: ServiceContext, request: FastifyRequest): Viewer {
  const header = request.headers.authorization?.trim()
  // Only the Bearer scheme is ours (any case, RFC 7235 §2.1). Another scheme, such as the Basic
  // credentials a reverse proxy's password asks browsers for, is not meant for us: the session
  // cookie decides, as without the header.
  if (header !== undefined && /^bearer(\s|$)/i.test(header)) {
    const match = /^bearer\s+([A-Za-z0-9_-]{10,200})$/i.exec(header)
    if (!match) throw unauthorized('the API token is unknown or revoked')
    // A route that stores what it is sent checks the token in the same transaction (RouteSpec.tokenCheckedInWrite):
    // outside a transaction, asking SQLite whether another connection changed the tokens costs more than the rest of the check.
    if (request.routeOptions.config.tokenCheckedInWrite === true) return { user: null, uncheckedToken: match[1]! }
    return tokenViewer(ctx, match[1]!)
  }
  const sessionId = sessionIdOf(request)
  const user = sessionId ? ctx.users.sessionUser(sessionId, ctx.now()) : undefined
  return { user: user ?? null }
}

// The session cookie's checked value per request: its signature (an HMAC) is checked once, not
// again by every form token made or checked in the same request.
const sessionIds = new WeakMap<FastifyRequest, string | null>()

export function sessionIdOf(request: FastifyRequest): string | null {
  const known = sessionIds.get(request)
  if (known !== undefined) return known
  const raw = request.cookies[SESSION_COOKIE]
  const unsigned = raw ? request.unsignCookie(raw) : null
  const id = unsigned?.valid ? unsigned.value : null
  sessionIds.set(request, id)
  return id
}

/**
 * What a form token is bound to (pages/index.ts): the session it was made in, or "signed-out".
 * A token made in one session does not work in another, whoever holds the form cookie.
 */
export function formTokenOwner(request: FastifyRequest): string {
  return sessionIdOf(request) ?? 'signed-out'
}
