// Withdrawing the mail a rolled-back turn made untrue (services/rollback.ts, migration 042): what
// is still queued or held for a digest goes, and a digest queued but not sent yet is made again
// from its other parts (migration 043), or withdrawn when none is left (and the next one is then
// due at once). A digest a worker is sending meanwhile goes as it was claimed, and the outbox records
// that text when it is marked sent (repositories/outbox.ts). Runs inside the rollback's transaction.
import type { ServiceContext } from '../services/context.js'
import { composeDigest } from './digest.js'

/** Withdraws game `gameId`'s unsent mail that stands on turn `turn` or later; returns how many mails went. */
export function withdrawMailRestingOn(ctx: ServiceContext, gameId: string, turn: number): number {
  const { withdrawn, digests } = ctx.outbox.withdrawRestingOn(gameId, turn)
  let digestsWithdrawn = 0
  for (const id of digests) {
    const left = ctx.outbox.digestParts(id)
    if (left.length === 0) {
      const recipient = ctx.outbox.withdrawUnsent(id)
      if (recipient === null) continue
      digestsWithdrawn++
      // A digest a day at most, and this one never went: what is held now (the rollback's own
      // notice, at least) goes in the next digest at once, not a day after the withdrawn one.
      ctx.outbox.digestWithdrawn(recipient)
    } else {
      const { subject, body, gameId: digestGame } = composeDigest(ctx, left)
      ctx.outbox.rewriteUnsent(id, subject, body, digestGame)
    }
  }
  return withdrawn + digestsWithdrawn
}
