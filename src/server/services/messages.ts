// Questions and press (issue 12): a public thread per game and private threads between the GM and
// one player (between two players only when the game allows table talk). Messages are plain text,
// shown escaped; the GM can hide one (it stays in the log, with the reason). New messages are
// mailed in batches: at most one mail per reader per 15 minutes, holding only messages that reader
// may see. The GM reads every thread of the game (players are told so).
import { createHash } from 'node:crypto'
import { badRequest, conflict, forbidden, notFound } from '../errors.js'
import { messagesMail } from '../mail/gm-templates.js'
import type { MessageRow } from '../repositories/messages.js'
import type { messageRequest } from '../schemas-gm.js'
import { type Membership, type ServiceContext } from './context.js'
import { requireGm } from './membership.js'
import type { z } from 'zod'

export const MESSAGE_MAIL_EVERY_MS = 15 * 60_000
/** Readers mailed per clockwork tick at most; the rest wait for the next tick. */
const READERS_PER_TICK = 100

type MessageInput = z.output<typeof messageRequest>

/** The people of a game: the GM and the players in their seats, by user id, with the name shown for them. */
function people(m: Membership): Map<number, string> {
  const out = new Map<number, string>()
  for (const s of m.seats) if (s.user_id !== null) out.set(s.user_id, s.name ?? s.player_id)
  if (!out.has(m.game.gm_user_id)) out.set(m.game.gm_user_id, 'GM')
  else out.set(m.game.gm_user_id, `${out.get(m.game.gm_user_id)} (GM)`)
  return out
}

export function postMessage(ctx: ServiceContext, m: Membership, viewerId: number, input: MessageInput): { id: number } {
  if (!m.isGm && !m.seat) throw forbidden('only the GM and the players of this game can write here')
  return ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    if (game.status === 'abandoned') throw conflict('the game is abandoned')
    const who = people(m)
    let to: number | null = null
    if (input.to === 'gm') {
      if (m.isGm) throw badRequest('you are the GM: write to everyone or to one player', 'to')
      to = game.gm_user_id
    } else if (input.to !== 'all') {
      const seat = m.seats.find((s) => s.player_id === input.to && s.user_id !== null)
      if (!seat) throw badRequest(`nobody sits in seat ${input.to}`, 'to')
      if (seat.user_id === viewerId) throw badRequest('that is you', 'to')
      if (!m.isGm && seat.user_id !== game.gm_user_id && game.table_talk !== 1) throw forbidden('in this game players write privately only to the GM')
      to = seat.user_id
    }
    const readers = to === null ? [...who.keys()].filter((id) => id !== viewerId) : [to]
    return { id: ctx.messages.insert(game.id, viewerId, to, input.body, ctx.now(), readers) }
  })
}

export interface MessageView {
  id: number; from: string; to: string | null; at: string; body: string; mine: boolean; private: boolean
  hidden: boolean; hiddenReason: string | null
}

/** The messages the viewer may read: public ones and their own private threads; the GM reads all, hidden ones too. */
export function messagesFor(ctx: ServiceContext, m: Membership, viewerId: number | undefined): MessageView[] {
  if (viewerId === undefined || (!m.isGm && !m.seat)) return []
  const known = people(m)
  // A writer who left the game keeps the name they had with us.
  const who = { get: (id: number) => known.get(id) ?? ctx.users.byId(id)?.name }
  const visible = (row: MessageRow) => m.isGm || (row.hidden_at === null && (row.to_user_id === null || row.to_user_id === viewerId || row.from_user_id === viewerId))
  return ctx.messages.forGame(m.game.id).filter(visible).map((row) => ({
    id: row.id, from: who.get(row.from_user_id) ?? 'a former player', to: row.to_user_id === null ? null : who.get(row.to_user_id) ?? 'a former player',
    at: new Date(row.at).toISOString(), body: row.body, mine: row.from_user_id === viewerId, private: row.to_user_id !== null,
    hidden: row.hidden_at !== null, hiddenReason: m.isGm ? row.hidden_reason : null,
  }))
}

/**
 * A short mark of the messages a viewer may read (which ones, and which are hidden): it changes
 * when something in their threads does, and says nothing else — the live pages compare it
 * (src/server/live) and fetch the messages again when it moved.
 */
export function messagesMark(list: readonly MessageView[]): string {
  return createHash('sha256').update(JSON.stringify(list.map((m) => [m.id, m.hidden]))).digest('base64url').slice(0, 16)
}

/** Whom the viewer may write to privately: the GM (players), every player (the GM), other players (with table talk). */
export function messageTargets(m: Membership, viewerId: number | undefined): { value: string; label: string }[] {
  const out = [{ value: 'all', label: 'Everyone at the table' }]
  if (!m.isGm) out.push({ value: 'gm', label: 'The GM only' })
  for (const s of m.seats) {
    if (s.user_id === null || s.user_id === viewerId || s.user_id === m.game.gm_user_id) continue
    if (m.isGm || m.game.table_talk === 1) out.push({ value: s.player_id, label: `${s.name ?? s.player_id} only` })
  }
  return out
}

export function hideMessage(ctx: ServiceContext, m: Membership, messageId: number, reason: string): void {
  requireGm(m)
  ctx.write(() => {
    const row = ctx.messages.byId(messageId)
    if (!row || row.game_id !== m.game.id) throw notFound(`no message ${messageId} in this game`)
    if (!ctx.messages.hide(messageId, reason, ctx.now())) throw conflict('this message is hidden already')
    ctx.games.logAction(m.game.id, ctx.now(), 'hide-message', reason, { message: messageId })
  })
}

/**
 * The clockwork's part: one mail per reader whose last message mail is 15 minutes old or more,
 * with every message owed to them that they may still see (hidden ones and games they left drop out).
 */
export function mailPendingMessages(ctx: ServiceContext): number {
  const now = ctx.now()
  let mailed = 0
  for (const userId of ctx.messages.dueReaders(now - MESSAGE_MAIL_EVERY_MS, READERS_PER_TICK)) {
    ctx.write(() => {
      const user = ctx.users.byId(userId)
      const pending = ctx.messages.pendingFor(userId).filter((row) => {
        const game = ctx.games.byId(row.game_id)
        const stillIn = game && (game.gm_user_id === userId || ctx.games.seats(game.id).some((s) => s.user_id === userId))
        return row.hidden_at === null && stillIn
      })
      if (!user || !pending.length) return ctx.messages.settle(userId, now, false)
      const games = Object.fromEntries(pending.map((p) => [p.game_id, p.game_name]))
      const mail = messagesMail(pending.map((p) => ({ game: p.game_id, from: p.from_name, private: p.to_user_id !== null, at: p.at, body: p.body })),
        (gameId) => ctx.link(`/games/${gameId}#messages`), games)
      ctx.mail({ kind: 'messages', gameId: pending.length && Object.keys(games).length === 1 ? pending[0]!.game_id : null, to: user.email, ...mail })
      ctx.messages.settle(userId, now, true)
      mailed++
    })
  }
  return mailed
}
