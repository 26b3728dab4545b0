// Why a mail given up for good was not delivered, as the GM console says it (pages/gm.ts). A mail
// of one game shows the mail server's own words to that game's GM, unless it carries a seat's
// secrets. A server may quote the message or its recipient in its refusal, so the GM is told only
// how it was given up and the reply code of: a digest, which covers the games of several GMs; and
// a seat's own mail (its hand, its reply address, which takes a program for the seat, its program
// before publication), which a GM who plays may not read before locking their own (A14), nor any
// GM hold. The words stay in the log and the outbox row.
import type { UndeliveredMail } from '../repositories/outbox.js'
import { SEAT_MAIL_KINDS } from './withdraw.js'
import { GIVE_UP_AFTER_MS } from './worker.js'

/** Kinds whose text is the seat's alone: SEAT_MAIL_KINDS, and the answers to a program sent by reply (inbound/handle.ts). */
const SEAT_SECRET_KINDS = new Set<string>([...SEAT_MAIL_KINDS, 'reply-confirmation', 'reply-refusal'])

export function undeliveredReason(mail: UndeliveredMail): string {
  const digest = mail.in_digest === 1
  if (!digest && !SEAT_SECRET_KINDS.has(mail.kind)) return mail.last_error ?? ''
  const what = digest ? 'their daily digest' : 'this mail'
  const code = mail.reply_code
  switch (mail.given_up_as) {
    case 'refused': return `Their mail server refused ${what}${code ? ` (SMTP reply ${code})` : ''}.`
    case 'expired': return `${digest ? 'Their daily digest' : 'This mail'} could not be sent for ${GIVE_UP_AFTER_MS / 86_400_000} days${code ? ` (last SMTP reply ${code})` : ''}.`
    // Given up before migration 049, which began to keep the reply code apart from the server's words.
    case null: return `${digest ? 'Their daily digest' : 'This mail'} could not be delivered.`
  }
}
