// The life of a game outside its turns: create, invite, join, start, replace players, and the
// GM's pause/resume/abandon. Each change is one write transaction, mail included.
import { randomBytes, randomInt } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { z } from 'zod'
import { compileBoard, parseBoard } from '../../engine/board.js'
import { newGame } from '../../engine/game.js'
import type { BoardDefinition, RandomState } from '../../engine/types.js'
import { badRequest, conflict, notFound, rateLimited } from '../errors.js'
import { ownSeatLeftMail, seatLeftMail } from '../mail/gm-templates.js'
import { deadlineMovedMail, gameOverMail, invitationMail } from '../mail/templates.js'
import type { GameRow, SeatRow } from '../repositories/games.js'
import { hashSecret, newSecret } from '../repositories/users.js'
import type { createGameRequest } from '../schemas.js'
import { recipients, seatName, type Membership, type ServiceContext } from './context.js'
import { setUpBots } from './bot-seats.js'
import { goneRobotText, playerGone } from './gone-robot.js'
import { dealtState, openTurn } from './deal.js'
import { requireGm } from './membership.js'

const HOUR = 3600_000

interface BoardListing { id: string; name: string; rows: number; cols: number }

/** boards/ read once per folder: it does not change while the server runs (docs/performance.md problem 7). */
const boardListings = new Map<string, BoardListing[]>()

/** The board files of boards/ (ids: their names without .json), in order. */
const boardIds = (ctx: ServiceContext) =>
  !existsSync(ctx.boardsDir) ? [] : readdirSync(ctx.boardsDir).filter((f) => f.endsWith('.json')).sort().map((f) => f.replace(/\.json$/, ''))

export function listBoards(ctx: ServiceContext): BoardListing[] {
  let listing = boardListings.get(ctx.boardsDir)
  if (!listing) {
    listing = boardIds(ctx).flatMap((id) => {
      const found = loadBoardFile(ctx, id)
      return found?.ok ? [{ id, name: found.definition.name, rows: found.definition.rows, cols: found.definition.cols }] : []
    })
    boardListings.set(ctx.boardsDir, listing)
  }
  return listing.map((b) => ({ ...b }))
}

/**
 * The files of boards/ the gallery leaves out, and why: read at start-up and logged (app.ts), so an
 * operator who adds a board with a mistake learns which and what, instead of missing it.
 */
export function boardFileProblems(ctx: ServiceContext): { file: string; problem: string }[] {
  return boardIds(ctx).flatMap((id) => {
    const found = loadBoardFile(ctx, id)
    return found && !found.ok ? [{ file: `${id}.json`, problem: found.problem }] : []
  })
}

/** A board file of boards/, read: its definition and JSON, or why it is no board; null when there is no such file. */
function loadBoardFile(ctx: ServiceContext, id: string): { ok: true; definition: BoardDefinition; file: unknown } | { ok: false; problem: string } | null {
  const path = join(ctx.boardsDir, `${id}.json`)
  if (!existsSync(path)) return null
  let file: unknown
  try {
    file = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    return { ok: false, problem: `not JSON (${(err as Error).message})` }
  }
  const parsed = parseBoard(file)
  return parsed.ok ? { ok: true, definition: parsed.value, file } : { ok: false, problem: parsed.error }
}

/** A board of boards/: its definition and the file's JSON (what a game stores, in the file format). */
function readBoardFile(ctx: ServiceContext, id: string): { definition: BoardDefinition; file: unknown } | null {
  const found = loadBoardFile(ctx, id)
  return found?.ok ? { definition: found.definition, file: found.file } : null
}

/** The longest board name and teleporter colour a game takes (the board files of boards/ are the project's own). */
export const MAX_BOARD_NAME = 100
export const MAX_TELEPORTER_COLOUR = 40

/**
 * FORMAT.md sets no length for a board's name or a teleporter's colour, but a game prints both to
 * people: the name on every page, a colour in the story of every teleport (pages and mail).
 */
function wordTooLong(board: BoardDefinition): string | null {
  if (board.name.length > MAX_BOARD_NAME) return `boardFile.name: at most ${MAX_BOARD_NAME} characters for a game's board`
  const index = board.elements.findIndex((e) => e.type === 'teleporter' && e.colour.length > MAX_TELEPORTER_COLOUR)
  return index < 0 ? null : `boardFile.elements[${index}].colour: at most ${MAX_TELEPORTER_COLOUR} characters for a game's board`
}

type GameSettings = z.output<typeof createGameRequest>
type Defaulted = 'pathPreview' | 'reminderHours' | 'replyFromAnyAddress'
/**
 * Settings with defaults may be left out (as in the API): scripts and older callers do not name
 * them. Path preview on; reminder 12 hours before the deadline; replies from the player's address only.
 */
export function createGame(ctx: ServiceContext, gmUserId: number, input: Omit<GameSettings, Defaulted> & Partial<Pick<GameSettings, Defaulted>>): GameRow {
  let board: BoardDefinition
  let file: unknown
  if ((input.board === undefined) === (input.boardFile === undefined)) throw badRequest('give either board or boardFile', 'board')
  if (input.board !== undefined) {
    const found = readBoardFile(ctx, input.board)
    if (!found) throw badRequest(`no board "${input.board}" in boards/`, 'board')
    board = found.definition
    file = found.file
  } else {
    const parsed = parseBoard(input.boardFile, ['boardFile'])
    if (!parsed.ok) throw badRequest(parsed.error, 'boardFile')
    board = parsed.value
    file = input.boardFile
    const tooLong = wordTooLong(board)
    if (tooLong) throw badRequest(tooLong, 'boardFile')
    // A game is won by tagging every flag (R34); a board without flags could only end by elimination.
    if (compileBoard(board).flagCount === 0) throw badRequest('boardFile: a board for a game needs at least one flag', 'boardFile')
  }
  if (input.gmPlays && !input.gmColour) throw badRequest('a GM who plays needs a robot colour', 'gmColour')
  return ctx.write(() => {
    const now = ctx.now()
    const id = randomBytes(6).toString('base64url')
    ctx.games.insert({
      id, name: input.name, board_name: board.name, board_json: JSON.stringify(file), gm_user_id: gmUserId,
      seat_count: input.seats, turn_length_ms: Math.round(input.turnLengthHours * HOUR),
      review_window_ms: Math.round(input.reviewWindowHours * HOUR), close_early: input.closeEarly ? 1 : 0, path_preview: input.pathPreview === false ? 0 : 1,
      gm_plays: input.gmPlays ? 1 : 0, reminder_before_ms: Math.round((input.reminderHours ?? 12) * HOUR), reply_from_any: input.replyFromAnyAddress ? 1 : 0,
      seed: ctx.newSeed?.() ?? randomInt(0, 2 ** 31 - 1), public_token: newSecret(), created_at: now,
    })
    ctx.gm.setSettings(id, {
      turnLimit: input.turnLimit ?? null, stalemateTurns: input.stalemateTurns ?? null,
      tableTalk: input.tableTalk ?? false, goneRobot: input.goneRobot ?? 'random', goneRobotBot: input.goneRobotBot ?? 'greedy',
    })
    for (let seat = 1; seat <= input.seats; seat++) ctx.games.insertSeat(id, seat)
    if (input.gmPlays) {
      const gm = ctx.users.byId(gmUserId)!
      ctx.games.join(ctx.games.seats(id)[0]!.id, gmUserId, input.gmName ?? gm.name, input.gmColour!, now)
    }
    setUpBots(ctx, id, input.bots, input.missedProgramBot ?? null)
    ctx.games.logAction(id, now, 'create', '', { board: board.name, seats: input.seats })
    return ctx.games.byId(id)!
  })
}

function ensureNotOver(game: GameRow): void {
  if (game.status === 'finished' || game.status === 'abandoned') throw conflict(`the game is ${game.status}`)
}

export function invite(ctx: ServiceContext, m: Membership, email: string, seatNo: number | undefined): { seat: number } {
  requireGm(m)
  ensureNotOver(m.game)
  return ctx.write(() => {
    const seats = ctx.games.seats(m.game.id)
    const free = seats.filter((s) => !s.bot) // a bot's seat is taken (issue 15)
    const seat = seatNo === undefined ? free.find((s) => s.user_id === null && !s.invite_email) ?? free.find((s) => s.user_id === null) : seats.find((s) => s.seat_no === seatNo)
    if (!seat) throw seatNo === undefined ? conflict('every seat is taken') : badRequest(`no seat ${seatNo}`, 'seat')
    if (seat.user_id !== null || seat.bot) throw conflict(`seat ${seat.seat_no} is taken; remove or replace its player first`, 'seat')
    sendInvite(ctx, m.game, seat.id, seat.seat_no, email)
    ctx.games.logAction(m.game.id, ctx.now(), 'invite', '', { seat: seat.seat_no, email })
    return { seat: seat.seat_no }
  })
}

/** Invitations to one address per hour, from every game together: a GM cannot bomb an address with them. */
export const INVITATIONS_PER_HOUR = 5

/** Whether `seat` is empty and holds an invitation to `email`. */
const invitedTo = (seat: SeatRow, email: string) => seat.user_id === null && seat.invite_email?.toLowerCase() === email.toLowerCase()
const alreadyInvited = (email: string, seatNo: number) => conflict(`${email} is already invited to seat ${seatNo}: that invitation stands (to send a new link, remove it first)`, 'email')

function sendInvite(ctx: ServiceContext, game: GameRow, seatId: number, seatNo: number, email: string): void {
  // One open invitation per address and game. A second would reserve a second seat for one person,
  // or (to the same seat) make a new link and kill the one already mailed: what a form sent twice
  // (a double click, two tabs) did.
  const invited = ctx.games.seats(game.id).find((s) => invitedTo(s, email))
  if (invited) throw alreadyInvited(email, invited.seat_no)
  if (ctx.outbox.countTo(email, 'invitation', ctx.now() - HOUR) >= INVITATIONS_PER_HOUR) {
    throw rateLimited(`${INVITATIONS_PER_HOUR} invitations went to this address in the last hour; try again later`)
  }
  const token = newSecret()
  ctx.games.invite(seatId, email, hashSecret(token))
  const gm = ctx.users.byId(game.gm_user_id)!
  ctx.mail({ kind: 'invitation', gameId: game.id, to: email, ...invitationMail(game.name, gm.name, seatNo, ctx.link(`/invites/${token}`)) })
}

export function invitation(ctx: ServiceContext, token: string) {
  const seat = ctx.games.seatByInvite(hashSecret(token))
  const game = seat && ctx.games.byId(seat.game_id)
  if (!seat || !game || seat.user_id !== null) throw notFound('this invitation is unknown or already used')
  return { seat, game }
}

export function joinGame(ctx: ServiceContext, userId: number, token: string, name: string, colour: string) {
  return ctx.write(() => {
    const { seat, game } = invitation(ctx, token)
    ensureNotOver(game)
    const seats = ctx.games.seats(game.id)
    if (seats.some((s) => s.user_id === userId)) throw conflict('you already have a seat in this game')
    // A GM sees every program of a game they do not play in: taking a seat mid-game would play with them in view.
    if (game.gm_user_id === userId && game.status !== 'setup') throw conflict('the GM can take a seat only before the game starts')
    if (seats.some((s) => s.user_id !== null && s.colour === colour)) throw conflict(`another robot is already ${colour}`, 'colour')
    if (ctx.games.join(seat.id, userId, name, colour, ctx.now()) !== 1) throw conflict('this seat was just taken')
    return { gameId: game.id, seat: seat.seat_no, player: seat.player_id }
  })
}

/** A game needs someone to race against. */
export const MIN_PLAYERS = 2

/**
 * Where a game's generator starts, which deals every hand of the game. 128 random bits: from the
 * 31-bit seed alone, a player who knows their own first hand could try every seed until one deals
 * it (hours on one core, within a turn's deadline) and then read every other hand as it is dealt
 * (test/security/deal-from-own-hand.test.ts). A seed the context fixes (tests that replay a game)
 * starts it as before.
 */
function generatorStart(ctx: ServiceContext, game: GameRow): number | RandomState {
  if (ctx.newSeed) return game.seed
  for (;;) {
    const bytes = randomBytes(16)
    const state = [0, 4, 8, 12].map((at) => bytes.readInt32LE(at))
    // xoroshiro128+ stays at zero from an all-zero state.
    if (state.some((half) => half !== 0)) return state
  }
}

export function startGame(ctx: ServiceContext, m: Membership, reason: string): void {
  requireGm(m)
  ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    if (game.status !== 'setup') throw conflict('the game has already started')
    const seats = ctx.games.seats(game.id)
    const joined = seats.filter((s) => s.user_id !== null || s.bot)
    if (joined.length < MIN_PLAYERS) throw conflict(`at least ${MIN_PLAYERS} players must have joined to start (${joined.length} so far)`)
    // Whoever has not joined by the start misses this game: waiting for one absent invitee would
    // hold everyone else up. Their seats (and the invitations to them) are closed.
    const empty = seats.filter((s) => s.user_id === null && !s.bot)
    if (empty.length) {
      ctx.games.closeEmptySeats(game.id)
      ctx.games.setSeatCount(game.id, joined.length)
    }
    // R25: robots are placed on the start square, virtual, before turn 1.
    const state = newGame(ctx.board(game), joined.map((s) => s.player_id), generatorStart(ctx, game))
    ctx.games.start(game.id, JSON.stringify(state), ctx.now())
    ctx.games.logAction(game.id, ctx.now(), 'start', reason, empty.length ? { closedSeats: empty.map((s) => s.seat_no) } : {})
    openTurn(ctx, ctx.games.byId(game.id)!, state)
  })
}

/**
 * Empties a seat. A replaced player's robot goes to the newcomer; a removed player's robot does
 * what the game chose (services/gone-robot.ts), and the table and the player are mailed.
 */
export function removePlayer(ctx: ServiceContext, m: Membership, seatNo: number, reason: string, replacement?: string): void {
  requireGm(m)
  ensureNotOver(m.game)
  ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    const seat = ctx.games.seats(game.id).find((s) => s.seat_no === seatNo)
    if (!seat) throw notFound(`no seat ${seatNo}`)
    if (seat.user_id === null && !seat.invite_email) throw conflict(`seat ${seatNo} is already empty`)
    if (seat.user_id === game.gm_user_id && game.status !== 'setup') throw conflict('you play in this game: your own seat stays yours until the game ends')
    // Replacing with the address already invited there (the form sent twice) would only kill the link mailed.
    if (replacement !== undefined && invitedTo(seat, replacement)) throw alreadyInvited(replacement, seatNo)
    const everyone = recipients(ctx, game)
    playerGone(ctx, game, seat, replacement !== undefined)
    ctx.games.logAction(game.id, ctx.now(), replacement ? 'replace' : 'remove', reason, { seat: seatNo, player: seatName(seat), ...(replacement ? { invited: replacement } : {}) })
    if (replacement) sendInvite(ctx, game, seat.id, seat.seat_no, replacement)
    else if (seat.user_id !== null && game.status !== 'setup') {
      const robot = goneRobotText(game)
      for (const to of everyone) {
        ctx.mail({
          kind: 'seat-left', gameId: game.id, to,
          ...(to === seat.email?.toLowerCase()
            ? ownSeatLeftMail(game.name, true, reason, goneRobotText(game, true), ctx.link('/'))
            : seatLeftMail(game.name, seatName(seat), `was removed from the game by the GM${reason ? `: ${reason}` : ''}`, robot, ctx.link(`/games/${game.id}`))),
        })
      }
    }
  })
}

export function pauseGame(ctx: ServiceContext, m: Membership, reason: string): void {
  requireGm(m)
  ctx.write(() => {
    if (ctx.games.byId(m.game.id)!.status !== 'running') throw conflict('only a running game can be paused')
    ctx.games.setStatus(m.game.id, 'paused', ctx.now())
    ctx.games.logAction(m.game.id, ctx.now(), 'pause', reason)
  })
}

/** Resuming gives back the time the game was paused: the deadline or review window moves on by it. */
export function resumeGame(ctx: ServiceContext, m: Membership, reason: string): void {
  requireGm(m)
  ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    if (game.status !== 'paused') throw conflict('the game is not paused')
    const pausedFor = Math.max(0, ctx.now() - (game.paused_at ?? ctx.now()))
    const turn = ctx.turns.current(game.id)
    if (turn?.status === 'open') ctx.turns.setDeadline(turn.id, turn.deadline + pausedFor, turn.reminder_queued === 1)
    if (turn?.status === 'draft' && turn.review_until !== null) ctx.turns.setReviewUntil(turn.id, turn.review_until + pausedFor)
    ctx.games.setStatus(game.id, 'running')
    ctx.games.logAction(game.id, ctx.now(), 'resume', reason, { pausedForMs: pausedFor })
  })
}

export function abandonGame(ctx: ServiceContext, m: Membership, reason: string): void {
  requireGm(m)
  ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    ensureNotOver(game)
    ctx.games.finish(game.id, [], 'abandoned', ctx.now())
    ctx.games.logAction(game.id, ctx.now(), 'abandon', reason)
    for (const to of recipients(ctx, game)) {
      ctx.mail({ kind: 'game-over', gameId: game.id, to, ...gameOverMail(game.name, [], reason || '(no reason given)', ctx.link(`/games/${game.id}`)) })
    }
  })
}

export function extendDeadline(ctx: ServiceContext, m: Membership, deadline: number, reason: string): number {
  requireGm(m)
  return ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    ensureNotOver(game) // its last turn stays as it was: nothing to move, nobody to mail
    const turn = ctx.turns.current(m.game.id)
    if (!turn || turn.status !== 'open') throw conflict('no turn is open')
    if (deadline <= ctx.now()) throw badRequest('the new deadline must be in the future', 'deadline')
    ctx.turns.setDeadline(turn.id, deadline, turn.reminder_queued === 1 && deadline - m.game.reminder_before_ms <= ctx.now())
    // A deadline set while the game is paused is mailed as it is set, so it stands as set: resuming
    // moves a deadline on by the time since paused_at (resumeGame), and a pause with no paused_at
    // moves nothing. Submissions in the pause are then judged by the clock, against this deadline.
    if (game.status === 'paused') ctx.games.setStatus(game.id, 'paused', null)
    ctx.games.logAction(m.game.id, ctx.now(), 'deadline', reason, { turn: turn.number, from: new Date(turn.deadline).toISOString(), to: new Date(deadline).toISOString() })
    // Players plan around the deadline they were mailed, so a moved one is mailed too.
    // Those with a robot in the turn are sent to their program; the GM who does not play and a
    // player who is out, to the game (the program form is not theirs).
    const link = ctx.link(`/games/${m.game.id}/turns/${turn.number}/submit`)
    const dealt = dealtState(turn)
    const playing = new Set(ctx.games.seats(m.game.id)
      .filter((s) => s.email && dealt.robots.some((r) => r.player === s.player_id && r.robotsLeft > 0)).map((s) => s.email!.toLowerCase()))
    for (const to of recipients(ctx, m.game)) {
      ctx.mail({ kind: 'deadline', gameId: m.game.id, to, restsOnTurn: turn.number - 1, ...deadlineMovedMail(m.game.name, turn.number, deadline, reason, playing.has(to) ? link : null, ctx.link(`/games/${m.game.id}`)) })
    }
    return deadline
  })
}
