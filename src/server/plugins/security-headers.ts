// The security headers every response carries, worked out once by helmet at start-up.
//
// @fastify/helmet builds helmet's middleware again on every request (two async hooks, the CSP
// directives parsed each time): a fifth of a program submission's time went there. The headers
// never change while the server runs, so helmet (the library, with our policy) computes them once
// against a recording response, and one synchronous hook copies them onto each reply.
import type { FastifyInstance } from 'fastify'
import helmet, { type HelmetOptions } from 'helmet'

/**
 * One policy for pages, pictures and the API. Scripts and styles come only from /static, no inline
 * script at all. Helmet's default CSP asks browsers to upgrade every request to HTTPS, which breaks
 * a server reached over plain HTTP on a LAN address, so that directive is only sent behind HTTPS.
 */
export function securityPolicy(secure: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"], baseUri: ["'self'"], formAction: ["'self'"], frameAncestors: ["'none'"],
        imgSrc: ["'self'", 'data:'], objectSrc: ["'none'"], scriptSrc: ["'self'"], scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"], fontSrc: ["'self'"],
        ...(secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    // HSTS over plain HTTP is ignored by browsers and only confuses a LAN set-up.
    strictTransportSecurity: secure,
  }
}

/** The headers helmet sets for `options`, read off a response object that only records them. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
    },
    removeHeader(name: string) { delete headers[name.toLowerCase()] },
  }
  let failure: unknown
  helmet(options)({} as never, recorder as never, (error?: unknown) => { failure = error })
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure))
  return headers
}

export function registerSecurityHeaders(app: FastifyInstance, secure: boolean): void {
  const headers = Object.freeze({
    ...helmetHeaders(securityPolicy(secure)),
    // Not one of helmet's: the pages use no camera, microphone or location, and say so.
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  })
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers)
    done()
  })
}
