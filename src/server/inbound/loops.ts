// Mail that must never be answered: auto-replies, bounces, lists and bulk mail (RFC 3834). An
// answer to them could start a mail loop between two machines; they are dropped silently.

export interface LoopSigns {
  /** Header values by lower-case name (first value). */
  header(name: string): string | undefined
  /** The SMTP envelope sender: '' for the null sender <> of bounces; undefined when unknown (IMAP). */
  envelopeFrom: string | undefined
  fromAddress: string | undefined
  contentType: string | undefined
}

/** Why the message is automatic, or null for mail a person sent. */
export function automaticMail(m: LoopSigns): string | null {
  if (m.envelopeFrom === '') return 'null sender (a bounce)'
  const returnPath = m.header('return-path')
  if (returnPath !== undefined && /^<?\s*>?$/.test(returnPath.trim())) return 'null Return-Path (a bounce)'
  const auto = m.header('auto-submitted')
  if (auto !== undefined && auto.trim().toLowerCase() !== 'no') return `Auto-Submitted: ${auto}`
  const precedence = m.header('precedence')?.trim().toLowerCase()
  if (precedence && /^(bulk|junk|list|auto_reply)$/.test(precedence)) return `Precedence: ${precedence}`
  for (const name of ['x-autoreply', 'x-autorespond', 'x-auto-response-suppress-sent', 'list-id', 'list-unsubscribe', 'feedback-id']) {
    if (m.header(name) !== undefined) return `${name} header`
  }
  const sender = m.fromAddress ?? m.envelopeFrom
  if (/^(mailer-daemon|postmaster|no-?reply|bounces?)(\+|@)/i.test(sender ?? '')) return `sent by ${sender}`
  // No From header but a real envelope sender (checked for <> above): a person's odd mail program,
  // answered with a refusal that goes only to the seat's player, so no loop can start (handle.ts).
  if (!sender) return 'no sender address'
  if (/multipart\/report/i.test(m.contentType ?? '')) return 'a delivery report'
  return null
}
