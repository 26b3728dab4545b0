// Series (issue 15): a GM's round robin over chosen boards with a fixed set of entrants (bots, or
// the GM), played one game after another by the clockwork: when a game ends the next starts, and
// after the last the series ends by itself, unless its GM stops it first (stopSeries). Standings
// come from each finished game's placings (src/engine/placings.ts), counted as `botwars
// tournament` counts them (src/bots/standings.ts).
import { randomBytes } from 'node:crypto'
import type { z } from 'zod'
import { botSeatName, type BotLevel } from '../../bots/index.js'
import { placings } from '../../engine/placings.js'
import { addGame, emptyStandings, entrantNames, ranked } from '../../bots/standings.js'
import { compileBoard, parseBoard } from '../../engine/board.js'
import type { GameState } from '../../engine/types.js'
import { badRequest, conflict, forbidden, notFound } from '../errors.js'
import type { SeriesRow, SeriesStopWhen } from '../repositories/bots.js'
import type { seriesRequest } from '../schemas.js'
import type { ServiceContext } from './context.js'
import { checkSeriesAllowance } from './bot-limits.js'
import { abandonGame, createGame, listBoards, startGame } from './games.js'
import { membership } from './membership.js'

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

/** Series whose next game could not be started, logged once until one starts (a tick every few seconds would repeat it). */
const failing = new WeakMap<ServiceContext, Set<string>>()

/**
 * The clockwork's part: starts the next game of each running series whose game ended, or ends the
 * series (finished after its last game, stopped if its GM asked to stop after that game). Each
 * series apart: one whose next game cannot start (say, its next board was removed from boards/) is
 * logged and tried again at the next tick, and holds up no other series (nor, in server.ts, the
 * rest of the tick). Returns the games started.
 */
export function advanceSeries(ctx: ServiceContext, log?: { error(obj: object, msg: string): void }): number {
  let started = 0
  let failed = failing.get(ctx)
  if (!failed) failing.set(ctx, (failed = new Set()))
  for (const { id } of ctx.bots.runningSeries()) {
    // Between the list and the series' own transaction: where a GM's stop can land (the race test stops it here).
    ctx.crash('series-listed')
    try {
      if (advanceOne(ctx, id)) started++
      failed.delete(id)
    } catch (err) {
      if (!failed.has(id)) log?.error({ err, seriesId: id }, 'the next game of a series could not be started')
      failed.add(id)
    }
  }
  return started
}

/** One series' step, in one transaction: whether it started a game. */
function advanceOne(ctx: ServiceContext, seriesId: string): boolean {
  return ctx.write(() => {
    // Read again inside the transaction: the list above may be older than a stop.
    const series = ctx.bots.series(seriesId)
    if (series?.status !== 'running') return false
    const games = ctx.bots.seriesGames(series.id)
    const last = games[games.length - 1]
    if (last && !isOver(last.status)) return false
    ctx.crash('series-advance-checked')
    if (games.length >= series.games_total) {
      ctx.bots.finishSeries(series.id, ctx.now())
      return false
    }
    if (series.stop_when !== null) {
      ctx.bots.stopSeries(series.id, ctx.now())
      return false
    }
    const previous = last ? ctx.games.byId(last.game_id) : undefined
    startSeriesGame(ctx, series, games.length, previous ? previous.turn_length_ms / 3600_000 : 24)
    return true
  })
}

const isOver = (status: string) => status === 'finished' || status === 'abandoned'

/**
 * The GM stops a series, in one transaction (so the clockwork's advanceOne sees it before or not at
 * all). "after-game": the game in progress plays out, then advanceOne stops the series instead of
 * starting the next; until then it holds its place under the limit (bot-limits.ts), as its game
 * still plays. "now": that game is abandoned by the GM console's own abandonGame, whose game-over
 * mail tells its players, and the series stops at once. A series between games stops at once.
 * One whose last game is over is refused (409): it is finished, not stopped.
 */
export function stopSeries(ctx: ServiceContext, seriesId: string, userId: number, when: SeriesStopWhen, reason: string): void {
  ctx.write(() => {
    const series = seriesOfGm(ctx, seriesId, userId)
    if (series.status !== 'running') throw conflict(`the series is ${series.status}`)
    const games = ctx.bots.seriesGames(series.id)
    const last = games.at(-1)
    // Its last game over and the clockwork (advanceOne) not there yet: a series whose games are all
    // played is finished, as it would be a tick later; a stop would record it as cut short.
    if (games.length >= series.games_total && last && isOver(last.status)) throw conflict('the series has already played its last game: it ends as finished')
    if (when === 'after-game' && series.stop_when === 'after-game') throw conflict('the series already stops after the game in progress')
    ctx.bots.askSeriesStop(series.id, when, reason, ctx.now())
    const playing = last && !isOver(last.status) ? last : undefined
    if (playing && when === 'now') {
      abandonGame(ctx, membership(ctx, playing.game_id, { user: ctx.users.byId(userId)! }), `series "${series.name}" stopped: ${reason}`)
    }
    if (!playing || when === 'now') ctx.bots.stopSeries(series.id, ctx.now())
  })
}

/** The series, for its GM: 404 if there is none, 403 for anyone else (a player of one of its games too). */
export function seriesOfGm(ctx: ServiceContext, seriesId: string, userId: number): SeriesRow {
  const series = ctx.bots.series(seriesId)
  if (!series) throw notFound('no such series')
  if (series.gm_user_id !== userId) throw forbidden('only the GM of this series can see it')
  return series
}

/** The series, its games and the standings so far; for its GM only. */
export function seriesView(ctx: ServiceContext, seriesId: string, userId: number) {
  const series = seriesOfGm(ctx, seriesId, userId)
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
    // The GM's stop: "after-game" on a running series is one that stops when its game in progress ends.
    stop: series.stop_when === null ? null : { when: series.stop_when, reason: series.stop_reason ?? '', askedAt: new Date(series.stop_asked_at ?? series.created_at).toISOString() },
    games,
    standings: ranked(standings).map((s) => ({
      entrant: s.entrant, games: s.games, wins: s.wins, averagePlace: s.games ? Math.round((s.placeSum / s.games) * 100) / 100 : null,
      flagsPerGame: s.games ? Math.round((s.flags / s.games) * 100) / 100 : null,
    })),
  }
}
