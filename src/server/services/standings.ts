// Games that end (issue 12): placings, the standings view, ending a game (by R34, at its turn limit,
// when only one player is left, or by the GM) with the final mail to everyone, and what happens
// after each published turn: who went out, seats that changed, the turn limit, stalemate help.
import { placings, type Placing } from '../../engine/placings.js'
import { addRobot, takeOffBoard } from '../../engine/seats.js'
import type { GameState } from '../../engine/types.js'
import { conflict } from '../errors.js'
import { finalStandingsMail, stalemateMail, type StandingLine } from '../mail/gm-templates.js'
import { queueResultsOnly, type Published } from '../mail/turn-queue.js'
import type { GameRow } from '../repositories/games.js'
import { boardDefinition, recipients, reportNames, type Membership, type ServiceContext } from './context.js'
import { requireGm } from './membership.js'
import { checkExpectedTurn } from './turn-version.js'

export type EndReason = 'won' | 'turn-limit' | 'last-player' | 'gm'

const OUTCOME: Record<Exclude<EndReason, 'won'>, string> = {
  'turn-limit': 'The game reached its turn limit; it ends with placings.',
  'last-player': 'Only one player is left in the race; the game ends with placings.',
  gm: 'The GM ended the game with placings.',
}

export interface StandingsRow extends Placing { name: string }

function stateOf(game: GameRow): GameState | null {
  return game.state_json ? (JSON.parse(game.state_json) as GameState) : null
}

/** The placings of the game as it stands after its last published turn (stored once it ended). */
export function currentPlacings(ctx: ServiceContext, game: GameRow): StandingsRow[] {
  const { names } = reportNames(ctx.games.seats(game.id))
  const stored = game.placings_json ? (JSON.parse(game.placings_json) as Placing[]) : null
  const state = stateOf(game)
  const rows = stored ?? (state ? placings({
    board: ctx.board(game), robots: state.robots, outAfterTurn: ctx.gm.outAfterTurn(game.id),
    winners: game.winners_json ? (JSON.parse(game.winners_json) as string[]) : [],
  }) : [])
  return rows.map((p) => ({ ...p, name: names[p.player] ?? p.player }))
}

export function standingsView(ctx: ServiceContext, game: GameRow) {
  const final = game.status === 'finished'
  return {
    game: { id: game.id, name: game.name, status: game.status },
    final,
    endReason: game.end_reason,
    turnsPlayed: ctx.gm.lastPublished(game.id)?.number ?? 0,
    placings: currentPlacings(ctx, game).map((p) => ({
      place: p.place, player: p.player, name: p.name, winner: p.winner, flags: p.flags, distance: p.distance, hp: p.hp,
      robotsLeft: p.robotsLeft, out: p.out, outAfterTurn: p.outAfterTurn,
    })),
  }
}

const lines = (rows: readonly StandingsRow[]): StandingLine[] =>
  rows.map((p) => ({ place: p.place, name: p.name, flags: p.flags, robotsLeft: p.robotsLeft, hp: p.hp, out: p.out, winner: p.winner }))

/**
 * Ends the game with placings stored and the final standings mailed to everyone (inside the
 * caller's transaction). When a published turn ended it, that one mail also carries the turn's
 * story and picture (issue 14: one mail per reader, not the results and then the standings).
 */
export function finishWithPlacings(ctx: ServiceContext, gameId: string, winners: readonly string[], reason: EndReason, lastTurn?: Published): void {
  const game = ctx.games.byId(gameId)!
  const state = stateOf(game)!
  const ranked = placings({ board: ctx.board(game), robots: state.robots, winners, outAfterTurn: ctx.gm.outAfterTurn(game.id) })
  ctx.gm.finishWithPlacings(game.id, [...winners], JSON.stringify(ranked), reason, ctx.now())
  const rows = currentPlacings(ctx, ctx.games.byId(gameId)!)
  const { names } = reportNames(ctx.games.seats(game.id))
  const outcome = reason === 'won'
    ? winners.length ? `Winner${winners.length > 1 ? 's' : ''}: ${winners.map((p) => names[p] ?? p).join(' and ')}.` : 'Nobody won.'
    : OUTCOME[reason]
  const turns = ctx.gm.lastPublished(game.id)?.number ?? 0
  if (lastTurn) {
    const headline = reason !== 'won' ? 'final standings' : winners.length ? `${winners.map((p) => names[p] ?? p).join(' and ')} won` : 'nobody won'
    queueResultsOnly(ctx, game, lastTurn, { headline, outcome, turnsPlayed: turns, standings: lines(rows), standingsLink: ctx.link(`/games/${game.id}/standings`) })
    return
  }
  for (const to of recipients(ctx, game)) {
    ctx.mail({ kind: 'game-over', gameId: game.id, to, restsOnTurn: turns, ...finalStandingsMail(game.name, outcome, turns, lines(rows), ctx.link(`/games/${game.id}/standings`)) })
  }
}

/** The GM ends the game now, with placings from the last published turn; an open turn or draft is not played. */
export function endWithPlacings(ctx: ServiceContext, m: Membership, reason: string, expectedTurn?: string): void {
  requireGm(m)
  ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    checkExpectedTurn(ctx, game.id, expectedTurn)
    if (game.status !== 'running' && game.status !== 'paused') throw conflict(`the game is ${game.status}`)
    finishWithPlacings(ctx, game.id, [], 'gm')
    ctx.games.logAction(game.id, ctx.now(), 'end', reason, { turnsPlayed: ctx.gm.lastPublished(game.id)?.number ?? 0 })
  })
}

/**
 * After turn `number` is published, before the next deal: records who went out in it; takes off
 * the board the robots whose player left (when the game says so) and brings in newcomers' robots
 * (R25); then ends the game at its turn limit or when one player is left, or mails the GM when no
 * flag was touched for the game's stalemate count. Returns the state to deal from, or null when the
 * game ended.
 */
export function afterPublished(ctx: ServiceContext, game: GameRow, number: number, dealt: GameState, next: GameState, published?: Published): GameState | null {
  recordOuts(ctx, game.id, number, dealt, next)
  let state = next
  const definition = boardDefinition(game)
  for (const seat of ctx.games.seats(game.id)) {
    const robot = state.robots.find((r) => r.player === seat.player_id)
    // A newcomer's robot, or a bot's in a seat opened for it (issue 15), enters as at the start (R25).
    if (!robot && (seat.user_id !== null || seat.bot)) state = addRobot(state, definition, seat.player_id)
    if (robot && robot.robotsLeft > 0 && seat.user_id === null && seat.robot_leaves === 1) {
      state = takeOffBoard(state, seat.player_id)
      ctx.gm.recordOut(game.id, seat.player_id, number)
    }
  }
  const finish = (reason: EndReason) => {
    ctx.games.setState(game.id, JSON.stringify(state))
    finishWithPlacings(ctx, game.id, [], reason, published)
    return null
  }
  if (game.turn_limit !== null && number >= game.turn_limit) return finish('turn-limit')
  if (state.robots.length > 1 && state.robots.filter((r) => r.robotsLeft > 0).length <= 1) return finish('last-player')
  offerEndOnStalemate(ctx, game, number, state)
  return state
}

/** Players whose last robot was lost in turn `number` (R29) went out after it (A17). */
export function recordOuts(ctx: ServiceContext, gameId: string, number: number, dealt: GameState, next: GameState): void {
  const before = new Map(dealt.robots.map((r) => [r.player, r.robotsLeft]))
  for (const robot of next.robots) if (robot.robotsLeft <= 0 && (before.get(robot.player) ?? 0) > 0) ctx.gm.recordOut(gameId, robot.player, number)
}

function offerEndOnStalemate(ctx: ServiceContext, game: GameRow, number: number, state: GameState): void {
  const n = game.stalemate_turns
  if (n === null || number < n) return
  if (game.stalemate_offered_turn !== null && game.stalemate_offered_turn > number - n) return // offered within these n turns already
  const gained = ctx.gm.flagsGained(game.id, n)
  if (gained.length < n || gained.some((g) => g > 0)) return
  ctx.gm.setStalemateOffered(game.id, number)
  const rows = placings({ board: ctx.board(game), robots: state.robots, winners: [], outAfterTurn: ctx.gm.outAfterTurn(game.id) })
  const { names } = reportNames(ctx.games.seats(game.id))
  ctx.mail({
    kind: 'stalemate', gameId: game.id, to: ctx.users.byId(game.gm_user_id)!.email, restsOnTurn: number,
    ...stalemateMail(game.name, n, lines(rows.map((p) => ({ ...p, name: names[p.player] ?? p.player }))), ctx.link(`/games/${game.id}/gm#end-placings-heading`)),
  })
}

/** Whether the GM console should offer to end on stalemate: no flag touched in the last n published turns. */
export function isStalemate(ctx: ServiceContext, game: GameRow): boolean {
  const n = game.stalemate_turns
  if (n === null || (game.status !== 'running' && game.status !== 'paused')) return false
  const gained = ctx.gm.flagsGained(game.id, n)
  return gained.length >= n && gained.every((g) => g <= 0)
}
