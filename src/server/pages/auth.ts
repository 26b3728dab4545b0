// Sign-in by mailed link: ask for a link, open it, sign out. The page asked for before signing
// in is remembered in a short-lived signed cookie and opened afterwards.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { AppError } from '../errors.js'
import { sessionIdOf, SESSION_COOKIE } from '../plugins/session.js'
import type { SignInLimits } from '../plugins/sign-in-limits.js'
import { loginRequest } from '../schemas.js'
import { requestSignIn, signInLinkEmail, signInWithLink, signOutEverywhere } from '../services/auth.js'
import { formValues } from './forms.js'
import type { PageKit } from './kit.js'

const NEXT_COOKIE = 'botwars_next'
const tokenQuery = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{10,200}$/) })

/**
 * Only paths of this site, so the sign-in cannot be used to send someone elsewhere. Anything but
 * printable ASCII is percent-encoded (a Location header takes nothing else, and browsers drop
 * tabs and newlines, which would turn "/<tab>/evil.example" into "//evil.example"); a path that
 * cannot be encoded (a lone surrogate) is refused.
 */
export function safeNext(next: unknown): string | null {
  if (typeof next !== 'string' || next.length >= 500) return null
  let encoded: string
  try {
    encoded = next.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run))
  } catch {
    return null
  }
  return /^\/(?![/\\])[\x21-\x7e]*$/.test(encoded) && encoded.length < 2000 ? encoded : null
}

export function authPages(app: FastifyInstance, kit: PageKit, limits: SignInLimits): void {
  const { ctx } = kit

  app.get<{ Querystring: { next?: string } }>('/sign-in', async (request, reply) => {
    return kit.render(request, reply, 'sign-in', { title: 'Sign in', next: safeNext(request.query.next) ?? '' })
  })

  kit.post('/sign-in', async (request, reply) => {
    await limits.guard(request)
    // Only text fields: a field sent twice arrives as a list, and the page also takes JSON.
    const body = formValues(request.body)
    const parsed = loginRequest.safeParse({ email: (body.email ?? '').trim() })
    const next = safeNext(body.next) ?? ''
    if (!parsed.success) {
      return kit.render(request, reply, 'sign-in', {
        title: 'Sign in', next, values: { email: body.email ?? '' },
        errors: { email: 'Enter an email address like ann@example.com.' },
      }, 400)
    }
    try {
      requestSignIn(ctx, parsed.data.email, limits.mailsPerHour)
    } catch (err) {
      if (!(err instanceof AppError) || err.statusCode !== 429) throw err
      return kit.render(request, reply, 'sign-in-sent', { title: 'Check your mail', email: parsed.data.email, recently: true }, 429)
    }
    if (next) reply.setCookie(NEXT_COOKIE, next, { path: '/', httpOnly: true, sameSite: 'lax', maxAge: 3600, signed: true })
    return kit.render(request, reply, 'sign-in-sent', { title: 'Check your mail', email: parsed.data.email, recently: false })
  })

  // The mailed link only shows a button: opening it must not sign anyone in, because mail
  // scanners and link previews open links by themselves and would use the one-time link up
  // (docs/security.md). Pressing the button posts
  // the token; that signs in (303 to the page asked for, else /). A used, unknown or expired link
  // gets the sign-in form with an explanation, on either step.
  app.get<{ Querystring: { token?: string } }>('/auth/link', async (request, reply) => {
    const query = tokenQuery.safeParse(request.query)
    const email = query.success ? signInLinkEmail(ctx, query.data.token) : undefined
    if (!email) return linkProblem(request, reply)
    reply.header('cache-control', 'no-store')
    return kit.render(request, reply, 'sign-in-confirm', { title: 'Sign in', email, token: query.data!.token })
  })

  kit.post('/auth/link', async (request, reply) => {
    // Where to go next is settled before the one-time link is used, so nothing after can fail.
    const raw = request.cookies[NEXT_COOKIE]
    const unsigned = raw ? request.unsignCookie(raw) : null
    const next = unsigned?.valid ? safeNext(unsigned.value) : null
    const query = tokenQuery.safeParse(request.body ?? {})
    const signedIn = query.success ? signInWithLink(ctx, query.data.token) : null
    if (!signedIn) return linkProblem(request, reply)
    app.startSession(reply, signedIn.sessionId)
    if (raw) reply.clearCookie(NEXT_COOKIE, { path: '/' })
    return reply.redirect(next ?? '/', 303)
  })

  const linkProblem = (request: FastifyRequest, reply: FastifyReply) =>
    kit.render(request, reply, 'sign-in', { title: 'Sign in', next: '', linkProblem: true }, 400)

  // "Sign out" ends this session; "Sign out everywhere" (the same form's other button) ends every
  // session of the person and revokes their API tokens (docs/security.md).
  kit.post('/sign-out', async (request, reply) => {
    const id = sessionIdOf(request)
    const user = request.viewer.user
    if (user && (request.body as Record<string, unknown> | undefined)?.everywhere === '1') signOutEverywhere(ctx, user.id)
    else if (id) ctx.users.deleteSession(id)
    reply.clearCookie(SESSION_COOKIE, { path: '/' })
    return reply.redirect('/', 303)
  })
}
