// Sign-in by one-time link (30 minutes, single use) and sessions.
import { signInMail } from '../mail/templates.js'
import type { ServiceContext } from './context.js'

export const SIGN_IN_LINK_TTL_MS = 30 * 60_000
export const SESSION_TTL_MS = 90 * 24 * 3600_000

export function requestSignIn(ctx: ServiceContext, email: string): void {
  ctx.write(() => {
    const token = ctx.users.createLoginToken(email.toLowerCase(), ctx.now(), SIGN_IN_LINK_TTL_MS)
    ctx.mail({ kind: 'sign-in', to: email, ...signInMail(ctx.link(`/auth/link?token=${token}`)) })
  })
}

/** The address an unused, unexpired sign-in link is for (the link stays usable), or undefined. */
export function signInLinkEmail(ctx: ServiceContext, token: string): string | undefined {
  return ctx.users.loginTokenEmail(token, ctx.now())
}

/** Consumes a sign-in link; returns a new session id and the user, or null if the link is unknown, used or expired. */
export function signInWithLink(ctx: ServiceContext, token: string) {
  return ctx.write(() => {
    const email = ctx.users.consumeLoginToken(token, ctx.now())
    if (!email) return null
    const user = ctx.users.findOrCreate(email, ctx.now())
    return { user, sessionId: ctx.users.createSession(user.id, ctx.now(), SESSION_TTL_MS) }
  })
}
