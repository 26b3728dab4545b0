// The request log without the credentials some URLs carry. Fastify logs every request's URL, and
// these links are capabilities: the one-time sign-in link (`/auth/link?token=`, used up only when
// its button is pressed, so a logged token would sign its reader in for half an hour), an
// invitation (`/invites/<token>`: a logged one takes the seat), a spectator link (`/watch/<token>`,
// `/api/v1/public/<token>`) and an unsubscribe link (`?t=`, which stops someone's mail). A log is
// read by more people, and kept longer, than the secrets it would hold.
import type { FastifyServerOptions } from 'fastify'

const SECRET_QUERY = new Set(['token', 't'])
const SECRET_SEGMENT_AFTER = new Set(['invites', 'watch', 'public'])

/** `url` (path and query) with every credential replaced by `…`. */
export function redactedUrl(url: string): string {
  const at = url.indexOf('?')
  const path = at < 0 ? url : url.slice(0, at)
  const segments = path.split('/')
  for (let i = 1; i < segments.length; i++) if (SECRET_SEGMENT_AFTER.has(segments[i - 1]!)) segments[i] = '…'
  if (at < 0) return segments.join('/')
  const query = url.slice(at + 1).split('&').map((pair) => {
    const name = decodeURIComponentSafe(pair.split('=')[0]!)
    return SECRET_QUERY.has(name) ? `${pair.split('=')[0]}=…` : pair
  })
  return `${segments.join('/')}?${query.join('&')}`
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

type LoggerOption = FastifyServerOptions['logger']

/** The app's logger options with request URLs redacted (false stays false: no log). */
export function loggerWithRedactedUrls(logger: LoggerOption): LoggerOption {
  if (!logger) return false
  const options = logger === true ? {} : logger
  return {
    ...options,
    serializers: {
      ...options.serializers,
      req: (request: { method: string; url: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: request.method, url: redactedUrl(request.url), host: request.hostname, remoteAddress: request.ip, remotePort: request.socket?.remotePort,
      }),
    },
  }
}
