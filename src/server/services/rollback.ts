// Rolling back the last published turn (issue 12): the game goes back to the state before it,
// the turn back to review (a draft, published only by the GM), and its report is kept, marked
// withdrawn. The dealt state (hands and generator) and the stored programs are kept, so publishing
// again with the same programs gives the same report, byte for byte, and the same next deal.
// It is also how a game recovers from a rules fix: resolve again, then publish.
import { renderTurnReport } from '../../engine/report.js'
import type { TurnResult } from '../../engine/turn.js'
import type { GameState } from '../../engine/types.js'
import { conflict, notFound } from '../errors.js'
import { rollbackMail } from '../mail/gm-templates.js'
import { withdrawMailRestingOn } from '../mail/withdraw.js'
import { recipients, reportNames, type Membership, type ServiceContext } from './context.js'
import { requireGm } from './membership.js'
import { correctionsText } from './corrections.js'
import { invalidatePublishedTurn } from './published-turns.js'
import { checkExpectedTurn } from './turn-version.js'
import { dealtState } from './deal.js'
import { keepGmLock } from './gm-kept-lock.js'

export function rollBack(ctx: ServiceContext, m: Membership, turnNumber: number, reason: string, expectedTurn?: string): void {
  requireGm(m)
  ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    checkExpectedTurn(ctx, game.id, expectedTurn)
    if (game.status === 'setup' || game.status === 'abandoned') throw conflict(`the game is ${game.status}`)
    const last = ctx.gm.lastPublished(game.id)
    if (!last) throw conflict('no turn has been published yet')
    if (last.number !== turnNumber) throw conflict(`only the last published turn (${last.number}) can be rolled back`, 'turn')
    const turn = ctx.turns.byId(last.id)!
    const now = ctx.now()
    const text = renderTurnReport(ctx.board(game), JSON.parse(turn.result_json!) as TurnResult, reportNames(ctx.games.seats(game.id))) + correctionsText(ctx, turn.id)
    const version = ctx.gm.withdrawReport(game.id, turn.number, turn.result_json!, text, turn.published_at!, now, reason)
    // The turn dealt after it (open or in review) goes, with its programs: it is dealt again on
    // publication. A playing GM who had locked it stays locked (gm-kept-lock.ts).
    keepGmLock(ctx, game, turn.number)
    ctx.gm.deleteTurnsAfter(game.id, turn.number)
    if (!ctx.gm.backToDraft(turn.id)) throw new Error(`turn ${turn.id} was not published`)
    // What the game page shows between turns: the robots as the turn was dealt, without the hands.
    const before: GameState = { ...dealtState(turn), hands: {} }
    ctx.gm.reopenGame(game.id, JSON.stringify(before))
    ctx.gm.forgetOutsFrom(game.id, turn.number)
    if (game.stalemate_offered_turn !== null && game.stalemate_offered_turn >= turn.number) ctx.gm.setStalemateOffered(game.id, null)
    // Mail the publication caused and not yet sent (SMTP down, a digest not yet due or not yet
    // sent) is withdrawn with it: the results of the turn and the hand, reminders and answers of
    // the turn deleted above.
    const mailWithdrawn = withdrawMailRestingOn(ctx, game.id, turn.number)
    ctx.games.logAction(game.id, now, 'rollback', reason, { turn: turn.number, withdrawnVersion: version, mailWithdrawn })
    for (const to of recipients(ctx, game)) {
      ctx.mail({ kind: 'rollback', gameId: game.id, to, ...rollbackMail(game.name, turn.number, reason, ctx.link(`/games/${game.id}`)) })
    }
    invalidatePublishedTurn(game.id, turn.number)
  })
}

export function withdrawnList(ctx: ServiceContext, gameId: string) {
  return ctx.gm.withdrawnReports(gameId).map((w) => ({
    turn: w.number, version: w.version, publishedAt: new Date(w.published_at).toISOString(),
    withdrawnAt: new Date(w.withdrawn_at).toISOString(), reason: w.reason,
  }))
}

export function withdrawnReport(ctx: ServiceContext, gameId: string, number: number, version: number) {
  const row = ctx.gm.withdrawnReport(gameId, number, version)
  if (!row) throw notFound(`no withdrawn version ${version} of turn ${number}`)
  return {
    turn: row.number, version: row.version, withdrawn: true, publishedAt: new Date(row.published_at).toISOString(),
    // The text report only: the stored result holds the turn's hands and generator, never sent (views.ts).
    withdrawnAt: new Date(row.withdrawn_at).toISOString(), reason: row.reason, report: row.report_text,
  }
}
