// Event streams read as a browser's EventSource asks for them, for the live pages' tests (and the
// hostile ones in test/security, which need no browser): the raw text that came so far, to assert
// on what a stream did and did not carry, its messages parsed, and whether the server ended it.
import { request as httpRequest, type IncomingMessage } from 'node:http'
import type { Stack } from './harness.js'

/** Opens `path` as an event stream; `text()` is everything received so far. */
export function openStream(stack: Pick<Stack, 'origin'>, path: string, headers: Record<string, string> = {}) {
  const url = new URL(path, stack.origin)
  let body = ''
  let ended = false
  let response: IncomingMessage | null = null
  const req = httpRequest(url, { headers: { accept: 'text/event-stream', 'accept-encoding': 'gzip', ...headers } }, (res) => {
    response = res
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => { body += chunk })
    res.on('end', () => { ended = true })
  })
  req.on('error', () => {})
  req.end()
  return {
    text: () => body,
    headers: () => response?.headers ?? {},
    status: () => response?.statusCode ?? 0,
    /** Whether the server ended the stream. */
    ended: () => ended,
    close: () => req.destroy(),
  }
}

/** The stream's messages so far: comments apart, events with their id and parsed data. */
export function messages(body: string) {
  return body.split('\n\n').filter((block) => block.trim()).map((block) => {
    const lines = block.split('\n')
    const field = (name: string) => lines.find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1).trim()
    const data = field('data')
    return { comment: lines.every((l) => l.startsWith(':')), id: field('id'), event: field('event'), data: data ? JSON.parse(data) as Record<string, unknown> : null }
  })
}

/** Waits (polling every 50 ms) until `what` holds; throws after `timeout` ms, a hang guard (well within the tests' own limits) that a loaded CI machine never comes near. */
export const waitUntil = async (what: () => boolean, timeout = 30_000) => {
  const until = Date.now() + timeout
  while (!what()) {
    if (Date.now() > until) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 50))
  }
}
