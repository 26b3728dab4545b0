// Which IP addresses a webhook (services/webhooks.ts) must never be sent to when private addresses
// are not allowed: loopback, private, link-local, carrier-grade NAT, multicast, unspecified, and
// every IPv6 form that carries an IPv4 address (mapped, translated, compatible, NAT64, 6to4), judged
// by the IPv4 address inside: `64:ff9b::a9fe:a9fe` reaches 169.254.169.254 through a network's
// NAT64 translator as surely as the IPv4 address itself. Teredo, which hides the IPv4 address it
// reaches, and the documentation ranges are refused whole.
import { isIP } from 'node:net'

function v4Private(a: number, b: number, c: number): boolean {
  return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254)
    || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || a >= 224
    // IETF protocol assignments 192.0.0.0/24 and the documentation ranges (TEST-NET-1, -2, -3): no bot lives there.
    || (a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)
}

/** The eight 16-bit words of an IPv6 address (one isIP accepts), a trailing dotted IPv4 part included. */
function v6Words(ip: string): number[] {
  let text = ip.toLowerCase().replace(/%.*$/, '')
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const words = (part: string | undefined) => (part ? part.split(':').map((w) => parseInt(w, 16)) : [])
  if (tail === undefined) return words(head)
  const [front, back] = [words(head), words(tail)]
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back]
}

/** The IPv4 address carried in words `high` and `high + 1`, judged as an IPv4 address. */
const carriedV4Private = (w: number[], high: number) => v4Private(w[high]! >> 8, w[high]! & 255, w[high + 1]! >> 8)

function v6Private(w: number[]): boolean {
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0)
  // ::/96 (unspecified, loopback, IPv4-compatible: all reserved), ::ffff:0:0/96 mapped, ::ffff:0:0:0/96 translated.
  if (zeros(0, 6)) return true
  if (zeros(0, 5) && w[5] === 0xffff) return carriedV4Private(w, 6)
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return carriedV4Private(w, 6)
  // NAT64: the well-known prefix 64:ff9b::/96 carries the IPv4 address; the local-use 64:ff9b:1::/48 is a private network's own.
  if (w[0] === 0x64 && w[1] === 0xff9b) return w[2] !== 0 || !zeros(3, 6) || carriedV4Private(w, 6)
  // 6to4: 2002:AABB:CCDD::/48 routes to the IPv4 address AA.BB.CC.DD.
  if (w[0] === 0x2002) return carriedV4Private(w, 1)
  // Teredo (2001::/32) tunnels to an IPv4 host whose address it carries obfuscated; documentation (2001:db8::/32).
  if (w[0] === 0x2001 && (w[1] === 0 || w[1] === 0xdb8)) return true
  const first = w[0]!
  // fc00::/7 unique local; fe80::/10 link-local, fec0::/10 site-local and ff00::/8 multicast: all of fe80:: and above.
  return (first & 0xfe00) === 0xfc00 || first >= 0xfe80
}

/** Loopback, private, link-local, carrier-grade NAT, multicast and unspecified addresses (IPv4 and IPv6); anything that is no IP address. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip)
  if (family === 4) {
    const [a, b, c] = ip.split('.').map(Number) as [number, number, number]
    return v4Private(a, b, c)
  }
  if (family !== 6) return true
  return v6Private(v6Words(ip))
}
