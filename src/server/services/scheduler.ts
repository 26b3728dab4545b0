// The server's clockwork, as one plain function of the time: close turns that are due, publish
// drafts whose review window ended, queue 24-hour reminders. server.ts calls it every few
// seconds; tests call it with their own clock.
import { REMINDER_BEFORE_MS, type ServiceContext } from './context.js'
import { allProgramsIn, closeTurn, publishWhenReviewEnds, queueReminders } from './turns.js'

export interface DueWorkReport { closed: number; published: number; reminded: number; failed: number }

export function runDueWork(ctx: ServiceContext, log?: { error(obj: object, msg: string): void }): DueWorkReport {
  const report: DueWorkReport = { closed: 0, published: 0, reminded: 0, failed: 0 }
  const attempt = (what: string, id: number, work: () => boolean, count: keyof DueWorkReport) => {
    try {
      if (work()) report[count]++
    } catch (err) {
      report.failed++
      log?.error({ err, turnId: id }, `${what} failed`)
    }
  }
  const now = ctx.now()
  for (const turn of ctx.turns.ofRunningGames('draft')) {
    if (turn.review_until !== null && turn.review_until <= now) attempt('publish', turn.id, () => publishWhenReviewEnds(ctx, turn.id), 'published')
  }
  for (const turn of ctx.turns.ofRunningGames('open')) {
    const game = ctx.games.byId(turn.game_id)!
    if (turn.deadline <= now || (game.close_early === 1 && allProgramsIn(ctx, turn))) {
      attempt('close', turn.id, () => closeTurn(ctx, turn.id), 'closed')
    } else if (turn.reminder_queued === 0 && turn.deadline - REMINDER_BEFORE_MS <= now) {
      attempt('remind', turn.id, () => queueReminders(ctx, turn.id), 'reminded')
    }
  }
  return report
}
