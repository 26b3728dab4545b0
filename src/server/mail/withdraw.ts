// Withdrawing mail that became untrue or no longer its reader's, before it went: the mail a
// rolled-back turn made untrue (services/rollback.ts, migration 042), and the turn mail of a player
// who lost their seat (services/gone-robot.ts). What is still queued or held for a digest goes, and
// a digest queued but not sent yet is made again from its other parts (migration 043), or withdrawn
// when none is left (and the next one is then due at once). A digest a worker is sending meanwhile
// goes as it was claimed, and the outbox records that text when it is marked sent
// (repositories/outbox.ts). Runs inside the caller's transaction.
import type { ServiceContext } from '../services/context.js'
import { composeDigest } from './digest.js'

/**
 * The mail that carries a seat's secrets: its hand and reply address (the turn mail, the reminder),
 * and its program in a turn not published yet (reopened, corrected). A newcomer plays that hand.
 */
export const SEAT_MAIL_KINDS = ['hand', 'reminder', 'reopened', 'correction'] as const

/** Withdraws game `gameId`'s unsent mail that stands on turn `turn` or later; returns how many mails went. */
export function withdrawMailRestingOn(ctx: ServiceContext, gameId: string, turn: number): number {
  const { withdrawn, digests } = ctx.outbox.withdrawRestingOn(gameId, turn)
  return withdrawn + remakeDigests(ctx, digests)
}

/**
 * Withdraws the unsent seat mail (SEAT_MAIL_KINDS) of game `gameId` to `recipient`, who no longer
 * holds the seat it was written for; returns how many mails went.
 */
export function withdrawSeatMail(ctx: ServiceContext, gameId: string, recipient: string): number {
  const { withdrawn, digests } = ctx.outbox.withdrawTo(gameId, recipient, SEAT_MAIL_KINDS)
  return withdrawn + remakeDigests(ctx, digests)
}

/** Makes each unsent digest that lost parts again from what is left, or withdraws it when nothing is; returns how many were withdrawn. */
function remakeDigests(ctx: ServiceContext, digests: readonly number[]): number {
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
  return digestsWithdrawn
}
