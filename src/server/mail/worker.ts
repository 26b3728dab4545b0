// Sends the outbox: claim a row (with a lease), send it, mark it sent only after the server
// accepted it; on failure, retry later with exponential backoff. A mail server that is down
// delays mail but loses none. A message is given up (status 'failed', shown to the GM) when the
// server refuses it for good (a 5xx answer about its recipient or its content), or when it could
// not be sent for GIVE_UP_AFTER_MS, as mail servers themselves give up after some days.
import type { OutboxRepository } from '../repositories/outbox.js'
import { composeOutgoing, type ComposeDeps } from './compose.js'
import type { MailTransport } from './transport.js'

export const LEASE_MS = 2 * 60_000
const FIRST_RETRY_MS = 30_000
const MAX_RETRY_MS = 60 * 60_000
export const GIVE_UP_AFTER_MS = 3 * 24 * 3600_000

/**
 * Whether the mail server refused this message for good: a permanent (5xx) answer to its envelope
 * (no such recipient) or its data. Connection, authentication and temporary (4xx) failures are
 * about the server or our set-up, not the message: those are retried.
 */
export function isPermanentRefusal(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false
  const { responseCode, code } = err as { responseCode?: unknown; code?: unknown }
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && (code === 'EENVELOPE' || code === 'EMESSAGE')
}

/**
 * The mail server's reply code of a failed send, with its enhanced status if it gave one (e.g.
 * '550 5.7.1'), and none of its text; null when no server answered (a connection failure).
 */
export function replyCodeOf(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null
  const { responseCode, response } = err as { responseCode?: unknown; response?: unknown }
  if (typeof responseCode !== 'number' || !Number.isInteger(responseCode) || responseCode < 200 || responseCode > 599) return null
  const enhanced = typeof response === 'string' ? /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})(?=\s|$)/.exec(response)?.[1] : undefined
  return enhanced ? `${responseCode} ${enhanced}` : String(responseCode)
}

export function retryDelay(attempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1))
}

export interface MailWorkerDeps {
  outbox: OutboxRepository
  transport: MailTransport
  /** From, Message-ID host (a resent message, after a crash mid-send, can be recognised), links, picture. */
  compose: ComposeDeps
  log: { warn(obj: object, msg: string): void }
}

/** Sends every message due at `now` (until `stopped()`, checked before each one); returns how many were sent. */
export async function deliverDueMail(deps: MailWorkerDeps, now: () => number, limit = 100, stopped: () => boolean = () => false): Promise<number> {
  let sent = 0
  for (let i = 0; i < limit && !stopped(); i++) {
    const row = deps.outbox.claim(now(), LEASE_MS)
    if (!row) break
    try {
      await deps.transport.send(composeOutgoing(row, deps.compose))
      deps.outbox.markSent(row, now())
      sent++
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      if (isPermanentRefusal(err)) {
        deps.outbox.markUndeliverable(row.id, { as: 'refused', error: message, replyCode: replyCodeOf(err) })
        deps.log.warn({ outboxId: row.id, to: row.recipient, err: message }, 'mail refused for good; not retried')
        continue // about this message only: the others may go
      }
      if (now() - row.created_at >= GIVE_UP_AFTER_MS) {
        deps.outbox.markUndeliverable(row.id, { as: 'expired', error: `not sent for ${GIVE_UP_AFTER_MS / 86_400_000} days; last error: ${message}`, replyCode: replyCodeOf(err) })
        deps.log.warn({ outboxId: row.id, attempts: row.attempts, err: message }, 'mail given up after days of failures')
      } else {
        deps.outbox.markFailed(row.id, now() + retryDelay(row.attempts), message)
        deps.log.warn({ outboxId: row.id, attempts: row.attempts, err: message }, 'mail not sent; will retry')
      }
      break // the server is likely down: leave the rest for the next round
    }
  }
  return sent
}
