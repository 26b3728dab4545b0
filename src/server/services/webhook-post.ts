// One webhook POST (services/webhooks.ts sends them), made so that the address checked is the
// address called. A name is looked up once, by the connection itself, and refused there if any of
// its addresses is private (unless the policy allows them): a separate look-up before the request
// would let a name server with a zero TTL answer a public address to the check and 127.0.0.1 to the
// connection (DNS rebinding). No redirect is followed, the answer's body is never read (a bot
// server may send one without end), and the whole exchange has one time limit.
import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { isPrivateAddress } from './private-addresses.js'

/**
 * Ports of other protocols (mail, SSH, DNS, IRC …), refused as the WHATWG Fetch standard's "bad
 * ports" are: a POST there could speak to a mail or chat server in its own language.
 */
const OTHER_PROTOCOLS_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115,
  117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587,
  601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669,
  6679, 6697, 10080,
])

export function otherProtocolPort(url: URL): boolean {
  return url.port !== '' && OTHER_PROTOCOLS_PORTS.has(Number(url.port))
}

/** node:dns's look-up (read at each call), refusing a name any of whose addresses is private. */
function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '')
      const refused = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address))
      if (refused || addresses.length === 0) return callback(new Error(refused ? `${hostname} resolves to a private address` : `${hostname} has no address`), '')
      if (options.all) callback(null, addresses)
      else callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  }
}

export interface WebhookPostOptions {
  allowPrivate: boolean
  timeoutMs: number
}

/** POSTs `body` to `url`; resolves with the answer's status code, rejects when no answer came in time. */
export function postWebhook(url: URL, body: string, headers: Record<string, string>, options: WebhookPostOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      // A connection of its own, closed after the answer: no connection outlives its delivery.
      agent: false,
      lookup: checkedLookup(options.allowPrivate),
      signal: AbortSignal.timeout(options.timeoutMs),
    }, (response) => {
      resolve(response.statusCode ?? 0)
      response.destroy()
    })
    request.on('error', reject)
    request.end(body)
  })
}
