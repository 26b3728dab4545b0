// Reply tokens: the secret in a turn mail's reply address that authorises a program by reply,
// for one player and one turn. 120 random bits in lower-case base32 (mail addresses are not
// case-sensitive in practice); only the SHA-256 hash is stored (migration 031).
import { createHash, randomBytes } from 'node:crypto'
import type { Db } from '../plugins/db.js'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'
export const TOKEN_PATTERN = /turn-([a-z2-7]{24})(?![a-z2-7])/

function base32(bytes: Buffer): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return out
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex')

export interface TokenTarget { turn_id: number; player_id: string; game_id: string; turn_number: number }

const repositories = new WeakMap<Db, ReturnType<typeof build>>()

function build(db: Db) {
  const insert = db.prepare<[string, number, string, number]>('INSERT INTO reply_tokens (token_hash, turn_id, player_id, created_at) VALUES (?, ?, ?, ?)')
  const lookup = db.prepare<[string], TokenTarget>(`SELECT reply_tokens.turn_id, reply_tokens.player_id, turns.game_id, turns.number AS turn_number
    FROM reply_tokens JOIN turns ON turns.id = reply_tokens.turn_id WHERE reply_tokens.token_hash = ?`)
  return {
    /** A new token for the player's turn (each mail gets its own; all stay valid for the turn). */
    issue(turnId: number, playerId: string, now: number): string {
      const token = base32(randomBytes(15))
      insert.run(hash(token), turnId, playerId, now)
      return token
    },
    lookup: (token: string) => lookup.get(hash(token.toLowerCase())),
  }
}

export function replyTokens(db: Db) {
  let repo = repositories.get(db)
  if (!repo) repositories.set(db, (repo = build(db)))
  return repo
}

/**
 * The reply address holding a token. `mailDomain` is either a domain whose mail reaches this
 * server ("play.example.org" → turn-<token>@play.example.org), or one mailbox that accepts plus
 * addresses ("botwars@example.org" → botwars+turn-<token>@example.org).
 */
export function replyAddress(mailDomain: string, token: string): string {
  const at = mailDomain.lastIndexOf('@')
  return at < 0 ? `turn-${token}@${mailDomain}` : `${mailDomain.slice(0, at)}+turn-${token}@${mailDomain.slice(at + 1)}`
}

/** The token in an address written by replyAddress, if any. */
export function tokenOf(address: string): string | null {
  return TOKEN_PATTERN.exec(address.toLowerCase())?.[1] ?? null
}
