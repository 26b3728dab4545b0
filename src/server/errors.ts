// Failures a client can cause are AppErrors with a 4xx status and a message meant for people;
// anything else is a bug, logged with the request id and answered without internals.
import type { FastifyError, FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Viewer } from './services/context.js'

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
    readonly field?: string,
  ) {
    super(message)
  }
}

export const badRequest = (message: string, field?: string) => new AppError(400, 'bad_request', message, field)
export const unauthorized = (message = 'sign in first') => new AppError(401, 'unauthorized', message)
export const forbidden = (message: string) => new AppError(403, 'forbidden', message)
export const notFound = (message = 'not found') => new AppError(404, 'not_found', message)
export const conflict = (message: string, field?: string) => new AppError(409, 'conflict', message, field)
export const rateLimited = (message: string) => new AppError(429, 'rate_limited', message)

export function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) =>
    typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key), '')
}

/** Parses request input with a zod schema, or throws a 400 naming the first bad field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown, where: string): z.output<T> {
  const result = schema.safeParse(input ?? {})
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  if (issue.code === 'unrecognized_keys') {
    // A field the shape does not have (request bodies are strict): a misspelt optional field, such
    // as "rebootnext", would otherwise be dropped without a word, and the player think it was sent.
    const field = fieldName([...issue.path, issue.keys[0]!])
    const known = issue.path.length === 0 && schema instanceof z.ZodObject ? Object.keys(schema.shape) : []
    throw badRequest(`${field}: no such field${known.length ? ` (the fields are ${known.join(', ')})` : ''}`, field)
  }
  const field = fieldName(issue.path)
  throw badRequest(field ? `${field}: ${issue.message}` : `${where}: ${issue.message}`, field || undefined)
}

/**
 * `checkToken` checks an API token a route left for its own write to check (Viewer.uncheckedToken),
 * throwing 401: a request refused before then (bad JSON, a body that fails its schema, a conflict)
 * gets 401 for an unknown token, as on every other route, never a refusal that tells what the body
 * should hold.
 */
export function installErrorHandling(app: FastifyInstance, checkToken: (viewer: Viewer) => void): void {
  app.setErrorHandler((refusal: FastifyError | AppError | Error, request, reply) => {
    let err = refusal
    if (request.viewer?.uncheckedToken !== undefined && !(err instanceof AppError && err.statusCode === 401)) {
      try {
        checkToken(request.viewer)
      } catch (unknownToken) {
        err = unknownToken as AppError
      }
    }
    if (err instanceof AppError) {
      return reply.status(err.statusCode).send({ error: err.error, message: err.message, ...(err.field ? { field: err.field } : {}) })
    }
    const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500
    if (status >= 400 && status < 500) {
      // Fastify's own refusals: bad JSON, body too large, unsupported media type, …
      const code = 'code' in err && typeof err.code === 'string' ? err.code : status === 429 ? 'rate_limited' : 'bad_request'
      return reply.status(status).send({ error: code.replace(/^FST_ERR_/, '').toLowerCase(), message: err.message })
    }
    request.log.error({ err, reqId: request.id }, 'request failed')
    return reply.status(500).send({ error: 'internal', message: `Something went wrong on our side (request ${request.id}).` })
  })
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!
    // People following an old or mistyped link get a page; programs get the API's JSON error.
    if (!path.startsWith('/api/') && (request.headers.accept ?? '').includes('text/html')) {
      return reply.status(404).type('text/html; charset=utf-8').send(notFoundPage(path))
    }
    return reply.status(404).send({ error: 'not_found', message: `no route ${request.method} ${path}` })
  })
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

function notFoundPage(path: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found · BotWars</title><link rel="stylesheet" href="/static/app.css"></head>
<body><main><section class="panel narrow"><h1>Not found</h1>
<p>There is no page at <code>${escapeHtml(path)}</code>. The link may be old or mistyped.</p>
<p><a href="/">Go to my games</a></p></section></main></body></html>
`
}
