// Messages of a game's threads and the mail still owed to their readers (migration 026). Every
// write here touches the game's mark (message-marks.ts: the kept threads of pages/message-threads.ts).
import type { Db } from '../plugins/db.js'
import { touchMessages } from './message-marks.js'

export interface MessageRow {
  id: number; game_id: string; from_user_id: number; to_user_id: number | null; body: string; at: number
  hidden_at: number | null; hidden_reason: string | null
}

export interface PendingMessage extends MessageRow { game_name: string; from_name: string }

export function messagesRepository(db: Db) {
  const insert = db.prepare<[string, number, number | null, string, number], { id: number }>(
    'INSERT INTO messages (game_id, from_user_id, to_user_id, body, at) VALUES (?, ?, ?, ?, ?) RETURNING id')
  const forGame = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE game_id = ? ORDER BY id')
  const byId = db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE id = ?')
  // Moves whenever a message of the game is posted or hidden (the live hub's change check; never shown to anyone).
  const changeMark = db.prepare<[string], string>(
    "SELECT COUNT(*) || '.' || COALESCE(MAX(id), 0) || '.' || COUNT(hidden_at) FROM messages WHERE game_id = ?").pluck()
  const hide = db.prepare<[number, string, number], { game_id: string }>('UPDATE messages SET hidden_at = ?, hidden_reason = ? WHERE id = ? AND hidden_at IS NULL RETURNING game_id')
  const addPending = db.prepare<[number, number]>('INSERT OR IGNORE INTO message_mail_pending (message_id, user_id) VALUES (?, ?)')
  const dropPendingOf = db.prepare<[number]>('DELETE FROM message_mail_pending WHERE message_id = ?')
  // Readers with mail owed whose last message mail is at least `since` old (or who never had one).
  const due = db.prepare<[number, number], number>(`SELECT DISTINCT p.user_id FROM message_mail_pending p
    LEFT JOIN message_mail_sent s ON s.user_id = p.user_id WHERE s.at IS NULL OR s.at <= ? LIMIT ?`).pluck()
  const pendingFor = db.prepare<[number], PendingMessage>(`SELECT m.*, g.name AS game_name, u.name AS from_name
    FROM message_mail_pending p JOIN messages m ON m.id = p.message_id JOIN games g ON g.id = m.game_id JOIN users u ON u.id = m.from_user_id
    WHERE p.user_id = ? ORDER BY m.game_id, m.id`)
  const clearPending = db.prepare<[number]>('DELETE FROM message_mail_pending WHERE user_id = ?')
  const markSent = db.prepare<[number, number]>('INSERT INTO message_mail_sent (user_id, at) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET at = excluded.at')

  return {
    insert: (gameId: string, from: number, to: number | null, body: string, now: number, readers: number[]) => {
      const id = insert.get(gameId, from, to, body, now)!.id
      touchMessages(db, gameId)
      for (const reader of readers) addPending.run(id, reader)
      return id
    },
    forGame: (gameId: string) => forGame.all(gameId),
    byId: (id: number) => byId.get(id),
    changeMark: (gameId: string) => changeMark.get(gameId)!,
    /** Hides a message (it stays, with the reason) and drops the mail still owed for it. */
    hide: (id: number, reason: string, now: number) => {
      const hidden = hide.get(now, reason, id)
      if (hidden) touchMessages(db, hidden.game_id)
      const changed = hidden !== undefined
      dropPendingOf.run(id)
      return changed
    },
    dueReaders: (lastMailBefore: number, limit: number) => due.all(lastMailBefore, limit),
    pendingFor: (userId: number) => pendingFor.all(userId),
    /** The reader's owed messages are mailed (or dropped) now. */
    settle: (userId: number, now: number, mailed: boolean) => {
      clearPending.run(userId)
      if (mailed) markSent.run(userId, now)
    },
  }
}
export type MessagesRepository = ReturnType<typeof messagesRepository>
