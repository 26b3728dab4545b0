// The form token (CSRF) in a kept page's slot (published-turn.ts, game-page-cache.ts, the kept
// message threads): made once per form cookie and session, then reused. Making one is two HMACs,
// a tenth of a kept page's time.
//
// Why reusing one is as safe as making a new one:
// - @fastify/csrf tokens made without a validity (pages/index.ts sets none) never expire: a
//   token is accepted exactly while its form cookie's secret and its session (the token's
//   userInfo, formTokenOwner) are the ones it was made for. Both are in the key, so a token is
//   only ever given to a request that a fresh one from the same secret and session would go to.
// - A token new in every response only matters against compression side channels (BREACH): a
//   kept page sends its slots as stored, uncompressed deflate blocks (gzip-parts.ts), never
//   compressed together with text an attacker wrote, so a repeated token shows in no length.
//   Pages rendered and compressed whole (kit.ts) still make a new token every time.
// Only a form cookie whose signature holds is remembered: without one, generateCsrf makes a new
// secret and sets its cookie, which must happen on that response.
import ejs from 'ejs'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { csrfCookieName, formTokenOwner } from '../plugins/session.js'
import type { ServiceContext } from '../services/context.js'
import { lruMap, type LruMap } from '../services/lru.js'
import { keptBytes } from './gzip-parts.js'

/** Form cookies remembered, each with the session its token was made for (~300 bytes each: ~6 MiB at the bound). */
export const KEPT_FORM_TOKENS_MAX_ENTRIES = 20_000

interface KeptToken { readonly owner: string; readonly token: Buffer }

const tokens = new WeakMap<ServiceContext, LruMap<string, KeptToken>>()

/** The viewer's form token, HTML-escaped, as the bytes that go into the slot. */
export function keptFormToken(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply): Buffer {
  const owner = formTokenOwner(request)
  const cookie = request.cookies[csrfCookieName(ctx.baseUrl.startsWith('https:'))]
  const fresh = () => keptBytes(ejs.escapeXML(reply.generateCsrf({ userInfo: owner })))
  if (!cookie) return fresh()
  let kept = tokens.get(ctx)
  if (!kept) tokens.set(ctx, (kept = lruMap<string, KeptToken>(KEPT_FORM_TOKENS_MAX_ENTRIES)))
  // A cookie is kept only once its signature held, and the very same signed value holds again: a
  // kept one needs no second check. Another session with the same cookie gets a token of its own.
  const found = kept.get(cookie)
  if (found !== undefined && found.owner === owner) return found.token
  if (!request.unsignCookie(cookie).valid) return fresh()
  const token = fresh()
  kept.set(cookie, { owner, token })
  return token
}
