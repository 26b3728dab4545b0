// Dealing a turn: the hands (R7), the deadline, and each player's hand mail. Used when a game
// starts (services/games.ts) and when a turn is published (services/turns.ts).
import { dealHands } from '../../engine/deck.js'
import type { GameState } from '../../engine/types.js'
import { queueTurnMails, type Published } from '../mail/turn-queue.js'
import type { GameRow } from '../repositories/games.js'
import type { TurnRow } from '../repositories/turns.js'
import { afterDeal } from './bot-seats.js'
import type { ServiceContext } from './context.js'
import { restoreGmLock } from './gm-kept-lock.js'
import { markIfEveryProgramIn } from './programs-in.js'

export const submitPath = (game: GameRow, turn: number) => `/games/${game.id}/turns/${turn}/submit`

/** Whether a robot has to send a program this turn (on the board, not destroyed, not rebooting). */
export const mustSubmit = (robot: GameState['robots'][number]) => robot.mode !== 'destroyed' && robot.at !== null && !robot.rebooting

export function dealtState(turn: TurnRow): GameState {
  return JSON.parse(turn.dealt_state_json) as GameState
}

/**
 * Deals the turn to be played from `state` (R7), opens it with a deadline and mails every player
 * their hand: one turn mail each, with the story and picture of the turn just published, if any.
 */
export function openTurn(ctx: ServiceContext, game: GameRow, state: GameState, published: Published | null = null): TurnRow {
  const dealt = dealHands(state)
  const now = ctx.now()
  const turn = ctx.turns.insert(game.id, dealt.turn, JSON.stringify(dealt), now, now + game.turn_length_ms)
  restoreGmLock(ctx, game, turn, dealt) // a playing GM's lock kept through a rollback, before anyone else's program
  markIfEveryProgramIn(ctx, game.id, turn.id, dealt) // nobody has to play (or can): closes early at once
  afterDeal(ctx, game, turn, dealt) // bot seats submit; webhooks are queued (issue 15)
  queueTurnMails(ctx, game, turn, dealt, published)
  return turn
}
