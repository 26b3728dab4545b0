// One inbound mail, whichever way it came (SMTP listener or IMAP poll): parsed with mailparser
// outside any transaction, then decided and stored in ONE write transaction: the program goes
// through submitProgram, the very function the web form calls (same validation, versions,
// deadline, secrecy), the answer is queued, and the message is recorded as handled (and, for
// IMAP, the mailbox position advanced by `inTransaction`). A crash anywhere inside stores nothing.
//
// Who may: the token in the address authorises, for one player and one turn. A mail from an
// address other than the player's is refused unless the GM's game allows it; the refusal goes
// to the player's own address, never to the stranger. Duplicates, mail loops and senders over
// the rate are dropped without an answer.
//
// The limits count what cannot be forged against someone else: a sender's mail per reply address
// (anyone may claim to be Ann, but mail claiming so sent to Bob's address never uses up Ann's own),
// and the refusals answered per seat (a leaked address mailed from ever new senders cannot flood
// its player). Both are read and written in the one transaction, so concurrent mail cannot overrun them.
import { createHash } from 'node:crypto'
import { simpleParser, type ParsedMail } from 'mailparser'
import { AppError } from '../errors.js'
import { submissionRequest } from '../schemas.js'
import type { ServiceContext } from '../services/context.js'
import { submitProgram } from '../services/turns.js'
import { confirmationMail, refusalMail } from './answers.js'
import { automaticMail } from './loops.js'
import { programFromReply } from './program-text.js'
import { inboundStore } from './store.js'
import { replyAddress, replyTokens, tokenHash, tokenOf } from './tokens.js'

/** Larger mail is refused: at DATA by the SMTP listener, before download by the IMAP poller. */
export const MAX_INBOUND_BYTES = 1024 * 1024
/** Messages per sender and reply address per hour, answered or not, beyond which mail is dropped unanswered. */
export const SENDER_LIMIT_PER_HOUR = 30
/** Refusals answered per seat per hour; past it mail is still refused, unanswered (a stored program is always confirmed). */
export const SEAT_REFUSALS_PER_HOUR = 30
const HOUR = 3600_000

export type InboundOutcome = 'stored' | 'refused' | 'refused-unanswered' | 'loop' | 'unknown-address' | 'duplicate' | 'rate-limited' | 'unreadable'

export interface InboundMail {
  raw: Buffer
  /** The SMTP envelope when the mail came by SMTP: MAIL FROM ('' for <>) and RCPT TO. */
  envelope?: { mailFrom: string; rcptTo: string[] }
  /** Set when only the headers were read because the message is over MAX_INBOUND_BYTES (IMAP). */
  tooLarge?: number
}

export interface HandleOptions {
  /** Runs inside the transaction that records the message (the IMAP poller advances its UID here). */
  inTransaction?: () => void
}

const addresses = (field: ParsedMail['to']) => (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address ?? ''))

async function parse(raw: Buffer): Promise<ParsedMail | null> {
  try {
    return await simpleParser(raw, { skipImageLinks: true, skipHtmlToText: false, maxHtmlLengthToParse: 256 * 1024 })
  } catch {
    return null
  }
}

export async function handleInbound(ctx: ServiceContext, mail: InboundMail, options: HandleOptions = {}): Promise<InboundOutcome> {
  const parsed = await parse(mail.raw)
  const store = inboundStore(ctx.db)
  const key = parsed?.messageId?.slice(0, 500) ?? `sha256:${createHash('sha256').update(mail.raw).digest('hex')}`
  const from = (parsed?.from?.value[0]?.address ?? '').toLowerCase()
  const sender = (mail.envelope?.mailFrom || from || 'unknown').toLowerCase()
  return ctx.write((): InboundOutcome => {
    const now = ctx.now()
    let addressedTo: string | null = null
    const done = (outcome: InboundOutcome) => {
      store.record(key, sender, addressedTo, outcome, now)
      options.inTransaction?.()
      return outcome
    }
    if (store.seen(key)) {
      options.inTransaction?.()
      return 'duplicate'
    }
    if (!parsed) return done('unreadable')
    const header = (name: string) => {
      const value = parsed.headers.get(name)
      return value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value)
    }
    const contentType = parsed.headerLines.find((l) => l.key === 'content-type')?.line
    if (automaticMail({ header, envelopeFrom: mail.envelope?.mailFrom, fromAddress: from || undefined, contentType })) return done('loop')

    const recipients = [...(mail.envelope?.rcptTo ?? []), ...addresses(parsed.to), ...addresses(parsed.cc),
      ...parsed.headerLines.filter((l) => l.key === 'delivered-to' || l.key === 'x-original-to').map((l) => l.line.slice(l.line.indexOf(':') + 1).trim())]
    const token = recipients.map(tokenOf).find((t) => t !== null)
    const target = token ? replyTokens(ctx.db).lookup(token) : undefined
    const game = target && ctx.games.byId(target.game_id)
    const seat = game && ctx.games.seats(game.id).find((s) => s.player_id === target.player_id)
    const user = seat?.user_id ? ctx.users.byId(seat.user_id) : undefined
    addressedTo = target && game && seat && user ? tokenHash(token!) : null
    if (store.recentFrom(sender, addressedTo, now - HOUR) >= SENDER_LIMIT_PER_HOUR) return done('rate-limited')
    if (!target || !game || !seat || !user) return done('unknown-address')

    const submitLink = ctx.link(`/games/${game.id}/turns/${target.turn_number}/submit`)
    const answer = (kind: 'reply-confirmation' | 'reply-refusal', content: { subject: string; body: string }) => {
      const reply = ctx.mailDomain ? replyAddress(ctx.mailDomain, token!) : undefined
      ctx.mail({ kind, gameId: game.id, to: user.email, restsOnTurn: target.turn_number - 1, ...content, ...(reply ? { headers: { 'Reply-To': reply } } : {}) })
    }
    const refuse = (problem: string) => {
      if (store.recentForSeat(game.id, target.player_id, 'refused', now - HOUR) >= SEAT_REFUSALS_PER_HOUR) return done('refused-unanswered')
      answer('reply-refusal', refusalMail(game.name, target.turn_number, problem, submitLink))
      return done('refused')
    }
    // Not a loop (loops.ts: the envelope named a real sender); the answer goes to the player only.
    if (!from) return refuse('your mail had no From address; send it from the address you play with')
    if (from !== user.email.toLowerCase() && game.reply_from_any !== 1) {
      return refuse(`it came from another address (${from}), and this game takes programs by mail only from the address you play with`)
    }
    if (mail.tooLarge !== undefined) {
      return refuse(`it was ${(mail.tooLarge / 1048576).toFixed(1)} MB, and only mails up to ${MAX_INBOUND_BYTES / 1048576} MB are read; send the program as plain text, without attachments`)
    }
    const text = parsed.text ?? ''
    const program = programFromReply(text)
    if (!program.ok) return refuse(program.problem)
    // The JSON API's own schema first (e.g. the sacrifice threshold's range), as a web submission.
    const input = submissionRequest.safeParse(program.program)
    if (!input.success) return refuse(`${input.error.issues[0]!.path.join('.')}: ${input.error.issues[0]!.message}`)
    try {
      const row = submitProgram(ctx, { user }, game.id, target.turn_number, input.data)
      answer('reply-confirmation', confirmationMail(game.name, target.turn_number, {
        version: row.version, cards: JSON.parse(row.cards_json) as string[], rebootNext: row.reboot_next === 1,
        sacrificeAt: row.sacrifice_at, doubleWrench: row.double_wrench, facing: row.facing,
      }, submitLink))
      return done('stored')
    } catch (err) {
      if (err instanceof AppError) return refuse(err.message)
      throw err
    }
  })
}
