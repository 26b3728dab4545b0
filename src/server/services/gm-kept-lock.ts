// A GM who plays keeps their program lock through a rollback (services/lock.ts says why the lock
// exists: the GM's program is completed before they see anyone else's).
//
// Rolling back turn N deletes turn N+1, open or in review, with its programs and its lock, and
// publishing N again deals N+1 again: with the very same hands when nothing was corrected. A GM who
// had locked N+1, or seen its draft, has seen every other program for it; a new, unlocked N+1 would
// let them program those hands again knowing what the others played. So the lock is kept: the
// rollback records it (with the GM's latest program for N+1), and the new deal of N+1 is locked at
// once, with that program when it is still a program of the new hand (R8), and otherwise with none
// (R9 fills it at random when the turn closes). Either way the GM cannot choose again.
import { parseCard } from '../../engine/deck.js'
import { programProblem } from '../../engine/program.js'
import { needsProgram } from '../../engine/turn.js'
import type { Card, GameState } from '../../engine/types.js'
import type { GameRow } from '../repositories/games.js'
import type { SubmissionRow, TurnRow } from '../repositories/turns.js'
import type { ServiceContext } from './context.js'

type KeptProgram = Pick<SubmissionRow, 'cards_json' | 'reboot_next' | 'sacrifice_at' | 'double_wrench' | 'facing'>

const gmSeat = (ctx: ServiceContext, game: GameRow) => ctx.games.seats(game.id).find((seat) => seat.user_id === game.gm_user_id)

/** Inside the rollback of turn `rolledBack`, before the turns after it are deleted: keeps the GM's lock of the next one, if any. */
export function keepGmLock(ctx: ServiceContext, game: GameRow, rolledBack: number): void {
  const next = ctx.turns.byNumber(game.id, rolledBack + 1)
  // A draft was locked when it closed (markDraft), and its review shows the GM every program.
  if (!next || (next.status === 'open' && next.gm_locked_at === null)) return
  const seat = gmSeat(ctx, game)
  if (!seat) return
  const latest = ctx.turns.latestSubmissions(next.id).find((row) => row.player_id === seat.player_id)
  const program: KeptProgram | null = latest
    ? { cards_json: latest.cards_json, reboot_next: latest.reboot_next, sacrifice_at: latest.sacrifice_at, double_wrench: latest.double_wrench, facing: latest.facing }
    : null
  ctx.gm.keepLock(game.id, next.number, program && JSON.stringify(program))
}

/** Inside the deal of `turn` (deal.ts openTurn): locks it at once for the GM if a rollback kept their lock of it. */
export function restoreGmLock(ctx: ServiceContext, game: GameRow, turn: TurnRow, dealt: GameState): void {
  const kept = ctx.gm.takeKeptLock(game.id, turn.number)
  const seat = kept && gmSeat(ctx, game)
  if (!kept || !seat) return
  const now = ctx.now()
  const program = kept.program_json === null ? null : JSON.parse(kept.program_json) as KeptProgram
  const robot = dealt.robots.find((r) => r.player === seat.player_id)
  const cards = program && (JSON.parse(program.cards_json) as string[]).map(parseCard)
  const plays = robot !== undefined && needsProgram(robot)
  const fits = plays && program !== null && cards !== null && cards.every((card) => card !== null)
    && programProblem(robot, dealt.hands[seat.player_id] ?? [], cards as Card[]) === null
  if (fits) {
    ctx.turns.addSubmission({ turn_id: turn.id, player_id: seat.player_id, user_id: seat.user_id, ...program, submitted_at: now })
  }
  ctx.turns.lockGm(turn.id, now)
  const why = !plays ? 'kept through the rollback (your robot plays no program this turn)'
    : fits ? 'kept through the rollback: the program locked before it, still final'
    : 'kept through the rollback: no program locked before it fits the new hand, so yours is filled at random when the turn closes (R9)'
  ctx.games.logAction(game.id, now, 'lock', why, { turn: turn.number, kept: true, programKept: fits })
}
