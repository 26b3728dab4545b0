// What a live page may be told about a game: the current turn's number and status, its deadline,
// the game's status, how many turns are published, and — for members only — who has submitted
// (yes or no, never what), whether something waits for this viewer, and a mark of the messages
// they may read (never a message, nor that another thread has one). Nothing here reads a hand, a
// program or a result: the events are built from this and only this.
import type { GameRow } from '../repositories/games.js'
import type { ServiceContext } from '../services/context.js'
import { waitingFor } from '../pages/services.js'
import { messagesFor, messagesMark } from '../services/messages.js'

export interface PublicLiveState {
  gameStatus: GameRow['status']
  turn: number | null
  turnStatus: 'open' | 'draft' | 'published' | null
  deadline: string | null
  published: number
}

export interface MemberLiveState extends PublicLiveState {
  /** The players whose program for the open turn is in (seat id for the page's rows, name for its words). */
  submitted: { player: string; name: string }[]
  /** The player whose program the GM reopened, by name (the reason stays in the GM's history). */
  reopened: string | null
  /** 1 when this viewer has something to do in this game now (a program due, a draft to review). */
  needsYou: number
  /** What waits, in words: "your program for turn 3 is due in 2 days". */
  waiting: string
  /**
   * A mark of the messages this viewer may read (services/messages.ts messagesMark): it moves only
   * when their own threads change, so a private message elsewhere changes nothing they are sent.
   */
  messages: string
}

/**
 * The game as a page shows it, in one word (its status, the current turn and its status, how many
 * turns are published): the page carries it (`data-live-at`), and live.js compares it with the
 * stream's first message, so a page whose game moved on while it loaded is told (views/static/live.js
 * makes the same word).
 */
export function liveAt(ctx: ServiceContext, game: GameRow): string {
  const s = publicLiveState(ctx, game)
  return [s.gameStatus, s.turn, s.turnStatus, s.published].map(String).join('.')
}

export function publicLiveState(ctx: ServiceContext, game: GameRow): PublicLiveState {
  const turn = ctx.turns.current(game.id)
  return {
    gameStatus: game.status,
    turn: turn?.number ?? null,
    turnStatus: turn?.status ?? null,
    deadline: turn && turn.status === 'open' ? new Date(turn.deadline).toISOString() : null,
    published: ctx.turns.publishedNumbers(game.id).length,
  }
}

export function memberLiveState(ctx: ServiceContext, game: GameRow, userId: number): MemberLiveState {
  const base = publicLiveState(ctx, game)
  const turn = ctx.turns.current(game.id)
  const seats = ctx.games.seats(game.id)
  const name = (player: string) => seats.find((s) => s.player_id === player)?.name ?? player
  const submitted = turn && turn.status === 'open'
    ? ctx.turns.latestSubmissions(turn.id).map((s) => ({ player: s.player_id, name: name(s.player_id) })).sort((a, b) => a.player.localeCompare(b.player))
    : []
  const waiting = waitingFor(ctx, game, userId)
  const member = { game, seats, isGm: game.gm_user_id === userId, seat: seats.find((s) => s.user_id === userId) }
  return {
    ...base, submitted, reopened: turn?.reopened_player_id ? name(turn.reopened_player_id) : null,
    needsYou: waiting.urgent ? 1 : 0, waiting: waiting.text, messages: messagesMark(messagesFor(ctx, member, userId)),
  }
}

/** What changed between two states, in words for the page's live note; null when nothing a page shows did. */
export function changeOf(before: PublicLiveState | MemberLiveState | null, after: PublicLiveState | MemberLiveState): { kind: string; message: string } | null {
  if (before && JSON.stringify(before) === JSON.stringify(after)) return null
  if (!before) return { kind: 'catch-up', message: '' }
  if (after.gameStatus !== before.gameStatus) return { kind: 'game', message: `The game is ${after.gameStatus === 'running' ? 'running' : after.gameStatus}.` }
  if (after.published > before.published) return { kind: 'published', message: `Turn ${after.published} is published.` }
  if (after.turn !== before.turn && after.turnStatus === 'open') return { kind: 'opened', message: `Turn ${after.turn} is open for programs.` }
  if (after.turnStatus !== before.turnStatus && after.turnStatus === 'draft') return { kind: 'closed', message: `Turn ${after.turn} is closed: the GM reviews it.` }
  if ('reopened' in after && after.reopened && (!('reopened' in before) || before.reopened !== after.reopened)) {
    return { kind: 'reopened', message: `The GM reopened ${after.reopened}'s program for turn ${after.turn}.` }
  }
  // "New message" only: which thread, who wrote and what stay on the page (fetched with the viewer's own session).
  if ('messages' in after && 'messages' in before && after.messages !== before.messages) return { kind: 'message', message: 'New message.' }
  if ('submitted' in after && 'submitted' in before) {
    const added = after.submitted.filter((s) => !before.submitted.some((b) => b.player === s.player))
    if (added.length) return { kind: 'submitted', message: `${added.map((s) => s.name).join(' and ')} submitted a program for turn ${after.turn}.` }
  }
  if (after.deadline !== before.deadline) return { kind: 'deadline', message: 'The deadline changed.' }
  return { kind: 'changed', message: '' }
}
