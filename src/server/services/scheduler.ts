// The server's clockwork, as one plain function of the time: close turns that are due, publish
// drafts whose review window ended, queue reminders, fold held mail into daily digests. server.ts calls it every few
// seconds; tests call it with their own clock.
//
// Only what is due is read (chosen in SQL, migration 002): a tick with nothing due costs a few
// index lookups however many games are open. "Every program is in" is recorded on the turn by the
// submission that completes it (turns.programs_in), so close-early games need no polling. At most
// `limit` turns are closed (and as many drafts published, reminders queued) per call, so one tick
// never blocks requests for long; the rest are due on the next tick.
import { queueDigests } from '../mail/digest.js'
import { MAX_REMINDER_BEFORE_MS, type ServiceContext } from './context.js'
import { mailPendingMessages } from './messages.js'
import { closeTurn, publishWhenReviewEnds, queueReminders } from './turns.js'

export interface DueWorkReport { closed: number; published: number; reminded: number; messaged: number; digests: number; failed: number }

/** Turns closed (and drafts published, reminders queued) per call at most. */
export const DUE_WORK_LIMIT = 50

export function runDueWork(ctx: ServiceContext, log?: { error(obj: object, msg: string): void }, limit = DUE_WORK_LIMIT): DueWorkReport {
  const report: DueWorkReport = { closed: 0, published: 0, reminded: 0, messaged: 0, digests: 0, failed: 0 }
  const attempt = (what: string, id: number, work: () => boolean, count: keyof DueWorkReport) => {
    try {
      if (work()) report[count]++
    } catch (err) {
      report.failed++
      log?.error({ err, turnId: id }, `${what} failed`)
    }
  }
  const now = ctx.now()
  for (const id of ctx.turns.draftsDue(now, limit)) attempt('publish', id, () => publishWhenReviewEnds(ctx, id), 'published')
  for (const id of ctx.turns.openDue(now, limit)) attempt('close', id, () => closeTurn(ctx, id), 'closed')
  for (const id of ctx.turns.remindersDue(now, now + MAX_REMINDER_BEFORE_MS, limit)) attempt('remind', id, () => queueReminders(ctx, id), 'reminded')
  // Batched message mail (issue 12): at most one per reader per 15 minutes.
  try {
    report.messaged = mailPendingMessages(ctx)
  } catch (err) {
    report.failed++
    log?.error({ err }, 'message mail failed')
  }
  attempt('digest', 0, () => { report.digests += queueDigests(ctx, limit); return false }, 'digests')
  return report
}
