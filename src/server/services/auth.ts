// Sign-in by one-time link (30 minutes, single use), sessions, and the API tokens bots use.
import { rateLimited, unauthorized } from '../errors.js'
import { signInMail } from '../mail/templates.js'
import type { ServiceContext, Viewer } from './context.js'

export const SIGN_IN_LINK_TTL_MS = 30 * 60_000
export const SESSION_TTL_MS = 90 * 24 * 3600_000

/** Who an API token speaks for: its user, for the one game it was issued for; 401 if it is unknown or revoked. */
export function tokenViewer(ctx: ServiceContext, token: string): Viewer {
  const user = ctx.users.apiTokenUser(token)
  if (!user) throw unauthorized('the API token is unknown or revoked')
  const { game_id: gameId, ...rest } = user
  return { user: rest, tokenGameId: gameId }
}

/**
 * The viewer, with an API token that was not yet looked up (Viewer.uncheckedToken) checked now.
 * Called inside a write transaction, the check and the write are one step: a token revoked by
 * anyone before the transaction began is seen, and nothing is stored with it.
 */
export function checkedViewer(ctx: ServiceContext, viewer: Viewer): Viewer {
  return viewer.uncheckedToken === undefined ? viewer : tokenViewer(ctx, viewer.uncheckedToken)
}

/** Sign-in mails to one address per hour, by default: the page and the API share it (the count is in the database). */
export const SIGN_IN_MAILS_PER_HOUR = 3
const HOUR_MS = 3600_000

/**
 * Mails a sign-in link, unless `perHour` links went to that address in the last hour: then 429
 * (without it, anyone could bomb an address with sign-in mail, from as many addresses of origin
 * as they like). The earlier link still works.
 */
export function requestSignIn(ctx: ServiceContext, email: string, perHour = SIGN_IN_MAILS_PER_HOUR): void {
  ctx.write(() => {
    const address = email.toLowerCase()
    if (ctx.users.loginTokensSince(address, ctx.now() - HOUR_MS) >= perHour) {
      throw rateLimited('a sign-in link was sent to this address recently: use that one (it works for 30 minutes), or ask again in an hour')
    }
    const token = ctx.users.createLoginToken(address, ctx.now(), SIGN_IN_LINK_TTL_MS)
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

/**
 * Ends every session of a person and revokes every API token they hold. A plain sign-out ends
 * only the session it is sent from and leaves API tokens working (docs/security.md).
 */
export function signOutEverywhere(ctx: ServiceContext, userId: number): { sessions: number; tokens: number } {
  return ctx.write(() => ({ sessions: ctx.users.deleteSessionsOf(userId), tokens: ctx.users.revokeAllApiTokens(userId, ctx.now()) }))
}
