// A small browser stand-in for the inject-level page tests: a cookie jar, GETs, and form POSTs
// that carry the CSRF token of the page they come from, as a real form does.
import type { FastifyInstance } from 'fastify'
import type { Client } from '../server/helpers.js'

export interface PageResponse { status: number; body: string; raw: Buffer; headers: Record<string, string | string[] | number | undefined>; location?: string }

export interface Browser {
  jar: Map<string, string>
  get(url: string, headers?: Record<string, string>): Promise<PageResponse>
  /** GETs `from`, then posts the form fields with that page's CSRF token. */
  submit(from: string, action: string, fields: Record<string, string>): Promise<PageResponse>
  post(action: string, fields: Record<string, string>): Promise<PageResponse>
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html)
  if (!match) throw new Error('no CSRF token on the page')
  return match[1]!
}

export function browser(app: FastifyInstance, signedIn?: Client): Browser {
  const jar = new Map<string, string>()
  const cookie = signedIn?.headers.cookie
  if (cookie) for (const part of cookie.split(/;\s*/)) { const [k, ...v] = part.split('='); jar.set(k!, v.join('=')) }
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const keep = (res: { cookies: { name: string; value: string }[] }) => {
    for (const c of res.cookies) { if (c.value === '') jar.delete(c.name); else jar.set(c.name, c.value) }
  }
  const send = async (method: 'GET' | 'POST', url: string, payload?: string, headers: Record<string, string> = {}): Promise<PageResponse> => {
    const res = await app.inject({
      method, url, payload,
      headers: { cookie: header(), ...(payload !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...headers },
    })
    keep(res)
    return { status: res.statusCode, body: res.body, raw: res.rawPayload, headers: res.headers, location: res.headers.location as string | undefined }
  }
  const self: Browser = {
    jar,
    get: (url, headers) => send('GET', url, undefined, headers),
    async submit(from, action, fields) {
      const page = await self.get(from)
      return send('POST', action, new URLSearchParams({ _csrf: csrfOf(page.body), ...fields }).toString())
    },
    post: (action, fields) => send('POST', action, new URLSearchParams(fields).toString()),
  }
  return self
}
