// What each viewer may see. Secrecy lives here and only here: before publication a player sees
// only their own hand and program, others only whether each player has submitted; a GM who plays
// sees the others' programs once their own is locked (lock.ts); spectators see published turns only.
// Nothing here ever sends a stored dealt state (it holds every hand) or the generator state.
import { formatCard } from '../../engine/deck.js'
import { turnTables, renderTurnReport } from '../../engine/report.js'
import type { TurnResult } from '../../engine/turn.js'
import type { Card, GameState, RobotState } from '../../engine/types.js'
import { notFound } from '../errors.js'
import type { GameRow, SeatRow } from '../repositories/games.js'
import type { SubmissionRow, TurnRow } from '../repositories/turns.js'
import { reportNames, type Membership, type ServiceContext } from './context.js'
import { dealtState } from './deal.js'
import { gmSeesTurn } from './lock.js'
import { gmPlays } from './membership.js'
import { correctionsOf } from './corrections.js'
import { withdrawnList } from './rollback.js'
import { settingsView } from './seats.js'
import { turnVersion } from './turn-version.js'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())
const cards = (list: readonly (Card | null)[]) => list.map((c) => (c ? formatCard(c) : null))

function publicRobot(robot: RobotState) {
  const { rebootNext: _hiddenUntilPublished, ...rest } = robot
  return { ...rest, fused: Object.fromEntries(Object.entries(robot.fused).map(([k, c]) => [k, c ? formatCard(c) : null])) }
}

function seatView(seat: SeatRow, showEmail: boolean) {
  return {
    seat: seat.seat_no, player: seat.player_id, name: seat.name, colour: seat.colour, joined: seat.user_id !== null || !!seat.bot, bot: seat.bot ?? null,
    ...(showEmail ? { email: seat.email ?? null, invited: seat.invite_email } : {}),
  }
}

export function submissionView(row: SubmissionRow) {
  return {
    version: row.version, cards: JSON.parse(row.cards_json) as string[], rebootNext: row.reboot_next === 1,
    sacrificeAt: row.sacrifice_at, doubleWrench: row.double_wrench, facing: row.facing, submittedAt: iso(row.submitted_at),
  }
}

function resultView(ctx: ServiceContext, game: GameRow, seats: SeatRow[], resultJson: string) {
  const result = JSON.parse(resultJson) as TurnResult
  const options = reportNames(seats)
  const board = ctx.board(game)
  return {
    turn: result.turn,
    registers: Object.fromEntries(Object.entries(result.registers).map(([p, list]) => [p, cards(list)])),
    start: result.start,
    stages: result.stages,
    end: { events: result.end.events, robots: result.end.robots.map(publicRobot) },
    gameOver: result.state.gameOver,
    winners: result.state.winners,
    tables: turnTables(board, result, options),
    report: renderTurnReport(board, result, options),
  }
}

export function turnView(ctx: ServiceContext, m: Membership, turn: TurnRow) {
  const published = turn.status === 'published'
  const latest = ctx.turns.latestSubmissions(turn.id)
  const submitted = new Set(latest.map((s) => s.player_id))
  const dealt = dealtState(turn)
  const mine = m.seat?.player_id
  const allPrograms = published || gmSeesTurn(m, turn)
  const locked = gmPlays(m) && turn.gm_locked_at !== null
  const resultVisible = turn.result_json !== null && (published || (turn.status === 'draft' && gmSeesTurn(m, turn)))
  const myRobot = mine ? dealt.robots.find((r) => r.player === mine) : undefined
  return {
    number: turn.number,
    status: turn.status,
    openedAt: iso(turn.opened_at),
    deadline: iso(turn.deadline),
    closedAt: iso(turn.closed_at),
    reviewUntil: iso(turn.review_until),
    publishedAt: iso(turn.published_at),
    reopenedPlayer: turn.reopened_player_id,
    /** A GM who plays has locked their program (or the turn closed): from now on it is final. */
    gmLocked: turn.gm_locked_at !== null,
    submitted: m.seats.map((s) => ({ player: s.player_id, name: s.name, submitted: submitted.has(s.player_id) })),
    me: mine && myRobot ? {
      player: mine,
      robot: publicRobot(myRobot),
      rebootNextDeclared: myRobot.rebootNext,
      hand: cards(dealt.hands[mine] ?? []),
      submission: latest.find((s) => s.player_id === mine) ? submissionView(latest.find((s) => s.player_id === mine)!) : null,
      canSubmit: !locked && (turn.status === 'open' || turn.reopened_player_id === mine),
      locked,
    } : null,
    programs: allPrograms ? Object.fromEntries(latest.map((s) => [s.player_id, submissionView(s)])) : null,
    result: resultVisible ? resultView(ctx, m.game, m.seats, turn.result_json!) : null,
    // Issue 12: the GM's corrections, where the result may be seen (they name programs).
    corrections: resultVisible ? correctionsOf(ctx, m.game.id, turn.id) : [],
  }
}

/** One page of the version history: versions `from`..`from + limit - 1` of each player the viewer may see, and whether any has more. */
export function submissionHistory(ctx: ServiceContext, m: Membership, turn: TurnRow, from: number, limit: number) {
  const visible = turn.status === 'published' || gmSeesTurn(m, turn)
  const players = visible ? m.seats.map((s) => s.player_id) : m.seat ? [m.seat.player_id] : []
  let more = false
  const submissions = Object.fromEntries(players.map((p) => {
    const rows = ctx.turns.submissionVersions(turn.id, p, from, limit + 1)
    if (rows.length > limit) more = true
    return [p, rows.slice(0, limit).map(submissionView)]
  }))
  return { submissions, more }
}

/**
 * Whether the GM plays: the setting at creation, or a seat the GM took later by invitation or an
 * open seat. Players are told the truth either way (the lock and the corrections go by the seat).
 */
const gmHoldsSeat = (game: GameRow, seats: readonly SeatRow[]) => game.gm_plays === 1 || seats.some((s) => s.user_id === game.gm_user_id)

function gameSummary(ctx: ServiceContext, game: GameRow, seats: SeatRow[], showEmails: boolean) {
  const state = game.state_json ? (JSON.parse(game.state_json) as GameState) : null
  const gm = ctx.users.byId(game.gm_user_id)
  const { names } = reportNames(seats)
  return {
    id: game.id,
    name: game.name,
    status: game.status,
    gm: gm?.name ?? null,
    board: JSON.parse(game.board_json) as unknown,
    settings: {
      seats: game.seat_count, turnLengthHours: game.turn_length_ms / 3600_000, reviewWindowHours: game.review_window_ms / 3600_000,
      closeEarly: game.close_early === 1, gmPlays: gmHoldsSeat(game, seats), pathPreview: game.path_preview === 1,
      reminderHours: game.reminder_before_ms / 3600_000, replyFromAnyAddress: game.reply_from_any === 1,
    },
    seats: seats.map((s) => seatView(s, showEmails)),
    robots: state ? state.robots.map(publicRobot) : [],
    boardState: state?.board ?? null,
    winners: game.winners_json ? (JSON.parse(game.winners_json) as string[]).map((p) => ({ player: p, name: names[p] ?? p })) : [],
    createdAt: iso(game.created_at), startedAt: iso(game.started_at), endedAt: iso(game.ended_at),
    publishedTurns: ctx.turns.publishedNumbers(game.id),
    gameSettings: settingsView(game),
    endReason: game.end_reason,
    withdrawnReports: withdrawnList(ctx, game.id),
  }
}

export function gameView(ctx: ServiceContext, m: Membership) {
  const current = ctx.turns.current(m.game.id)
  return {
    ...gameSummary(ctx, m.game, m.seats, m.isGm),
    you: { isGm: m.isGm, seat: m.seat?.seat_no ?? null, player: m.seat?.player_id ?? null },
    publicLink: ctx.link(`/watch/${m.game.public_token}`),
    publicToken: m.game.public_token,
    currentTurn: current ? turnView(ctx, m, current) : null,
    currentTurnVersion: turnVersion(current),
  }
}

/** The keys of a GM action's detail that hold an email address (invite: `email`, replace: `invited`). */
const EMAIL_KEYS = new Set(['email', 'invited'])

/**
 * GM actions on the programs of a turn (`detail.turn`), that tell whose program is in, was reopened
 * or corrected, and why: a playing GM's lock, a reopen, a correction, a re-resolve of the draft.
 * Until that turn is published they reach only the GM and the player the action names (a reopen or
 * a correction of their own program, which they are mailed anyway); spectators and the other players
 * see them once the turn is published, like the programs themselves.
 */
const PROGRAM_ACTIONS = new Set(['lock', 'reopen', 'correct', 'resolve'])

export interface HistoryReader {
  /** The GM of the game: every address and every action. */
  isGm: boolean
  /** The reader's own address, shown to them where an action names it. */
  ownEmail?: string | null
  /** The reader's seat, whose own program's actions they see before publication. */
  player?: string | null
}

/**
 * The GM's actions. An address in them reaches only the GM and its owner; an action on the
 * programs of a turn not published yet, only the GM and the player it names (PROGRAM_ACTIONS).
 */
export function historyView(ctx: ServiceContext, game: GameRow, reader: HistoryReader) {
  const own = reader.ownEmail?.toLowerCase()
  const shows = (key: string, value: unknown) =>
    !EMAIL_KEYS.has(key) || reader.isGm || (own !== undefined && typeof value === 'string' && value.toLowerCase() === own)
  const published = new Set(ctx.turns.publishedNumbers(game.id))
  const readerMaySee = (action: string, detail: Record<string, unknown>) =>
    reader.isGm || !PROGRAM_ACTIONS.has(action) || published.has(detail.turn as number)
    || (reader.player != null && detail.player === reader.player)
  return ctx.games.actions(game.id).flatMap((a) => {
    const detail = JSON.parse(a.detail_json) as Record<string, unknown>
    if (!readerMaySee(a.action, detail)) return []
    const shown = Object.fromEntries(Object.entries(detail).filter(([key, value]) => shows(key, value)))
    return [{ at: iso(a.at), action: a.action, reason: a.reason, detail: shown }]
  })
}

/** Spectators: the game and its published turns, nothing more. */
export function spectatorGameView(ctx: ServiceContext, publicToken: string) {
  const game = ctx.games.byPublicToken(publicToken)
  if (!game) throw notFound('no such game')
  const current = ctx.turns.current(game.id)
  return {
    ...gameSummary(ctx, game, ctx.games.seats(game.id), false),
    currentTurn: current ? { number: current.number, status: current.status, deadline: iso(current.deadline) } : null,
    history: historyView(ctx, game, { isGm: false }),
  }
}

export function spectatorTurnView(ctx: ServiceContext, publicToken: string, number: number) {
  const game = ctx.games.byPublicToken(publicToken)
  const turn = game && ctx.turns.byNumber(game.id, number)
  if (!game || !turn || turn.status !== 'published') throw notFound(`no published turn ${number}`)
  const latest = ctx.turns.latestSubmissions(turn.id)
  return {
    number: turn.number, status: turn.status, deadline: iso(turn.deadline), publishedAt: iso(turn.published_at),
    programs: Object.fromEntries(latest.map((s) => [s.player_id, submissionView(s)])),
    result: resultView(ctx, game, ctx.games.seats(game.id), turn.result_json!),
    corrections: correctionsOf(ctx, game.id, turn.id),
  }
}
