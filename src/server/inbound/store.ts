// What inbound handling remembers (migrations 013, 014): each message handled, by Message-ID
// (or a hash of the message when it has none), with its sender, for duplicates and the rate
// limit; and the IMAP poller's highest handled UID per mailbox.
import type { Db } from '../plugins/db.js'

const stores = new WeakMap<Db, ReturnType<typeof build>>()

function build(db: Db) {
  const seen = db.prepare<[string], number>('SELECT 1 FROM inbound_messages WHERE message_key = ?').pluck()
  const record = db.prepare<[string, string, string, number]>(
    'INSERT OR IGNORE INTO inbound_messages (message_key, sender, outcome, received_at) VALUES (?, ?, ?, ?)')
  const recent = db.prepare<[string, number], number>('SELECT COUNT(*) FROM inbound_messages WHERE sender = ? AND received_at > ?').pluck()
  const outcomes = db.prepare<[], { message_key: string; sender: string; outcome: string }>('SELECT message_key, sender, outcome FROM inbound_messages ORDER BY id')
  const imapGet = db.prepare<[string], { uid_validity: string; last_uid: number }>('SELECT uid_validity, last_uid FROM imap_state WHERE mailbox = ?')
  const imapSet = db.prepare<[string, string, number]>(`INSERT INTO imap_state (mailbox, uid_validity, last_uid) VALUES (?, ?, ?)
    ON CONFLICT (mailbox) DO UPDATE SET uid_validity = excluded.uid_validity, last_uid = excluded.last_uid`)
  return {
    seen: (key: string) => seen.get(key) === 1,
    record: (key: string, sender: string, outcome: string, now: number) => { record.run(key, sender, outcome, now) },
    /** Messages from `sender` handled since `since`. */
    recentFrom: (sender: string, since: number) => recent.get(sender, since) ?? 0,
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
