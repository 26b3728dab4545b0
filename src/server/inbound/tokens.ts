// Reply tokens: the secret in a turn mail's reply address that authorises a program by reply,
// for one player and one turn. 120 random bits in lower-case base32 (mail addresses are not
// case-sensitive in practice); only the SHA-256 hash is stored (migration 031).
// A token holds for the person it was mailed to (the seat's player when it was issued, migration
// 041) only as long as they keep the seat: once the GM gives the seat to someone else, the one who
// left holds an address that no longer exists (test/mail/reply-seat-changes.test.ts).
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

/** What is stored of a token (here and with each inbound message, migration 045): never the token itself. */
export const tokenHash = (token: string) => createHash('sha256').update(token.toLowerCase()).digest('hex')

export interface TokenTarget { turn_id: number; player_id: string; game_id: string; turn_number: number }

const repositories = new WeakMap<Db, ReturnType<typeof build>>()

function build(db: Db) {
  const insert = db.prepare<{ hash: string; turn: number; player: string; now: number }>(`INSERT INTO reply_tokens (token_hash, turn_id, player_id, user_id, created_at)
    VALUES (@hash, @turn, @player, (SELECT seats.user_id FROM seats JOIN turns ON turns.game_id = seats.game_id WHERE turns.id = @turn AND seats.player_id = @player), @now)`)
  // A token issued before migration 041 names no holder: it holds if the seat's player sat down before it was issued.
  const lookup = db.prepare<[string], TokenTarget>(`SELECT reply_tokens.turn_id, reply_tokens.player_id, turns.game_id, turns.number AS turn_number
    FROM reply_tokens JOIN turns ON turns.id = reply_tokens.turn_id
      JOIN seats ON seats.game_id = turns.game_id AND seats.player_id = reply_tokens.player_id
    WHERE reply_tokens.token_hash = ? AND seats.user_id IS NOT NULL
      AND (reply_tokens.user_id = seats.user_id OR (reply_tokens.user_id IS NULL AND seats.joined_at <= reply_tokens.created_at))`)
  return {
    /** A new token for the player's turn, held by the seat's player now (each mail gets its own; all stay valid for the turn). */
    issue(turnId: number, playerId: string, now: number): string {
      const token = base32(randomBytes(15))
      insert.run({ hash: tokenHash(token), turn: turnId, player: playerId, now })
      return token
    },
    /** Where a token's program goes, or undefined when no token has this value or its holder no longer has the seat. */
    lookup: (token: string) => lookup.get(tokenHash(token)),
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
