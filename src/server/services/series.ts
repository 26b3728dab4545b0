// Series (issue 15): a GM's round robin over chosen boards with a fixed set of entrants (bots, or
// the GM), played one game after another by the clockwork: when a game ends the next starts, and
// after the last the series ends by itself. Standings come from each finished game's placings
// (src/engine/placings.ts), counted as `botwars tournament` counts them (src/bots/standings.ts).
import { randomBytes } from 'node:crypto'
import type { z } from 'zod'
import { botSeatName, type BotLevel } from '../../bots/index.js'
import { placings } from '../../engine/placings.js'
import { addGame, emptyStandings, entrantNames, ranked } from '../../bots/standings.js'
import { compileBoard, parseBoard } from '../../engine/board.js'
import type { GameState } from '../../engine/types.js'
import { badRequest, forbidden, notFound } from '../errors.js'
import type { SeriesRow } from '../repositories/bots.js'
import type { seriesRequest } from '../schemas.js'
import type { ServiceContext } from './context.js'
import { checkSeriesAllowance } from './bot-limits.js'
import { createGame, listBoards, startGame } from './games.js'

type Entrant = BotLevel | 'gm'
const COLOURS = ['blue', 'red', 'green', 'yellow', 'purple', 'orange', 'teal', 'grey']

const entrantsOf = (series: SeriesRow) => JSON.parse(series.seats_json) as Entrant[]
const boardsOf = (series: SeriesRow) => JSON.parse(series.boards_json) as string[]

export function createSeries(ctx: ServiceContext, gmUserId: number, input: z.output<typeof seriesRequest>): SeriesRow {
  const known = new Set(listBoards(ctx).map((b) => b.id))
  input.boards.forEach((board, i) => { if (!known.has(board)) throw badRequest(`boards[${i}]: no board "${board}" in boards/`, `boards[${i}]`) })
  if (input.seats.filter((s) => s === 'gm').length > 1) throw badRequest('seats: "gm" may sit once', 'seats')
  return ctx.write(() => {
    checkSeriesAllowance(ctx, gmUserId)
    const id = randomBytes(6).toString('base64url')
    ctx.bots.insertSeries({
      id, name: input.name, gm_user_id: gmUserId, boards_json: JSON.stringify(input.boards), seats_json: JSON.stringify(input.seats),
      games_total: input.boards.length * input.rounds, created_at: ctx.now(),
    })
    const series = ctx.bots.series(id)!
    startSeriesGame(ctx, series, 0, input.turnLengthHours)
    return series
  })
}

/** Creates, seats and starts game `position` (inside the caller's transaction): the entrants' order rotates by one each game. */
function startSeriesGame(ctx: ServiceContext, series: SeriesRow, position: number, turnLengthHours = 24): void {
  const entrants = entrantsOf(series)
  const boards = boardsOf(series)
  const order = entrants.map((_, seat) => (seat + position) % entrants.length)
  const game = createGame(ctx, series.gm_user_id, {
    name: `${series.name}: game ${position + 1} of ${series.games_total}`, board: boards[position % boards.length]!,
    seats: entrants.length, turnLengthHours, reviewWindowHours: 0, closeEarly: true, gmPlays: false,
  })
  const gm = ctx.users.byId(series.gm_user_id)!
  ctx.games.seats(game.id).forEach((seat, i) => {
    const entrant = entrants[order[i]!]!
    if (entrant === 'gm') ctx.games.join(seat.id, gm.id, gm.name, COLOURS[i]!, ctx.now())
    else ctx.bots.seatBot(seat.id, entrant, botSeatName(entrant), COLOURS[i]!, ctx.now())
  })
  ctx.bots.addSeriesGame(series.id, position, game.id, JSON.stringify(order))
  const seats = ctx.games.seats(game.id)
  startGame(ctx, { game, seats, isGm: true, seat: seats.find((s) => s.user_id === gm.id) }, `series ${series.name}`)
}

/** The clockwork's part: each running series whose last game is over starts its next game, or ends. Returns games started. */
/** Series whose next game could not be started, logged once until one starts (a tick every few seconds would repeat it). */
const failing = new WeakMap<ServiceContext, Set<string>>()

/**
 * Starts the next game of each series whose game ended, or ends the series. Each series apart: one
 * whose next game cannot start (say, its next board was removed from boards/) is logged and tried
 * again at the next tick, and holds up no other series (nor, in server.ts, the rest of the tick).
 */
export function advanceSeries(ctx: ServiceContext, log?: { error(obj: object, msg: string): void }): number {
  let started = 0
  let failed = failing.get(ctx)
  if (!failed) failing.set(ctx, (failed = new Set()))
  for (const series of ctx.bots.runningSeries()) {
    try {
      if (advanceOne(ctx, series)) started++
      failed.delete(series.id)
    } catch (err) {
      if (!failed.has(series.id)) log?.error({ err, seriesId: series.id }, 'the next game of a series could not be started')
      failed.add(series.id)
    }
  }
  return started
}

/** One series' step, in one transaction: whether it started a game. */
function advanceOne(ctx: ServiceContext, series: SeriesRow): boolean {
  return ctx.write(() => {
    const games = ctx.bots.seriesGames(series.id)
    const last = games[games.length - 1]
    if (last && last.status !== 'finished' && last.status !== 'abandoned') return false
    if (games.length >= series.games_total) {
      ctx.bots.finishSeries(series.id, ctx.now())
      return false
    }
    const previous = last ? ctx.games.byId(last.game_id) : undefined
    startSeriesGame(ctx, series, games.length, previous ? previous.turn_length_ms / 3600_000 : 24)
    return true
  })
}

/** The series, its games and the standings so far; for its GM only. */
export function seriesView(ctx: ServiceContext, seriesId: string, userId: number) {
  const series = ctx.bots.series(seriesId)
  if (!series) throw notFound('no such series')
  if (series.gm_user_id !== userId) throw forbidden('only the GM of this series can see it')
  const entrants = entrantsOf(series)
  const gm = ctx.users.byId(series.gm_user_id)!
  const names = entrantNames(entrants.map((e) => (e === 'gm' ? gm.name : botSeatName(e))))
  let standings = emptyStandings(names)
  const games = ctx.bots.seriesGames(series.id).map((row) => {
    const order = JSON.parse(row.seats_json) as number[]
    const entrantOf = (player: string) => names[order[Number(player.slice(1)) - 1]!]!
    const parsed = parseBoard(JSON.parse(row.board_json), [], { stored: true })
    const board = parsed.ok ? compileBoard(parsed.value) : null
    const state = row.state_json ? (JSON.parse(row.state_json) as GameState) : null
    const rows = row.status === 'finished' && board && state
      ? placings({ board, robots: state.robots, winners: state.winners, outAfterTurn: ctx.gm.outAfterTurn(row.game_id) })
      : null
    if (rows) standings = addGame(standings, rows, entrantOf)
    return {
      position: row.position + 1, gameId: row.game_id, board: board?.name ?? '?', status: row.status,
      placings: rows?.map((p) => ({ place: p.place, entrant: entrantOf(p.player), won: p.winner, flags: p.flags })) ?? null,
    }
  })
  return {
    id: series.id, name: series.name, status: series.status, gamesTotal: series.games_total, boards: boardsOf(series),
    createdAt: new Date(series.created_at).toISOString(), endedAt: series.ended_at === null ? null : new Date(series.ended_at).toISOString(),
    games,
    standings: ranked(standings).map((s) => ({
      entrant: s.entrant, games: s.games, wins: s.wins, averagePlace: s.games ? Math.round((s.placeSum / s.games) * 100) / 100 : null,
      flagsPerGame: s.games ? Math.round((s.flags / s.games) * 100) / 100 : null,
    })),
  }
}
