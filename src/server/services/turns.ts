// A turn's life: dealt and opened, programs submitted, closed exactly once into a draft, reviewed
// (reopen one program, re-resolve), published; then the next turn is dealt or the game ends (R34).
import type { z } from 'zod'
import { formatCard, parseCard } from '../../engine/deck.js'
import { programProblemAt } from '../../engine/program.js'
import { turnStory } from '../../render/story.js'
import type { TurnResult } from '../../engine/turn.js'
import type { Card, GameState } from '../../engine/types.js'
import { AppError, badRequest, conflict, forbidden, notFound } from '../errors.js'
import { draftReadyMail, reopenedMail } from '../mail/templates.js'
import { queueReminder, type Published } from '../mail/turn-queue.js'
import type { GameRow } from '../repositories/games.js'
import type { SubmissionRow, TurnRow } from '../repositories/turns.js'
import type { submissionRequest } from '../schemas.js'
import { reportNames, type Membership, type ServiceContext, type Viewer } from './context.js'
import { dealtState, mustSubmit, openTurn, submitPath } from './deal.js'
import { requireGm } from './membership.js'
import { missedProgramFill, playMissingBots } from './bot-seats.js'
import { correctionsOf } from './corrections.js'
import { invalidatePublishedTurn } from './published-turns.js'
import { lruMap } from './lru.js'
import { programOf, resolveFromSubmissions, type Program } from './resolve.js'
import { afterPublished, finishWithPlacings, recordOuts } from './standings.js'
import { checkedViewer } from './auth.js'
import { everyProgramIn, markIfEveryProgramIn } from './programs-in.js'

export function latestPrograms(ctx: ServiceContext, turnId: number): Map<string, Program> {
  return new Map(ctx.turns.latestSubmissions(turnId).map((row) => [row.player_id, programOf(row)]))
}

/** Whether every program the turn waits for is in (programs-in.ts). */
export function allProgramsIn(ctx: ServiceContext, turn: TurnRow): boolean {
  return everyProgramIn(ctx, turn.game_id, turn.id, dealtState(turn))
}

/**
 * Dealt states parsed for submissions, by turn: a dealt state never changes once the turn is
 * stored, so each is parsed once instead of on every submission. Read-only (never handed to the
 * engine, which gets its own parse). Kept by turn id (a number: no key to build and hash per
 * submission) with the turn's game, number and opening time, which must match as well, so a turn
 * id reused after a deletion cannot match. Bounded: 2,000 states (at most about 13 MiB for 8
 * players), least recently used out first.
 */
const DEALT_CACHE_SIZE = 2000
const dealtCache = lruMap<number, { gameId: string; number: number; openedAt: number; state: GameState }>(DEALT_CACHE_SIZE)

function sharedDealtState(ctx: ServiceContext, gameId: string, turnId: number, number: number, openedAt: number): GameState {
  const kept = dealtCache.get(turnId)
  if (kept && kept.gameId === gameId && kept.number === number && kept.openedAt === openedAt) return kept.state
  const state = JSON.parse(ctx.turns.dealtStateJson(turnId)!) as GameState
  dealtCache.set(turnId, { gameId, number, openedAt, state })
  return state
}

/**
 * Stores a new version of the viewer's program for a turn, checked against their hand (R8). Who
 * may submit is checked here, inside the write transaction, from one read of the game, the seat,
 * the turn and the previous version: a refused submission changes nothing.
 */
export function submitProgram(ctx: ServiceContext, viewer: Viewer, gameId: string, turnNumber: number, input: SubmissionInput): SubmissionRow {
  const { stored, practice, keep } = ctx.write(storeProgram(ctx, viewer, gameId, turnNumber, input))
  // Committed, unless this ran inside an outer transaction: keep checks (submission-context.ts).
  keep?.()
  if (practice) closePracticeTurn(ctx, gameId, turnNumber)
  return stored
}

/** The same, in a transaction shared with other submissions arriving at once (group-commit.ts). */
export async function submitProgramSoon(ctx: ServiceContext, viewer: Viewer, gameId: string, turnNumber: number, input: SubmissionInput): Promise<SubmissionRow> {
  const { stored, practice, keep } = await ctx.writeSoon(storeProgram(ctx, viewer, gameId, turnNumber, input))
  // The shared COMMIT has returned: the place read for this submission may be kept.
  keep?.()
  if (practice) closePracticeTurn(ctx, gameId, turnNumber)
  return stored
}

/**
 * After a submission to a practice game (read with the submission, so other games pay no query for
 * it): its turn closes (and the next is dealt) as soon as every program is in (issue 15).
 */
function closePracticeTurn(ctx: ServiceContext, gameId: string, turnNumber: number): void {
  const turn = ctx.turns.byNumber(gameId, turnNumber)
  if (turn?.status === 'open' && turn.programs_in === 1) closeTurn(ctx, turn.id)
}

type SubmissionInput = z.output<typeof submissionRequest>

/** Versions of one player's program per turn at most: enough to change one's mind, not to flood the server. */
export const MAX_VERSIONS = 100

/** The work of a submission, to be run inside a write transaction. */
function storeProgram(ctx: ServiceContext, viewer: Viewer, gameId: string, turnNumber: number, input: SubmissionInput): () => { stored: SubmissionRow; practice: boolean; keep: (() => void) | null } {
  return () => {
    // An API token is checked here, in the transaction that stores the program (checkedViewer).
    const who = checkedViewer(ctx, viewer)
    const userId = who.user?.id
    if (userId === undefined || (who.tokenGameId !== undefined && who.tokenGameId !== gameId)) throw notFound('no such game')
    const read = ctx.submissionContexts.read(gameId, userId, turnNumber)
    if (!read) throw notFound('no such game')
    const c = read.context
    if (c.player_id === null && c.gm_user_id !== userId) throw notFound('no such game')
    if (c.player_id === null) throw forbidden('you have no seat in this game')
    const playerId = c.player_id
    if (c.game_status !== 'running' && c.game_status !== 'paused') throw conflict(`the game is ${c.game_status}`)
    if (c.turn_id === null || c.turn_status === null) throw notFound(`no turn ${turnNumber}`)
    const reopened = c.turn_status === 'draft' && c.reopened_player_id === playerId
    if (c.turn_status !== 'open' && !reopened) throw conflict(`turn ${turnNumber} is closed; your previous submission stands`)
    // BotWars rules: a GM who plays completes their program first; once locked it is final (lock.ts).
    if (c.gm_locked_at !== null && c.user_id === c.gm_user_id) throw conflict(`your program for turn ${turnNumber} is locked: it became final before you saw the others'`)
    // The deadline counts when the program arrives, not when the clockwork next looks (it ticks
    // every few seconds). A paused game's clock stopped when it was paused.
    const clock = c.game_status === 'paused' ? c.paused_at ?? ctx.now() : ctx.now()
    if (c.turn_status === 'open' && clock >= c.deadline!) throw conflict(`the deadline of turn ${turnNumber} has passed; your previous submission stands`)
    if ((c.previous_version ?? 0) >= MAX_VERSIONS) {
      throw new AppError(409, 'too_many_versions', `you have sent ${MAX_VERSIONS} versions of your program for turn ${turnNumber}, the most a turn takes; version ${MAX_VERSIONS} stands`)
    }
    const dealt = sharedDealtState(ctx, gameId, c.turn_id, turnNumber, c.opened_at!)
    const robot = dealt.robots.find((r) => r.player === playerId)
    if (!robot) throw conflict('your seat has no robot')
    const cards: Card[] = input.cards.map((text, i) => {
      const card = parseCard(text.trim().toUpperCase())
      if (!card) throw badRequest(`cards[${i}]: "${text}" is not a card like FWD2:700`, `cards[${i}]`)
      return card
    })
    const problem = programProblemAt(robot, dealt.hands[playerId] ?? [], cards)
    // The field names the card at fault as a malformed one is named (cards[0] is the first), or the whole program.
    if (problem) throw badRequest(problem.message, problem.card === null ? 'cards' : `cards[${problem.card}]`)
    const stored = ctx.turns.insertSubmission({
      turn_id: c.turn_id, player_id: playerId, user_id: c.user_id, version: (c.previous_version ?? 0) + 1,
      cards_json: JSON.stringify(cards.map(formatCard)),
      reboot_next: input.rebootNext ? 1 : 0,
      sacrifice_at: input.sacrificeAt ?? c.previous_sacrifice_at ?? robot.sacrificeAt,
      double_wrench: input.doubleWrench ?? c.previous_double_wrench ?? robot.doubleWrench,
      facing: input.facing ?? null, submitted_at: ctx.now(),
    })
    if (c.turn_status === 'open' && c.programs_in === 0 && c.previous_version === null) markIfEveryProgramIn(ctx, gameId, c.turn_id, dealt)
    return { stored, practice: c.practice === 1, keep: read.keep }
  }
}

/** Resolves a draft from its dealt state and the latest programs and stores the result. */
export function resolveDraft(ctx: ServiceContext, game: GameRow, turn: TurnRow): TurnResult {
  const { result, next } = resolveFromSubmissions(ctx.board(game), dealtState(turn), latestPrograms(ctx, turn.id), missedProgramFill(ctx, game, turn.id))
  if (!ctx.turns.storeResult(turn.id, JSON.stringify(result), JSON.stringify(next))) throw new Error(`turn ${turn.id} is not a draft`)
  return result
}

/**
 * What the GM's draft mail tells of the turn: the story, a line a robot, in words. The stage tables
 * are the review page's: a mail would fold their rows, wider than a terminal, or fold their columns in HTML.
 */
function draftSummary(ctx: ServiceContext, game: GameRow, result: TurnResult): string {
  const { names } = reportNames(ctx.games.seats(game.id))
  return [
    `Turn ${result.turn} on ${ctx.board(game).name}`, '', 'What happened:',
    ...turnStory(result, names).map((line) => `  ${line.name}: ${line.text}`), '',
    'The stage-by-stage tables are on the review page.', '',
  ].join('\n')
}

/**
 * Closes an open turn: exactly once, whoever calls (the UPDATE from 'open' succeeds for one
 * caller only). Fills the missing programs (R9), resolves, stores the draft and queues its mail
 * in the same transaction; with no review window, publishes in it too.
 */
export function closeTurn(ctx: ServiceContext, turnId: number): boolean {
  return ctx.write(() => {
    const before = ctx.turns.byId(turnId)
    const game = before && ctx.games.byId(before.game_id)
    if (!before || !game || game.status !== 'running') return false
    const now = ctx.now()
    if (!ctx.turns.markDraft(turnId, now, now + game.review_window_ms)) return false
    const turn = ctx.turns.byId(turnId)!
    playMissingBots(ctx, game, turn, dealtState(turn))
    const result = resolveDraft(ctx, game, turn)
    ctx.crash('close-turn')
    if (game.review_window_ms === 0) {
      publishDraft(ctx, game, turnId)
    } else {
      const gm = ctx.users.byId(game.gm_user_id)!
      ctx.mail({
        kind: 'draft-ready', gameId: game.id, to: gm.email, restsOnTurn: turn.number - 1,
        ...draftReadyMail(game.name, turn.number, now + game.review_window_ms, draftSummary(ctx, game, result), ctx.link(`/games/${game.id}/turns/${turn.number}`)),
      })
    }
    return true
  })
}

/** Publishes a draft (re-resolving first if a reopened program may have changed), then deals the next turn or ends the game. */
function publishDraft(ctx: ServiceContext, game: GameRow, turnId: number): boolean {
  let turn = ctx.turns.byId(turnId)!
  if (turn.status !== 'draft') return false
  if (turn.reopened_player_id !== null || turn.result_json === null) {
    resolveDraft(ctx, game, turn)
    turn = ctx.turns.byId(turnId)!
  }
  const now = ctx.now()
  if (!ctx.turns.markPublished(turnId, now)) return false
  // The missed-program bot's fallbacks are needed no more, and kept no longer (missed-program-plans.ts).
  ctx.bots.dropFallbacks(turnId)
  const result = JSON.parse(turn.result_json!) as TurnResult
  const next = JSON.parse(turn.next_state_json!) as GameState
  ctx.games.setState(game.id, JSON.stringify(next))
  // One mail per reader for the whole turn (issue 14): its story, picture and corrections (issue
  // 12) come in the next turn's mail, or in the results-only / final mail when there is no next hand.
  const published: Published = { number: turn.number, result, corrections: correctionsOf(ctx, game.id, turn.id) }
  invalidatePublishedTurn(game.id, turn.number)
  if (next.gameOver) {
    recordOuts(ctx, game.id, turn.number, dealtState(turn), next)
    finishWithPlacings(ctx, game.id, next.winners, 'won', published)
    return true
  }
  // Who went out, seats that changed, the turn limit and stalemate help (services/standings.ts).
  const toDeal = afterPublished(ctx, game, turn.number, dealtState(turn), next, published)
  if (toDeal) {
    ctx.games.setState(game.id, JSON.stringify(toDeal))
    openTurn(ctx, game, toDeal, published)
  }
  return true
}

function draftTurn(ctx: ServiceContext, m: Membership, turnNumber: number): TurnRow {
  requireGm(m)
  // A game that is over keeps its last draft as it was (abandoning or ending one leaves it there).
  const status = ctx.games.byId(m.game.id)!.status
  if (status !== 'running' && status !== 'paused') throw conflict(`the game is ${status}`)
  const turn = ctx.turns.byNumber(m.game.id, turnNumber)
  if (!turn) throw notFound(`no turn ${turnNumber}`)
  if (turn.status !== 'draft') throw conflict(`turn ${turnNumber} is ${turn.status}, not a draft under review`)
  return turn
}

/** The GM lets one player correct their program; the others' programs stay as they are. */
export function reopenSubmission(ctx: ServiceContext, m: Membership, turnNumber: number, playerId: string, reason: string): void {
  ctx.write(() => {
    const turn = draftTurn(ctx, m, turnNumber)
    const seat = ctx.games.seats(m.game.id).find((s) => s.player_id === playerId)
    if (!seat) throw badRequest(`no player ${playerId} in this game`, 'player')
    if (seat.user_id !== null && seat.user_id === m.game.gm_user_id) throw conflict('your own program is final: a GM who plays cannot reopen it', 'player')
    // A repeated request (a second click, a retried call) must not mail the player twice.
    if (turn.reopened_player_id === playerId) throw conflict(`${seat.name ?? playerId}'s program is already reopened`, 'player')
    ctx.turns.reopen(turn.id, playerId)
    ctx.games.logAction(m.game.id, ctx.now(), 'reopen', reason, { turn: turnNumber, player: playerId })
    if (seat.email) {
      ctx.mail({ kind: 'reopened', gameId: m.game.id, to: seat.email, restsOnTurn: turnNumber - 1, ...reopenedMail(m.game.name, turnNumber, reason || '(no reason given)', ctx.link(submitPath(m.game, turnNumber))) })
    }
  })
}

export function reresolve(ctx: ServiceContext, m: Membership, turnNumber: number, reason: string): void {
  ctx.write(() => {
    const turn = draftTurn(ctx, m, turnNumber)
    resolveDraft(ctx, ctx.games.byId(m.game.id)!, turn)
    ctx.games.logAction(m.game.id, ctx.now(), 'resolve', reason, { turn: turnNumber })
  })
}

export function publishByGm(ctx: ServiceContext, m: Membership, turnNumber: number, reason: string): void {
  ctx.write(() => {
    const turn = draftTurn(ctx, m, turnNumber)
    const game = ctx.games.byId(m.game.id)!
    if (game.status !== 'running') throw conflict(`the game is ${game.status}`)
    publishDraft(ctx, game, turn.id)
    ctx.games.logAction(game.id, ctx.now(), 'publish', reason, { turn: turnNumber })
  })
}

/** The review window ended with no action from the GM. */
export function publishWhenReviewEnds(ctx: ServiceContext, turnId: number): boolean {
  return ctx.write(() => {
    const turn = ctx.turns.byId(turnId)
    const game = turn && ctx.games.byId(turn.game_id)
    if (!turn || !game || game.status !== 'running' || turn.status !== 'draft') return false
    if (turn.review_until === null || turn.review_until > ctx.now()) return false
    return publishDraft(ctx, game, turnId)
  })
}

/** Queues the reminder, once per turn, to players whose program is not in (the timing is in turnsRepository.remindersDue). */
export function queueReminders(ctx: ServiceContext, turnId: number): boolean {
  return ctx.write(() => {
    const turn = ctx.turns.byId(turnId)
    const game = turn && ctx.games.byId(turn.game_id)
    if (!turn || !game || turn.status !== 'open' || !ctx.turns.markReminded(turnId)) return false
    const submitted = new Set(ctx.turns.latestSubmissions(turn.id).map((s) => s.player_id))
    const dealt = dealtState(turn)
    for (const seat of ctx.games.seats(game.id)) {
      const robot = dealt.robots.find((r) => r.player === seat.player_id)
      if (!seat.email || !robot || !mustSubmit(robot) || submitted.has(seat.player_id)) continue
      queueReminder(ctx, game, turn, seat.email, seat.player_id)
    }
    return true
  })
}
