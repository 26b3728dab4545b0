// From a turn's dealt state and the latest submissions to the draft result: pure, so closing,
// re-resolving after a correction and publishing all see the same turn. Missing programs are
// filled from the dealt state's generator (R9), so re-resolving gives the same fills.
import { parseCard } from '../../engine/deck.js'
import { fillMissingOrders } from '../../engine/program.js'
import { randomStream } from '../../engine/random.js'
import { needsProgram, resolveTurn, type TurnResult } from '../../engine/turn.js'
import type { Board, Card, Direction, DoubleWrenchChoice, GameState, TurnOrders } from '../../engine/types.js'
import type { SubmissionRow } from '../repositories/turns.js'

export interface Program {
  cards: Card[]
  rebootNext: boolean
  sacrificeAt: number
  doubleWrench: DoubleWrenchChoice
  facing: Direction | null
}

export function programOf(row: SubmissionRow): Program {
  return {
    cards: (JSON.parse(row.cards_json) as string[]).map((text) => {
      const card = parseCard(text)
      if (!card) throw new Error(`stored submission ${row.id} holds a bad card ${text}`)
      return card
    }),
    rebootNext: row.reboot_next === 1,
    sacrificeAt: row.sacrifice_at,
    doubleWrench: row.double_wrench as DoubleWrenchChoice,
    facing: row.facing as Direction | null,
  }
}

export interface Resolved {
  result: TurnResult
  /** The state the next turn is dealt from: the result, with the generator as the deal left it (fills use their own streams, A18). */
  next: GameState
  orders: Record<string, TurnOrders>
}

/** Fills a missing program (R9 by default; a game may name a bot instead, services/bots.ts). */
export type MissingProgramFill = (state: GameState, player: string) => [TurnOrders, GameState]

export function resolveFromSubmissions(board: Board, dealt: GameState, programs: ReadonlyMap<string, Program>, fill: MissingProgramFill = fillMissingOrders): Resolved {
  // Standing choices (R28, R31) ride on the robot: the latest submission sets them.
  const state: GameState = {
    ...dealt,
    robots: dealt.robots.map((robot) => {
      const program = programs.get(robot.player)
      return program ? { ...robot, sacrificeAt: program.sacrificeAt, doubleWrench: program.doubleWrench } : robot
    }),
  }
  const orders: Record<string, TurnOrders> = {}
  state.robots.forEach((robot, seat) => {
    const program = programs.get(robot.player)
    if (!needsProgram(robot)) {
      orders[robot.player] = { cards: [], rebootNext: program?.rebootNext ?? false }
    } else if (program) {
      orders[robot.player] = { cards: program.cards, rebootNext: program.rebootNext, ...(program.facing ? { facing: program.facing } : {}) }
    } else {
      // Each seat's fill draws from its own stream of the dealt generator (A18), so a GM's correction
      // of one program (issue 12) changes no other robot's fill and not the next deal. The fill sees
      // the turn as dealt: the standing choices others sent with their programs are as secret as the
      // programs (A15), and a missed seat's own robot is as dealt anyway.
      orders[robot.player] = fill({ ...dealt, rng: randomStream(dealt.rng, seat) }, robot.player)[0]
    }
  })
  const result = resolveTurn(board, state, orders)
  return { result, next: { ...result.state, rng: dealt.rng }, orders }
}
