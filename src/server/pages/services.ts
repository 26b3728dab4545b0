// Service functions the pages need that the JSON API does not have (yet): the list of games open
// to join and joining one without an invitation, the GM's "close now", and the one-line "what is
// this game waiting for" of the my-games list. Built on the same repositories and rules.
import { badRequest, conflict, notFound } from '../errors.js'
import type { GameRow } from '../repositories/games.js'
import { needsProgram } from '../../engine/turn.js'
import { requireGm } from '../services/membership.js'
import type { Membership, ServiceContext } from '../services/context.js'
import { dealtState } from '../services/deal.js'
import { closeTurn } from '../services/turns.js'
import { duration } from './kit.js'

export interface OpenGame { id: string; name: string; board: string; seats: number; free: number; gm: string }

/** Games still being set up with a seat nobody is invited to, that the person is not in. */
export function openGames(ctx: ServiceContext, userId: number): OpenGame[] {
  const rows = ctx.db.prepare<[number, number], GameRow & { free: number; gm: string }>(`
    SELECT games.*, users.name AS gm,
      (SELECT COUNT(*) FROM seats WHERE seats.game_id = games.id AND user_id IS NULL AND invite_email IS NULL) AS free
    FROM games JOIN users ON users.id = games.gm_user_id
    WHERE games.status = 'setup' AND games.gm_user_id != ?
      AND NOT EXISTS (SELECT 1 FROM seats WHERE seats.game_id = games.id AND seats.user_id = ?)
    ORDER BY games.created_at DESC LIMIT 50`).all(userId, userId)
  return rows.filter((g) => g.free > 0).map((g) => ({ id: g.id, name: g.name, board: g.board_name, seats: g.seat_count, free: g.free, gm: g.gm }))
}

export function isOpenToJoin(ctx: ServiceContext, game: GameRow): boolean {
  return game.status === 'setup' && ctx.games.seats(game.id).some((s) => s.user_id === null && !s.invite_email)
}

/** Takes the first free seat nobody is invited to, like joinGame does for an invited seat. */
export function joinOpenSeat(ctx: ServiceContext, userId: number, gameId: string, name: string, colour: string) {
  return ctx.write(() => {
    const game = ctx.games.byId(gameId)
    if (!game) throw notFound('no such game')
    if (game.status !== 'setup') throw conflict('this game has already started')
    const seats = ctx.games.seats(game.id)
    if (seats.some((s) => s.user_id === userId)) throw conflict('you already have a seat in this game')
    if (seats.some((s) => s.user_id !== null && s.colour === colour)) throw conflict(`another robot is already ${colour}; choose another colour`, 'colour')
    const seat = seats.find((s) => s.user_id === null && !s.invite_email)
    if (!seat) throw conflict('every seat is taken or reserved for an invited player')
    if (ctx.games.join(seat.id, userId, name, colour, ctx.now()) !== 1) throw conflict('this seat was just taken; try again')
    return { gameId: game.id, seat: seat.seat_no, player: seat.player_id }
  })
}

/** The GM closes the open turn before its deadline: resolved into a draft at once. */
export function closeNow(ctx: ServiceContext, m: Membership, reason: string): number {
  requireGm(m)
  return ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    if (game.status !== 'running') throw conflict(`the game is ${game.status}; resume it first`)
    const turn = ctx.turns.current(game.id)
    if (!turn || turn.status !== 'open') throw conflict('no turn is open')
    if (!closeTurn(ctx, turn.id)) throw conflict('the turn was closed already')
    ctx.games.logAction(game.id, ctx.now(), 'close', reason, { turn: turn.number })
    return turn.number
  })
}

export function parseHours(text: string | undefined, field: string): number {
  const hours = Number(text)
  if (!text || !Number.isFinite(hours) || hours <= 0 || hours > 24 * 60) throw badRequest('enter a number of hours between 0 and 1440', field)
  return hours
}

export interface Waiting { text: string; urgent: boolean }

/** "in 2 days" before `ms`, else `past`. */
export const liveUntil = (now: number) => (ms: number, past: 'now' | 'soon'): string => (ms > now ? `in ${duration(ms - now)}` : past)

/**
 * What the game waits for, from this person's point of view: "your program is due in 2 days".
 * `until` prints a moment ("in 2 days", or `past` once it has gone): the game page's cache
 * (game-page-cache.ts) passes one that leaves a slot filled per request.
 */
export function waitingFor(ctx: ServiceContext, game: GameRow, userId: number, until = liveUntil(ctx.now())): Waiting {
  const seats = ctx.games.seats(game.id)
  const isGm = game.gm_user_id === userId
  const seat = seats.find((s) => s.user_id === userId)
  switch (game.status) {
    case 'setup': {
      const empty = seats.filter((s) => s.user_id === null).length
      if (empty === 0) return isGm ? { text: 'every seat is taken: start the game', urgent: true } : { text: 'waiting for the GM to start', urgent: false }
      return { text: `waiting for players (${seats.length - empty} of ${seats.length} seats taken)`, urgent: false }
    }
    case 'paused': return { text: 'paused by the GM', urgent: false }
    case 'finished': {
      const winners = game.winners_json ? (JSON.parse(game.winners_json) as string[]) : []
      const names = winners.map((p) => seats.find((s) => s.player_id === p)?.name ?? p)
      return { text: names.length ? `finished: ${names.join(' and ')} won` : 'finished', urgent: false }
    }
    case 'abandoned': return { text: 'ended early by the GM', urgent: false }
    case 'running': break
  }
  const turn = ctx.turns.current(game.id)
  if (!turn) return { text: 'running', urgent: false }
  if (turn.status === 'draft') {
    if (seat && turn.reopened_player_id === seat.player_id) return { text: `the GM reopened your program for turn ${turn.number}: correct it`, urgent: true }
    const review = turn.review_until !== null ? ` (published ${until(turn.review_until, 'soon')} at the latest)` : ''
    return isGm ? { text: `turn ${turn.number} is resolved: review and publish it${review}`, urgent: true } : { text: `turn ${turn.number} is with the GM for review`, urgent: false }
  }
  const left = until(turn.deadline, 'now')
  const submitted = new Set(ctx.turns.latestSubmissions(turn.id).map((s) => s.player_id))
  if (seat) {
    const robot = dealtState(turn).robots.find((r) => r.player === seat.player_id)
    if (robot && needsProgram(robot) && !submitted.has(seat.player_id)) return { text: `your program for turn ${turn.number} is due ${left}`, urgent: true }
    if (robot && !submitted.has(seat.player_id) && robot.rebooting) return { text: `your robot reboots in turn ${turn.number}; you may still declare a reboot (closes ${left})`, urgent: false }
  }
  const must = dealtState(turn).robots.filter((r) => needsProgram(r))
  const missing = must.filter((r) => !submitted.has(r.player)).length
  return { text: `turn ${turn.number}: ${must.length - missing} of ${must.length} programs in; closes ${left}`, urgent: false }
}
