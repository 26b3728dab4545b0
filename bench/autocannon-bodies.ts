// autocannon appends every response body to a string (lib/pipelinedRequestsQueue.js, addBody:
// `req.body += data`), kept for response callbacks and body checks that the server bench does not
// use. Decoding ~6 KB of gzipped bytes as UTF-8, bytes that differ from response to response, costs
// the client ~85 µs a response on this machine: a bare Fastify route sending the report pages' own
// bytes (bench/server-target.ts, /pages/:i) served ~9,000 requests/s through autocannon as shipped
// and ~40,000 with the append left out (and ~26,000 as shipped when every response is the same
// bytes: decoding one input over and over is faster). With pages, the client set the pace, not the
// server (docs/performance.md).
//
// `skipBodyText()` leaves the append out for every autocannon client of this process; autocannon
// still counts every byte and checks every status. Called once, before the first run.
import { createRequire } from 'node:module'

interface BodyQueue { prototype: { addBody(data: unknown): void } }

export function skipBodyText(): void {
  const queue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js') as BodyQueue
  queue.prototype.addBody = function addBody() {}
}
