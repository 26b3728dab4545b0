// The program lock of a GM who plays. BotWars rules: "if the GM is also playing, the GM's program
// is completed first". The GM locks it (an explicit, confirmed step) before any other program or
// result of the turn is shown to them (views.ts); closing the turn locks it too (markDraft). A
// locked program is final: no new version (turns.ts storeProgram), no reopening (reopenSubmission),
// not even by rolling back the turn before it (gm-kept-lock.ts), and the GM's seat can neither be
// emptied nor taken again while the game runs (games.ts).
import { badRequest, conflict, notFound } from '../errors.js'
import type { TurnRow } from '../repositories/turns.js'
import type { Membership, ServiceContext } from './context.js'
import { dealtState, mustSubmit } from './deal.js'
import { gmPlays, requireGm } from './membership.js'

export function lockGmProgram(ctx: ServiceContext, m: Membership, turnNumber: number, confirmed: boolean, reason: string): void {
  requireGm(m)
  if (!gmPlays(m)) throw conflict('you do not play in this game: there is no program of yours to lock')
  if (!confirmed) throw badRequest('confirm: locking makes your program final; send "confirm": true', 'confirm')
  ctx.write(() => {
    const turn = ctx.turns.byNumber(m.game.id, turnNumber)
    if (!turn) throw notFound(`no turn ${turnNumber}`)
    if (turn.gm_locked_at !== null) throw conflict(`your program for turn ${turnNumber} is already locked`)
    if (turn.status !== 'open') throw conflict(`turn ${turnNumber} is ${turn.status}`)
    const game = ctx.games.byId(m.game.id)!
    if (game.status !== 'running' && game.status !== 'paused') throw conflict(`the game is ${game.status}`)
    const robot = dealtState(turn).robots.find((r) => r.player === m.seat!.player_id)
    if (robot && mustSubmit(robot) && !ctx.turns.submitters(turn.id).includes(m.seat!.player_id)) {
      throw conflict(`send your program for turn ${turnNumber} first: locking makes it final`)
    }
    if (!ctx.turns.lockGm(turn.id, ctx.now())) throw conflict(`turn ${turnNumber} changed meanwhile; try again`)
    ctx.games.logAction(m.game.id, ctx.now(), 'lock', reason, { turn: turnNumber })
  })
}

/** Whether the GM may see the turn's other programs and its draft: always, unless the GM plays and has not locked yet. */
export function gmSeesTurn(m: Membership, turn: TurnRow): boolean {
  return m.isGm && (!gmPlays(m) || turn.gm_locked_at !== null || turn.status === 'published')
}
