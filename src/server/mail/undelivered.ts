// Why a mail given up for good was not delivered, as the GM console says it (pages/gm.ts). A mail
// of one game shows the mail server's own words to that game's GM. A digest covers the games of
// several GMs, and a server may quote the message or its recipient in its refusal: each GM is told
// only how it was given up and the reply code; the words stay in the log and the outbox row.
import type { UndeliveredMail } from '../repositories/outbox.js'
import { GIVE_UP_AFTER_MS } from './worker.js'

export function undeliveredReason(mail: UndeliveredMail): string {
  if (!mail.in_digest) return mail.last_error ?? ''
  const code = mail.reply_code
  switch (mail.given_up_as) {
    case 'refused': return `Their mail server refused their daily digest${code ? ` (SMTP reply ${code})` : ''}.`
    case 'expired': return `Their daily digest could not be sent for ${GIVE_UP_AFTER_MS / 86_400_000} days${code ? ` (last SMTP reply ${code})` : ''}.`
    // Given up before migration 049, which began to keep the reply code apart from the server's words.
    case null: return 'Their daily digest could not be delivered.'
  }
}
