// Per-person mail preferences (by address) and the one-click unsubscribe links that set them.
// A link is an HMAC of the address under the server's 'mail' key (migration 028): nothing is
// stored per link, a link cannot be made for another address, and it works for as long as the
// key is kept.
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Db } from '../plugins/db.js'

export const MAIL_MODES = ['every', 'digest', 'none'] as const
export type MailMode = (typeof MAIL_MODES)[number]

/**
 * Mail that goes whatever the preference: sign-in (without it nobody could sign in to change it)
 * and the answer to a program someone just mailed (they asked for it by mailing).
 */
export const ALWAYS_SENT = new Set(['sign-in', 'reply-confirmation', 'reply-refusal'])

export const MODE_LABELS: Record<MailMode, string> = {
  every: 'Every mail as it happens (a mail per turn and game)',
  digest: 'One digest of my games a day',
  none: 'No mail except sign-in links',
}

export function preferencesRepository(db: Db) {
  const mode = db.prepare<[string], MailMode>('SELECT mode FROM mail_preferences WHERE email = ?').pluck()
  // Choosing the digest starts its day: the first digest goes a day later, not at the next tick
  // (which would make a digest of the first mail that came along).
  const set = db.prepare<[string, MailMode, number, number | null]>(`INSERT INTO mail_preferences (email, mode, updated_at, last_digest_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (email) DO UPDATE SET mode = excluded.mode, updated_at = excluded.updated_at,
      last_digest_at = COALESCE(mail_preferences.last_digest_at, excluded.last_digest_at)`)
  // Stopping mail stops what is already waiting too: queued (say, while the mail server was down),
  // held for a digest, or a digest not sent yet. Mail always sent (ALWAYS_SENT) and mail being sent stay.
  const dropQueued = db.prepare<[string, string]>(`DELETE FROM outbox WHERE lower(recipient) = ? AND status = 'pending'
    AND kind NOT IN (SELECT value FROM json_each(?))`)
  const dropHeld = db.prepare<[string]>('DELETE FROM mail_digest WHERE recipient = ? AND digest_id IS NULL')
  const key = db.prepare<[], Buffer>("SELECT key FROM server_keys WHERE name = 'mail'").pluck()
  let mailKey: Buffer | undefined
  const token = (email: string) => createHmac('sha256', (mailKey ??= key.get()!)).update(`unsubscribe:${email.toLowerCase()}`).digest('base64url')
  return {
    modeOf: (email: string): MailMode => mode.get(email) ?? 'every',
    /** Sets the mode, inside the caller's transaction; `none` also withdraws what waits for the address. */
    setMode: (email: string, m: MailMode, now: number) => {
      set.run(email.toLowerCase(), m, now, m === 'digest' ? now : null)
      if (m === 'none') {
        dropQueued.run(email.toLowerCase(), JSON.stringify([...ALWAYS_SENT]))
        dropHeld.run(email)
      }
    },
    unsubscribeToken: token,
    /** Whether `candidate` is the unsubscribe token of `email` (compared in constant time). */
    checkUnsubscribeToken(email: string, candidate: string): boolean {
      const want = Buffer.from(token(email))
      const got = Buffer.from(candidate)
      return want.length === got.length && timingSafeEqual(want, got)
    },
  }
}
export type PreferencesRepository = ReturnType<typeof preferencesRepository>

/** The path of the one-click unsubscribe link for an address (served by mail/pages.ts). */
export function unsubscribePath(prefs: PreferencesRepository, email: string): string {
  return `/mail/unsubscribe?a=${Buffer.from(email.toLowerCase()).toString('base64url')}&t=${prefs.unsubscribeToken(email)}`
}
