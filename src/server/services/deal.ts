// Dealing a turn: the hands (R7), the deadline, and each player's hand mail. Used when a game
// starts (services/games.ts) and when a turn is published (services/turns.ts).
import { dealHands } from '../../engine/deck.js'
import type { GameState } from '../../engine/types.js'
import { handMail } from '../mail/templates.js'
import type { GameRow } from '../repositories/games.js'
import type { TurnRow } from '../repositories/turns.js'
import { afterDeal } from './bot-seats.js'
import type { ServiceContext } from './context.js'

export const submitPath = (game: GameRow, turn: number) => `/games/${game.id}/turns/${turn}/submit`

/** Whether a robot has to send a program this turn (on the board, not destroyed, not rebooting). */
export const mustSubmit = (robot: GameState['robots'][number]) => robot.mode !== 'destroyed' && robot.at !== null && !robot.rebooting

export function dealtState(turn: TurnRow): GameState {
  return JSON.parse(turn.dealt_state_json) as GameState
}

/** Deals the turn to be played from `state` (R7), opens it with a deadline and mails every player their hand. */
export function openTurn(ctx: ServiceContext, game: GameRow, state: GameState): TurnRow {
  const dealt = dealHands(state)
  const now = ctx.now()
  const turn = ctx.turns.insert(game.id, dealt.turn, JSON.stringify(dealt), now, now + game.turn_length_ms)
  if (!dealt.robots.some(mustSubmit)) ctx.turns.markProgramsIn(turn.id) // nobody has to play: closes early at once
  afterDeal(ctx, game, turn, dealt) // bot seats submit; webhooks are queued (issue 15)
  for (const seat of ctx.games.seats(game.id)) {
    const robot = dealt.robots.find((r) => r.player === seat.player_id)
    if (!seat.email || !robot || robot.robotsLeft === 0) continue
    ctx.mail({
      kind: 'hand', gameId: game.id, to: seat.email,
      ...handMail({
        game: game.name, turn: turn.number, name: seat.name ?? seat.player_id, robot, hand: dealt.hands[seat.player_id] ?? [],
        deadline: turn.deadline, submitLink: ctx.link(submitPath(game, turn.number)),
      }),
    })
  }
  return turn
}
