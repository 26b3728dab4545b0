// The mail outbox. Rows are written inside the transaction that causes them; the worker claims a
// row with a lease before sending, so two workers never send one message at the same time.
// Each recipient's mail preference is applied here, when the mail is queued: held for their
// daily digest, dropped when they want none (sign-in mail always goes).
import { ALWAYS_SENT, preferencesRepository } from '../mail/preferences.js'
import type { Db } from '../plugins/db.js'

export interface OutboxRow {
  id: number; kind: string; game_id: string | null; recipient: string; subject: string; body: string
  status: 'pending' | 'sending' | 'sent' | 'failed'; attempts: number; next_attempt_at: number; lease_until: number | null
  last_error: string | null; created_at: number; sent_at: number | null
  given_up_as: GivenUpAs | null; reply_code: string | null
  html: string | null; headers_json: string | null; picture_json: string | null; rests_on_turn: number | null
}

export interface NewMail {
  kind: string; gameId?: string | null; to: string; subject: string; body: string
  /** The HTML part; made from `body` when the mail is sent if left out. */
  html?: string
  /** Extra headers, e.g. Reply-To. */
  headers?: Record<string, string>
  /** The board picture to attach (mail/picture.ts), rendered when the mail is sent. */
  picture?: { gameId: string; turn: number; player: string | null }
  /**
   * The last published turn the mail stands on, where a rollback would make it untrue (migration
   * 042): a turn's results and the next turn's hand stand on that turn; the draft mail of turn n,
   * on turn n - 1. A rollback of that turn or an earlier one withdraws it if it is still unsent.
   */
  restsOnTurn?: number
}

/** How a mail was given up for good (migration 049): refused by the mail server, or not sent for days. */
export type GivenUpAs = 'refused' | 'expired'

/**
 * A mail given up for good (mail/worker.ts): the server's whole error text, for the operator, and
 * what of it any GM may see, the way it was given up and the server's reply code (migration 049).
 */
export interface GiveUp { as: GivenUpAs; error: string; replyCode: string | null }

/**
 * A mail given up for good, as its game's GM sees it: a mail of that game, or one of that game's
 * parts of a digest (`in_digest`), with the part's own subject and queue time (migration 046).
 * `given_up_as` is null for a mail given up before migration 049.
 */
export interface UndeliveredMail {
  recipient: string; subject: string; last_error: string | null; created_at: number; in_digest: 0 | 1
  given_up_as: GivenUpAs | null; reply_code: string | null
  /** The mail's kind; a digest's part: 'digest'. */
  kind: string
}

/** A held mail of someone who wants a daily digest; `digest_id` is the queued digest it went into (migration 043). */
export interface DigestRow {
  id: number; recipient: string; kind: string; game_id: string | null; subject: string; body: string; created_at: number
  rests_on_turn: number | null; digest_id: number | null
}

export function outboxRepository(db: Db) {
  const prefs = preferencesRepository(db)
  const insert = db.prepare<[string, string | null, string, string, string, string | null, string | null, string | null, number | null, number, number]>(
    `INSERT INTO outbox (kind, game_id, recipient, subject, body, html, headers_json, picture_json, rests_on_turn, next_attempt_at, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  const hold = db.prepare<[string, string, string | null, string, string, number | null, number]>(
    'INSERT INTO mail_digest (recipient, kind, game_id, subject, body, rests_on_turn, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
  // 'sending' too: a worker that holds one may still send it (its mark then changes nothing), but
  // one whose lease ran out is not sent again.
  const withdrawQueued = db.prepare<[string, number]>(
    "DELETE FROM outbox WHERE game_id = ? AND rests_on_turn >= ? AND status IN ('pending', 'sending')")
  // Held mail, and the parts of digests not sent yet: a sent or given-up digest's parts are gone.
  const withdrawHeld = db.prepare<[string, number]>('DELETE FROM mail_digest WHERE game_id = ? AND rests_on_turn >= ?')
  const digestsWithdrawnFrom = db.prepare<[string, number], number>(`SELECT DISTINCT digest_id FROM mail_digest
    WHERE game_id = ? AND rests_on_turn >= ? AND digest_id IS NOT NULL ORDER BY digest_id`).pluck()
  // One recipient's mail of some kinds (a JSON array) in a game: for a player who lost their seat.
  const withdrawQueuedTo = db.prepare<[string, string, string]>(`DELETE FROM outbox WHERE lower(recipient) = ?
    AND kind IN (SELECT value FROM json_each(?)) AND game_id = ? AND status IN ('pending', 'sending')`)
  const withdrawHeldTo = db.prepare<[string, string, string]>(
    'DELETE FROM mail_digest WHERE recipient = ? AND kind IN (SELECT value FROM json_each(?)) AND game_id = ?')
  const digestsWithdrawnFromTo = db.prepare<[string, string, string], number>(`SELECT DISTINCT digest_id FROM mail_digest
    WHERE recipient = ? AND kind IN (SELECT value FROM json_each(?)) AND game_id = ? AND digest_id IS NOT NULL ORDER BY digest_id`).pluck()
  const digestsDue = db.prepare<[number, number], string>(`SELECT DISTINCT mail_digest.recipient FROM mail_digest
    LEFT JOIN mail_preferences ON mail_preferences.email = mail_digest.recipient
    WHERE mail_digest.digest_id IS NULL AND (mail_preferences.last_digest_at IS NULL OR mail_preferences.last_digest_at <= ?) LIMIT ?`).pluck()
  const held = db.prepare<[string], DigestRow>('SELECT * FROM mail_digest WHERE recipient = ? AND digest_id IS NULL ORDER BY id')
  const release = db.prepare<[number, string, number]>('UPDATE mail_digest SET digest_id = ? WHERE recipient = ? AND id <= ? AND digest_id IS NULL')
  const dropHeld = db.prepare<[string, number]>('DELETE FROM mail_digest WHERE recipient = ? AND id <= ? AND digest_id IS NULL')
  const parts = db.prepare<[number], DigestRow>('SELECT * FROM mail_digest WHERE digest_id = ? ORDER BY id')
  const dropParts = db.prepare<[number]>('DELETE FROM mail_digest WHERE digest_id = ?')
  // Only what is about a game: a GM is shown no other mail (migration 046).
  const keepGameParts = db.prepare<[number]>(`INSERT INTO undelivered_digest_parts (digest_id, game_id, subject, created_at)
    SELECT digest_id, game_id, subject, created_at FROM mail_digest WHERE digest_id = ? AND game_id IS NOT NULL ORDER BY id`)
  // 'sending' too: a retry after a failed send sends the new text; a send in flight still carries
  // the text it claimed, and marking it sent writes that text back (`sent` above).
  const rewrite = db.prepare<[string, string, string | null, number]>(
    "UPDATE outbox SET subject = ?, body = ?, game_id = ? WHERE id = ? AND status IN ('pending', 'sending')")
  const withdrawUnsent = db.prepare<[number], string>("DELETE FROM outbox WHERE id = ? AND status IN ('pending', 'sending') RETURNING recipient").pluck()
  const undigested = db.prepare<[string]>('UPDATE mail_preferences SET last_digest_at = NULL WHERE email = ?')
  const digested = db.prepare<[number, string]>('UPDATE mail_preferences SET last_digest_at = ? WHERE email = ?')
  const claim = db.prepare<[number, number, number, number], OutboxRow>(`UPDATE outbox
    SET status = 'sending', lease_until = ?, attempts = attempts + 1
    WHERE id = (SELECT id FROM outbox
      WHERE (status = 'pending' AND next_attempt_at <= ?) OR (status = 'sending' AND lease_until <= ?)
      ORDER BY next_attempt_at, id LIMIT 1)
    AND status != 'sent' AND (status = 'pending' OR lease_until <= ?)
    RETURNING *`)
  // The text that went is written back with the mark: a rollback may have made a digest again
  // while a worker was sending the text it had claimed (mail/withdraw.ts), and the outbox must say
  // what was sent. Had the send failed instead, the retry would send the new text.
  const sent = db.prepare<[number, string, string, string | null, number]>(`UPDATE outbox
    SET status = 'sent', sent_at = ?, subject = ?, body = ?, game_id = ?, lease_until = NULL, last_error = NULL
    WHERE id = ? AND status = 'sending'`)
  const failed = db.prepare<[number, string, number]>("UPDATE outbox SET status = 'pending', next_attempt_at = ?, last_error = ?, lease_until = NULL WHERE id = ? AND status = 'sending'")
  const undeliverable = db.prepare<[string, GivenUpAs, string | null, number]>(`UPDATE outbox
    SET status = 'failed', last_error = ?, given_up_as = ?, reply_code = ?, lease_until = NULL WHERE id = ? AND status = 'sending'`)
  // A digest given up is listed by its parts of this game, never by its own subject and text, which
  // may name other games; one given up before migration 046 kept none and is listed as it was.
  const failedForGame = db.prepare<[string, string], UndeliveredMail>(`
    SELECT recipient, subject, last_error, created_at, 0 AS in_digest, given_up_as, reply_code, kind, id AS outbox_id, 0 AS part FROM outbox
    WHERE game_id = ? AND status = 'failed' AND NOT EXISTS (SELECT 1 FROM undelivered_digest_parts WHERE digest_id = outbox.id)
    UNION ALL
    SELECT outbox.recipient, parts.subject, outbox.last_error, parts.created_at, 1, outbox.given_up_as, outbox.reply_code, outbox.kind, outbox.id, parts.rowid
    FROM undelivered_digest_parts AS parts JOIN outbox ON outbox.id = parts.digest_id
    WHERE parts.game_id = ? AND outbox.status = 'failed'
    ORDER BY outbox_id, part`)
  const all = db.prepare<[], OutboxRow>('SELECT * FROM outbox ORDER BY id')
  const sentTo = db.prepare<[string, string, number], number>('SELECT COUNT(*) FROM outbox WHERE lower(recipient) = ? AND kind = ? AND created_at > ?').pluck()
  // Only 'sent' rows, oldest first. A sent row's next_attempt_at (its last attempt) is never after
  // its sent_at, so the range on outbox_due(status, next_attempt_at) finds every candidate without
  // a scan of the table; sent_at then decides.
  const prune = db.prepare<[number, number, number]>(`DELETE FROM outbox WHERE id IN (
    SELECT id FROM outbox WHERE status = 'sent' AND next_attempt_at < ? AND sent_at < ?
    ORDER BY next_attempt_at LIMIT ?)`)

  return {
    /**
     * Queues a mail as its recipient's preference says: now, in the next digest, or not at all.
     * Returns the outbox id of a mail queued to go now, else null.
     */
    add(mail: NewMail, now: number): number | null {
      // A digest is itself the held mail going out: it is never held again.
      const mode = ALWAYS_SENT.has(mail.kind) || mail.kind === 'digest' ? 'every' : prefs.modeOf(mail.to)
      if (mode === 'none') return null
      if (mode === 'digest') {
        hold.run(mail.to, mail.kind, mail.gameId ?? null, mail.subject, mail.body, mail.restsOnTurn ?? null, now)
        return null
      }
      return Number(insert.run(mail.kind, mail.gameId ?? null, mail.to, mail.subject, mail.body, mail.html ?? null,
        mail.headers ? JSON.stringify(mail.headers) : null, mail.picture ? JSON.stringify(mail.picture) : null, mail.restsOnTurn ?? null, now, now).lastInsertRowid)
    },
    /**
     * Withdraws a game's unsent mail, queued, held for a digest or inside a digest not sent yet,
     * that stands on turn `turn` or a later one (NewMail.restsOnTurn): for a rollback of that turn.
     * Returns how many were withdrawn, and the unsent digests that lost a part (to be made again
     * from what is left: mail/withdraw.ts).
     */
    withdrawRestingOn(gameId: string, turn: number): { withdrawn: number; digests: number[] } {
      const digests = digestsWithdrawnFrom.all(gameId, turn)
      return { withdrawn: withdrawQueued.run(gameId, turn).changes + withdrawHeld.run(gameId, turn).changes, digests }
    },
    /**
     * Withdraws the unsent mail of `kinds` to `recipient` about game `gameId`, queued, held for a
     * digest or inside a digest not sent yet: for a player who lost their seat (mail/withdraw.ts).
     * Returns how many were withdrawn, and the unsent digests that lost a part.
     */
    withdrawTo(gameId: string, recipient: string, kinds: readonly string[]): { withdrawn: number; digests: number[] } {
      const list = JSON.stringify(kinds)
      const digests = digestsWithdrawnFromTo.all(recipient, list, gameId)
      return { withdrawn: withdrawQueuedTo.run(recipient.toLowerCase(), list, gameId).changes + withdrawHeldTo.run(recipient, list, gameId).changes, digests }
    },
    /** Recipients with held mail whose last digest went before `before` (at most `limit`). */
    digestsDue: (before: number, limit: number) => digestsDue.all(before, limit),
    held: (recipient: string) => held.all(recipient),
    /**
     * Marks the held mail folded into digest `digestId` (up to `lastId`) as its parts, kept while
     * it is unsent, and notes when the digest went.
     */
    released(recipient: string, lastId: number, digestId: number, now: number) {
      release.run(digestId, recipient, lastId)
      digested.run(now, recipient)
    },
    /** Drops the held mail up to `lastId` unsent (its reader wants no mail now) and notes when. */
    dropHeld(recipient: string, lastId: number, now: number) {
      dropHeld.run(recipient, lastId)
      digested.run(now, recipient)
    },
    /** The held mails digest `digestId` was made of, oldest first (empty once it has gone). */
    digestParts: (digestId: number) => parts.all(digestId),
    /** Writes a digest not sent yet again (from its remaining parts); false if it has gone meanwhile. */
    rewriteUnsent: (id: number, subject: string, body: string, gameId: string | null) => rewrite.run(subject, body, gameId, id).changes > 0,
    /** Withdraws a mail not sent yet (and a digest's parts with it); returns its recipient, or null if it has gone meanwhile. */
    withdrawUnsent: (id: number): string | null => withdrawUnsent.get(id) ?? null,
    /** Their next digest is due at once: the one counted as their last was withdrawn before it went. */
    digestWithdrawn: (recipient: string) => { undigested.run(recipient) },
    claim: (now: number, leaseMs: number) => claim.get(now + leaseMs, now, now, now),
    // A digest's parts are kept only while it may still be withdrawn from.
    /** Marks a claimed mail sent, with the text the worker sent (`claimed`: the row as it claimed it). */
    markSent: db.transaction((claimed: Pick<OutboxRow, 'id' | 'subject' | 'body' | 'game_id'>, now: number) => {
      if (sent.run(now, claimed.subject, claimed.body, claimed.game_id, claimed.id).changes > 0) dropParts.run(claimed.id)
    }),
    markFailed: (id: number, retryAt: number, error: string) => { failed.run(retryAt, error.slice(0, 500), id) },
    /**
     * Gives a message up for good (it stays, with its error, for the GM to see); of a digest, what
     * each game it covered had in it is kept for that game's GM (migration 046).
     */
    markUndeliverable: db.transaction((id: number, giveUp: GiveUp) => {
      if (undeliverable.run(giveUp.error.slice(0, 500), giveUp.as, giveUp.replyCode, id).changes === 0) return
      keepGameParts.run(id)
      dropParts.run(id)
    }),
    /** A game's mail that could not be delivered, its parts of digests included, oldest first. */
    failedForGame: (gameId: string): UndeliveredMail[] => failedForGame.all(gameId, gameId),
    all: () => all.all(),
    /** Messages of a kind queued for an address (any case) after a time (migration 007's index). */
    countTo: (recipient: string, kind: string, since: number) => sentTo.get(recipient.toLowerCase(), kind, since)!,
    /** Deletes up to `limit` messages sent before `before`; unsent mail is never deleted. Returns how many. */
    pruneSent: (before: number, limit: number) => prune.run(before, before, limit).changes,
  }
}
export type OutboxRepository = ReturnType<typeof outboxRepository>
