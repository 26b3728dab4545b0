// Whether every program a turn waits for is in: what closes a close-early game's turn (the
// clockwork reads `programs_in`). A turn waits for each robot that must play (on the floor, not
// destroyed, not rebooting: engine needsProgram) and has someone to play it: a player or a bot in
// its seat. A seat emptied by its player (removed, withdrawn, waiting for a newcomer) sends
// nothing, so waiting for it would only hold the others up to the deadline; R9 fills its program.
// Imports no other service, so every one that stores a program can use it.
import { needsProgram } from '../../engine/turn.js'
import type { GameState } from '../../engine/types.js'
import type { ServiceContext } from './context.js'

/**
 * Whether every robot of `dealt` that must play and has someone to play it has a program in turn
 * `turnId`. A bot seat whose plan failed this turn (services/bot-plans.ts) has nobody to play it.
 */
export function everyProgramIn(ctx: ServiceContext, gameId: string, turnId: number, dealt: GameState): boolean {
  const failed = ctx.botPlanning?.failed
  const played = new Set(ctx.games.seats(gameId)
    .filter((seat) => seat.user_id !== null || (seat.bot && !failed?.has(failedPlanKey(turnId, seat.player_id))))
    .map((seat) => seat.player_id))
  const submitted = new Set(ctx.turns.submitters(turnId))
  return dealt.robots.every((robot) => !needsProgram(robot) || !played.has(robot.player) || submitted.has(robot.player))
}

/** The key of a bot seat's failed plan in BotPlanning.failed (bot-plans.ts). */
export const failedPlanKey = (turnId: number, player: string) => `${turnId}:${player}`

/** Records on the turn that every program is in, once it is (see everyProgramIn). */
export function markIfEveryProgramIn(ctx: ServiceContext, gameId: string, turnId: number, dealt: GameState): void {
  if (everyProgramIn(ctx, gameId, turnId, dealt)) ctx.turns.markProgramsIn(turnId)
}
