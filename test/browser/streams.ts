// Event streams read as a browser's EventSource asks for them, for the live pages' tests: the raw
// text that came so far, to assert on what a stream did and did not carry.
import { request as httpRequest, type IncomingMessage } from 'node:http'
import type { Stack } from './harness.js'

/** Opens `path` as an event stream; `text()` is everything received so far. */
export function openStream(stack: Stack, path: string, headers: Record<string, string> = {}) {
  const url = new URL(path, stack.origin)
  let body = ''
  let response: IncomingMessage | null = null
  const req = httpRequest(url, { headers: { accept: 'text/event-stream', 'accept-encoding': 'gzip', ...headers } }, (res) => {
    response = res
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => { body += chunk })
  })
  req.on('error', () => {})
  req.end()
  return {
    text: () => body,
    headers: () => response?.headers ?? {},
    status: () => response?.statusCode ?? 0,
    close: () => req.destroy(),
  }
}

/** Waits (polling every 50 ms) until `what` holds; throws after `timeout` ms. */
export const waitUntil = async (what: () => boolean, timeout = 5_000) => {
  const until = Date.now() + timeout
  while (!what()) {
    if (Date.now() > until) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 50))
  }
}
