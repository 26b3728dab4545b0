// What every page route uses: rendering with the common locals (who is signed in, the CSRF token,
// time formatting), POST routes guarded by CSRF, sign-in redirects, the HTML error pages, and
// the two static files (views/static/app.css and app.js).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify'
import { z } from 'zod'
import { browserBundle, bundleVersion } from '../../browser/build.js'
import { plural } from '../../render/board-words.js'
import { cardsInWords } from '../../render/cards.js'
import { spokenLine } from '../../render/spoken.js'
import { AppError, fieldName } from '../errors.js'
import { formTokenOwner } from '../plugins/session.js'
import type { UserRow } from '../repositories/users.js'
import type { ServiceContext } from '../services/context.js'

export class SignInNeeded extends Error {}

export type FieldErrors = Record<string, string>

export interface PageKit {
  app: FastifyInstance
  ctx: ServiceContext
  /** The fingerprint of the code that draws pictures (drawing-fingerprint.ts), part of their versions and ETags. */
  pictureFingerprint: string
  /** Renders views/pages/<view>.ejs inside the layout. */
  render(request: FastifyRequest, reply: FastifyReply, view: string, data: Record<string, unknown>, status?: number): FastifyReply
  /** The same page as text, sending nothing; `data` may override the common locals (user, csrfToken). */
  html(request: FastifyRequest, reply: FastifyReply, view: string, data: Record<string, unknown>): Promise<string>
  /** The signed-in person, or a redirect to the sign-in page that comes back here. */
  user(request: FastifyRequest): UserRow
  /** A form POST route: CSRF-checked before the handler runs. */
  post(url: string, handler: RouteHandlerMethod, config?: Record<string, unknown>): void
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** "2 days 3 hours", "45 minutes", "less than a minute": the two largest units, for people. */
export function duration(ms: number): string {
  const abs = Math.abs(ms)
  if (abs < MINUTE) return 'less than a minute'
  const days = Math.floor(abs / DAY)
  const hours = Math.floor((abs % DAY) / HOUR)
  const minutes = Math.floor((abs % HOUR) / MINUTE)
  if (days > 0) return hours > 0 ? `${plural(days, 'day')} ${plural(hours, 'hour')}` : plural(days, 'day')
  if (hours > 0) return minutes > 0 ? `${plural(hours, 'hour')} ${plural(minutes, 'minute')}` : plural(hours, 'hour')
  return plural(minutes, 'minute')
}

const toMs = (t: number | string | null | undefined) => (t === null || t === undefined ? null : typeof t === 'number' ? t : Date.parse(t))

// Made once: toLocaleDateString builds a new formatter on every call, a tenth of a game page's time.
const DAY_IN_UTC = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })

/** The helpers every view gets. Times are shown in UTC; app.js rewrites <time> into local time. */
export function formatters(now: number) {
  return {
    now,
    /** "Tue 24 Nov, 14:00 UTC" */
    when(t: number | string | null | undefined): string {
      const ms = toMs(t)
      if (ms === null || Number.isNaN(ms)) return ''
      const d = new Date(ms)
      const day = DAY_IN_UTC.format(d)
      return `${day}, ${d.toISOString().slice(11, 16)} UTC`
    },
    iso(t: number | string | null | undefined): string {
      const ms = toMs(t)
      return ms === null || Number.isNaN(ms) ? '' : new Date(ms).toISOString()
    },
    /** "in 2 days 3 hours" / "5 minutes ago" */
    relative(t: number | string | null | undefined): string {
      const ms = toMs(t)
      if (ms === null || Number.isNaN(ms)) return ''
      return ms >= now ? `in ${duration(ms - now)}` : `${duration(now - ms)} ago`
    },
    plural,
    /** Programs written in codes ("FWD2:700 LF90:110") as the pages write cards: "Move 2 (700), Turn left (110)". */
    inWords: cardsInWords,
  }
}

export function assetVersion(dir: string, file: string): string {
  return createHash('sha256').update(readFileSync(join(dir, 'static', file))).digest('hex').slice(0, 12)
}

/** Field → message for every problem zod found (the first per field). */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {}
  for (const issue of error.issues) {
    const field = fieldName(issue.path) || '_form'
    out[field] ??= sentence(issue.message)
  }
  return out
}

/** An AppError as field errors for a form; anything else is rethrown. */
export function appFieldErrors(err: unknown, fallbackField = '_form'): FieldErrors {
  if (err instanceof AppError && err.statusCode < 500 && err.statusCode !== 401) {
    return { [err.field && !err.field.startsWith('cards') ? err.field : fallbackField]: sentence(err.message) }
  }
  throw err
}

export function pageKit(app: FastifyInstance, ctx: ServiceContext, viewsDir: string, pictureFingerprint: string): PageKit {
  const versions: Record<string, string> = {}
  const asset = (file: string) => {
    versions[file] ??= file === 'plan.js' ? bundleVersion() : assetVersion(viewsDir, file)
    return `/static/${file}?v=${versions[file]}`
  }
  const locals = (request: FastifyRequest) => ({
    title: 'BotWars', user: request.viewer?.user ?? null, asset, path: request.url.split('?')[0], errors: {}, values: {}, spoken: spokenLine,
    ...formatters(ctx.now()),
  })
  return {
    app,
    ctx,
    pictureFingerprint,
    render(request, reply, view, data, status = 200) {
      const csrfToken = reply.generateCsrf({ userInfo: formTokenOwner(request) })
      reply.status(status).header('cache-control', 'no-store')
      return reply.view(`pages/${view}.ejs`, { ...locals(request), csrfToken, ...data }) as unknown as FastifyReply
    },
    html(request, reply, view, data) {
      return reply.viewAsync(`pages/${view}.ejs`, { ...locals(request), ...data })
    },
    user(request) {
      const user = request.viewer?.user
      if (!user) throw new SignInNeeded()
      return user
    },
    post(url, handler, config) {
      app.post(url, { preHandler: app.csrfProtection, ...(config ? { config } : {}) }, handler)
    },
  }
}

export function staticFiles(app: FastifyInstance, dir: string): void {
  const types: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8', svg: 'image/svg+xml' }
  // The planning preview: the rules engine bundled for the browser (src/browser), built on the
  // first request after a change and sent gzipped to every browser that accepts it.
  app.get('/static/plan.js', async (request, reply) => {
    const bundle = await browserBundle()
    const etag = `"${bundle.version}"`
    reply.header('etag', etag).header('cache-control', 'public, max-age=31536000, immutable').header('vary', 'accept-encoding')
    if (request.headers['if-none-match'] === etag) return reply.status(304).send()
    reply.type(types.js!)
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(bundle.gzip)
    return reply.send(bundle.js)
  })
  app.get<{ Params: { file: string } }>('/static/:file', async (request, reply) => {
    // icon.svg: the site's icon (the layout links it, so browsers do not ask for /favicon.ico).
    const match = /^(?:app|live|replay)\.(css|js)$|^icon\.(svg)$/.exec(request.params.file)
    if (!match) return reply.status(404).type('text/plain').send('no such file')
    const body = readFileSync(join(dir, 'static', request.params.file))
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`
    reply.header('etag', etag)
    // The pages link them with ?v=<content hash>, so a changed file gets a new URL.
    reply.header('cache-control', 'public, max-age=31536000, immutable')
    if (request.headers['if-none-match'] === etag) return reply.status(304).send()
    return reply.type(types[match[1] ?? match[2]!]!).send(body)
  })
}

/** The path of the page a form was posted from, to come back to after signing in; `/` when the Referer is missing or no URL. */
function refererPath(referer: string | undefined): string {
  if (!referer || !URL.canParse(referer)) return '/'
  return new URL(referer).pathname
}

export function installPageErrors(app: FastifyInstance, kit: PageKit): void {
  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    if (err instanceof SignInNeeded) {
      const next = request.method === 'GET' ? request.url : refererPath(request.headers.referer)
      return reply.redirect(`/sign-in?next=${encodeURIComponent(next)}`, 303)
    }
    if (err instanceof AppError) {
      if (err.statusCode === 401) return reply.redirect(`/sign-in?next=${encodeURIComponent(request.url)}`, 303)
      return kit.render(request, reply, 'error', { title: titleFor(err.statusCode), message: sentence(err.message) }, err.statusCode)
    }
    const code = 'code' in err ? String(err.code) : ''
    if (code.startsWith('FST_CSRF')) {
      return kit.render(request, reply, 'error', {
        title: 'This form was out of date',
        message: 'For your safety the form could not be accepted (its security token was missing or old). Go back, reload the page and send it again.',
      }, 403)
    }
    const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500
    if (status >= 400 && status < 500) return kit.render(request, reply, 'error', { title: titleFor(status), message: sentence(err.message) }, status)
    request.log.error({ err, reqId: request.id }, 'page failed')
    return kit.render(request, reply, 'error', { title: 'Something went wrong', message: `Something went wrong on our side (request ${request.id}). Please try again in a moment.` }, 500)
  })
}

/**
 * An address no route has, opened by a browser: the site's own "Not found" page, with the header,
 * the menu and the skip link of every other page (errors.ts's bare page had none of them, so a
 * reader who followed an old link was left with no way on). Programs and the API get errors.ts's JSON.
 */
export function unknownPages(app: FastifyInstance, kit: PageKit): void {
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0]!
    if (path.startsWith('/api/') || !(request.headers.accept ?? '').includes('text/html')) return reply.callNotFound()
    return kit.render(request, reply, 'error', { title: titleFor(404), message: `There is no page at ${path}. The link may be old or mistyped.` }, 404)
  })
}

function titleFor(status: number): string {
  return status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status === 409 ? 'Not possible right now' : status === 429 ? 'Too many requests' : 'That did not work'
}

export function sentence(text: string): string {
  const t = text.trim()
  return t ? t[0]!.toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? '' : '.') : t
}
