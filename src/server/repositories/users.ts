// People, one-time sign-in links, sessions and API tokens. Only hashes of secrets are stored.
import { createHash, randomBytes } from 'node:crypto'
import type { Db } from '../plugins/db.js'
import { touchMessages } from './message-marks.js'
import { watchedCache } from './watched-cache.js'

export interface UserRow {
  id: number; email: string; name: string; created_at: number
  /** 1 once the person chose their display name (until then it is their address's local part). */
  name_chosen?: number
}

export const newSecret = () => randomBytes(24).toString('base64url')
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex')

type SessionRow = UserRow & { expires_at: number }
type TokenRow = UserRow & { game_id: string }

export function usersRepository(db: Db) {
  const byId = db.prepare<[number], UserRow>('SELECT * FROM users WHERE id = ?')
  const byEmail = db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?')
  const insert = db.prepare<[string, string, number], UserRow>('INSERT INTO users (email, name, created_at) VALUES (?, ?, ?) RETURNING *')
  const rename = db.prepare<[string, number]>('UPDATE users SET name = ?, name_chosen = 1 WHERE id = ?')
  const insertLogin = db.prepare<[string, string, number, number]>('INSERT INTO login_tokens (token_hash, email, created_at, expires_at) VALUES (?, ?, ?, ?)')
  const useLogin = db.prepare<[number, string, number], { email: string }>(
    'UPDATE login_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING email')
  const loginsSince = db.prepare<[string, number], number>('SELECT COUNT(*) FROM login_tokens WHERE email = ? AND created_at > ?').pluck()
  const pendingLogin = db.prepare<[string, number], string>(
    'SELECT email FROM login_tokens WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?').pluck()
  const insertSession = db.prepare<[string, number, number, number]>('INSERT INTO sessions (id_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
  const sessionUser = db.prepare<[string], SessionRow>(
    'SELECT users.*, sessions.expires_at FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.id_hash = ?')
  const deleteSession = db.prepare<[string]>('DELETE FROM sessions WHERE id_hash = ?')
  const deleteSessionsOf = db.prepare<[number]>('DELETE FROM sessions WHERE user_id = ?')
  const revokeAllTokens = db.prepare<[number, number]>('UPDATE api_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL')
  const revokeTokens = db.prepare<[number, number, string]>('UPDATE api_tokens SET revoked_at = ? WHERE user_id = ? AND game_id = ? AND revoked_at IS NULL')
  const insertToken = db.prepare<[string, number, string, number]>('INSERT INTO api_tokens (token_hash, user_id, game_id, created_at) VALUES (?, ?, ?, ?)')
  const tokenUser = db.prepare<[string], TokenRow>(
    'SELECT users.*, api_tokens.game_id FROM api_tokens JOIN users ON users.id = api_tokens.user_id WHERE token_hash = ? AND revoked_at IS NULL')
  // Who a session or an API token belongs to is read on every request: cached exactly (every
  // write below clears the caches; other connections' commits are seen through data_version).
  // Kept by the secret itself, in this process's memory only (the database holds only its hash,
  // and the cookie signer's memory already holds the signed session cookie): hashing it on every
  // request was a measurable part of a kept page's time. A session's user is one frozen row for as
  // long as it is cached, so what is worked out per viewer can be kept on it (pages/published-turn.ts).
  const sessions = watchedCache<{ expiresAt: number; user: Readonly<UserRow> }>(db)
  const tokens = watchedCache<TokenRow>(db)
  const changed = () => { sessions.clear(); tokens.clear() }

  return {
    byId: (id: number) => byId.get(id),
    byEmail: (email: string) => byEmail.get(email),
    findOrCreate(email: string, now: number): UserRow {
      return byEmail.get(email) ?? insert.get(email, email.split('@')[0]!.slice(0, 60) || 'player', now)!
    },
    // A former player's messages show their name from here (services/messages.ts): kept threads are made again.
    rename: (id: number, name: string) => { rename.run(name, id); changed(); touchMessages(db) },
    createLoginToken(email: string, now: number, ttlMs: number): string {
      const token = newSecret()
      insertLogin.run(hashSecret(token), email, now, now + ttlMs)
      return token
    },
    /** Sign-in links made for an address (lower case) after a time. */
    loginTokensSince: (email: string, since: number) => loginsSince.get(email, since)!,
    /** The address a sign-in link is for, while it is unused and unexpired; reading does not use it. */
    loginTokenEmail: (token: string, now: number) => pendingLogin.get(hashSecret(token), now),
    /** Single use: the UPDATE succeeds once, and only before expiry. */
    consumeLoginToken: (token: string, now: number) => useLogin.get(now, hashSecret(token), now)?.email,
    createSession(userId: number, now: number, ttlMs: number): string {
      const id = newSecret()
      insertSession.run(hashSecret(id), userId, now, now + ttlMs)
      changed()
      return id
    },
    sessionUser(sessionId: string, now: number): Readonly<UserRow> | undefined {
      const session = sessions.get(sessionId, () => {
        const row = sessionUser.get(hashSecret(sessionId))
        if (!row) return undefined
        const { expires_at: expiresAt, ...user } = row
        return { expiresAt, user: Object.freeze(user) }
      })
      return session && session.expiresAt > now ? session.user : undefined
    },
    deleteSession: (sessionId: string) => { deleteSession.run(hashSecret(sessionId)); changed() },
    deleteSessionsOf(userId: number): number {
      const deleted = deleteSessionsOf.run(userId).changes
      changed()
      return deleted
    },
    revokeAllApiTokens(userId: number, now: number): number {
      const revoked = revokeAllTokens.run(now, userId).changes
      changed()
      return revoked
    },
    /** A new API token for a player in one game; the previous one stops working. */
    createApiToken(userId: number, gameId: string, now: number): string {
      const token = newSecret()
      revokeTokens.run(now, userId, gameId)
      insertToken.run(hashSecret(token), userId, gameId, now)
      changed()
      return token
    },
    revokeApiTokens(userId: number, gameId: string, now: number): number {
      const revoked = revokeTokens.run(now, userId, gameId).changes
      changed()
      return revoked
    },
    apiTokenUser(token: string): TokenRow | undefined {
      return tokens.get(token, () => tokenUser.get(hashSecret(token)))
    },
  }
}
export type UsersRepository = ReturnType<typeof usersRepository>
