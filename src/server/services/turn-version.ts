// "The turn changed meanwhile" (issue 12): every GM page and API call that changes a turn may send
// the turn state it was looking at, `expectedTurn` = "<number>.<revision>" ("none" before the first
// deal). The revision moves with every change of status, result, reopened player or deadline
// (migration 025's trigger), so of two tabs acting on the same view, the second is refused.
import { conflict } from '../errors.js'
import type { TurnRow } from '../repositories/turns.js'
import type { ServiceContext } from './context.js'

export function turnVersion(turn: Pick<TurnRow, 'number' | 'revision'> | undefined): string {
  return turn ? `${turn.number}.${turn.revision}` : 'none'
}

/** Refuses (409, changing nothing) when the game's current turn is no longer the one the GM saw. */
export function checkExpectedTurn(ctx: ServiceContext, gameId: string, expected: string | undefined): void {
  if (expected === undefined || expected === '') return
  const now = turnVersion(ctx.turns.current(gameId))
  if (now !== expected) throw conflict('the turn changed meanwhile: reload the page to see what changed, then try again', 'expectedTurn')
}
