// Sign-in by emailed link, sign-out, and the signed-in person.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { badRequest } from '../../errors.js'
import { sessionIdOf, SESSION_COOKIE } from '../../plugins/session.js'
import { consumeLinkRequest, loginRequest, updateMeRequest } from '../../schemas.js'
import { requestSignIn, SIGN_IN_MAILS_PER_HOUR, signInWithLink, signOutEverywhere } from '../../services/auth.js'
import { SIGN_IN_REQUESTS_PER_MINUTE, type SignInLimits } from '../../plugins/sign-in-limits.js'
import type { ServiceContext } from '../../services/context.js'
import type { RouteRegistry } from '../define.js'

export const meResponse = z.object({ id: z.number(), email: z.string(), name: z.string() })

export function authRoutes(app: FastifyInstance, ctx: ServiceContext, r: RouteRegistry, limits: SignInLimits) {
  r.define(app, {
    method: 'POST', url: '/auth/login', tag: 'auth', auth: 'public', status: 202, body: loginRequest, guard: limits.guard,
    summary: `Mail a one-time sign-in link (valid 30 minutes, single use) to an address; ${SIGN_IN_MAILS_PER_HOUR} mails an hour to one address, ${SIGN_IN_REQUESTS_PER_MINUTE} requests a minute from one address of origin (429 "rate_limited")`,
    handler: ({ body }) => {
      requestSignIn(ctx, body.email, limits.mailsPerHour)
      return { ok: true, message: `A sign-in link is on its way to ${body.email}.` }
    },
  })
  r.define(app, {
    method: 'POST', url: '/auth/link', tag: 'auth', auth: 'public', body: consumeLinkRequest, response: meResponse,
    summary: 'Use a sign-in link\'s token: starts a session (cookie) and returns the person',
    handler: ({ body, reply }) => {
      const signedIn = signInWithLink(ctx, body.token)
      if (!signedIn) throw badRequest('this sign-in link is unknown, used or expired', 'token')
      app.startSession(reply, signedIn.sessionId)
      return { id: signedIn.user.id, email: signedIn.user.email, name: signedIn.user.name }
    },
  })
  r.define(app, {
    method: 'POST', url: '/auth/logout', tag: 'auth', auth: 'public', summary: 'End the session',
    handler: ({ request, reply }) => {
      const id = sessionIdOf(request)
      if (id) ctx.users.deleteSession(id)
      reply.clearCookie(SESSION_COOKIE, { path: '/' })
      return { ok: true }
    },
  })
  r.define(app, {
    method: 'POST', url: '/auth/logout-everywhere', tag: 'auth', auth: 'user',
    summary: 'End every session of yours and revoke every API token of yours (a plain logout ends only this session)',
    handler: ({ user, reply }) => {
      const ended = signOutEverywhere(ctx, user.id)
      reply.clearCookie(SESSION_COOKIE, { path: '/' })
      return { ok: true, ...ended }
    },
  })
  r.define(app, {
    method: 'GET', url: '/me', tag: 'auth', auth: 'user', response: meResponse, summary: 'The signed-in person',
    handler: ({ user }) => ({ id: user.id, email: user.email, name: user.name }),
  })
  r.define(app, {
    method: 'PATCH', url: '/me', tag: 'auth', auth: 'user', body: updateMeRequest, response: meResponse, summary: 'Change your display name',
    handler: ({ user, body }) => {
      ctx.users.rename(user.id, body.name)
      return { id: user.id, email: user.email, name: body.name }
    },
  })
}
