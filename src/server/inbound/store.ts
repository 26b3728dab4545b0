// What inbound handling remembers (migrations 031, 032, 045): each message handled, by Message-ID
// (or a hash of the message when it has none), with its sender and the reply address it was sent
// to (its token's hash), for duplicates and the limits; and the IMAP poller's highest handled UID
// per mailbox.
import type { Db } from '../plugins/db.js'

const stores = new WeakMap<Db, ReturnType<typeof build>>()

function build(db: Db) {
  const seen = db.prepare<[string], number>('SELECT 1 FROM inbound_messages WHERE message_key = ?').pluck()
  const record = db.prepare<[string, string, string | null, string, number]>(
    'INSERT OR IGNORE INTO inbound_messages (message_key, sender, reply_token_hash, outcome, received_at) VALUES (?, ?, ?, ?, ?)')
  const recent = db.prepare<[string | null, string, number], number>(
    'SELECT COUNT(*) FROM inbound_messages WHERE reply_token_hash IS ? AND sender = ? AND received_at > ?').pluck()
  // Every reply address the seat's player was mailed in the game: each turn mail and reminder has its own.
  const seatOutcomes = db.prepare<{ game: string; player: string; outcome: string; since: number }, number>(`SELECT COUNT(*) FROM inbound_messages
    WHERE outcome = @outcome AND received_at > @since AND reply_token_hash IN (
      SELECT token_hash FROM reply_tokens JOIN turns ON turns.id = reply_tokens.turn_id WHERE turns.game_id = @game AND reply_tokens.player_id = @player)`).pluck()
  const outcomes = db.prepare<[], { message_key: string; sender: string; outcome: string }>('SELECT message_key, sender, outcome FROM inbound_messages ORDER BY id')
  const imapGet = db.prepare<[string], { uid_validity: string; last_uid: number }>('SELECT uid_validity, last_uid FROM imap_state WHERE mailbox = ?')
  const imapSet = db.prepare<[string, string, number]>(`INSERT INTO imap_state (mailbox, uid_validity, last_uid) VALUES (?, ?, ?)
    ON CONFLICT (mailbox) DO UPDATE SET uid_validity = excluded.uid_validity, last_uid = excluded.last_uid`)
  return {
    seen: (key: string) => seen.get(key) === 1,
    /** `tokenHash`: of the reply address the message was sent to; null for mail to no known address. */
    record: (key: string, sender: string, tokenHash: string | null, outcome: string, now: number) => { record.run(key, sender, tokenHash, outcome, now) },
    /** Messages from `sender` to the reply address of `tokenHash` (null: to no known address) handled since `since`. */
    recentFrom: (sender: string, tokenHash: string | null, since: number) => recent.get(tokenHash, sender, since) ?? 0,
    /** Messages with `outcome` to any reply address of the seat handled since `since`. */
    recentForSeat: (gameId: string, playerId: string, outcome: string, since: number) => seatOutcomes.get({ game: gameId, player: playerId, outcome, since }) ?? 0,
    all: () => outcomes.all(),
    imapState: (mailbox: string) => imapGet.get(mailbox),
    setImapState: (mailbox: string, uidValidity: string, lastUid: number) => { imapSet.run(mailbox, uidValidity, lastUid) },
  }
}

export function inboundStore(db: Db) {
  let store = stores.get(db)
  if (!store) stores.set(db, (store = build(db)))
  return store
}
