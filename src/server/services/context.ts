// What every service works with: the database and its repositories, the clock, links, and the
// test-only crash hook. Services are plain functions of this context.
import type { Board } from '../../engine/types.js'
import type { Db } from '../plugins/db.js'
import { botsRepository } from '../repositories/bots.js'
import { gamesRepository, type GameRow, type SeatRow } from '../repositories/games.js'
import { gmRepository } from '../repositories/gm.js'
import { messagesRepository } from '../repositories/messages.js'
import { outboxRepository, type NewMail } from '../repositories/outbox.js'
import { turnsRepository } from '../repositories/turns.js'
import { usersRepository, type UserRow } from '../repositories/users.js'
import { boardCache, boardDefinition } from './board-cache.js'
import type { BotPlanning } from './bot-plans.js'
import { groupCommit } from './group-commit.js'
import { submissionContexts } from './submission-context.js'

export interface ServiceOptions {
  db: Db
  now: () => number
  baseUrl: string
  boardsDir: string
  /** Test-only: called at named points, most inside transactions (the crash test kills the process there; the race tests write there). */
  crashPoint?: (name: string) => void
  /** Where a new game's seed comes from; tests fix it so a game replays. */
  newSeed?: () => number
  /** MAIL_DOMAIN: turn mails carry reply addresses there (programs by reply, src/server/inbound/). */
  mailDomain?: string
  /** BOARD_CACHE_SQUARES: how many squares the compiled boards kept may hold together (board-cache.ts). */
  boardCacheSquares?: number
  /** Bot seats' programs planned in a worker thread (bot-plans.ts); without it, in the transaction that deals. */
  botPlanning?: BotPlanning
}

export function createContext(options: ServiceOptions) {
  const { db } = options
  const boards = boardCache(options.boardCacheSquares)
  // Made once: better-sqlite3 builds a wrapper with four variants for every db.transaction call,
  // which was an eighth of a program submission's time when done per write.
  const transaction = db.transaction(<T>(work: () => T): T => work())
  const turns = turnsRepository(db)
  const ctx = {
    ...options,
    users: usersRepository(db),
    games: gamesRepository(db),
    turns,
    /** What a submission checks, its place kept in memory between submissions (submission-context.ts). */
    submissionContexts: submissionContexts(db, turns),
    outbox: outboxRepository(db),
    bots: botsRepository(db),
    gm: gmRepository(db),
    messages: messagesRepository(db),
    crash: (name: string) => options.crashPoint?.(name),
    /** One write transaction, taken at once (BEGIN IMMEDIATE) so concurrent writers queue instead of failing late. */
    write<T>(work: () => T): T {
      return transaction.immediate(work) as T
    },
    /**
     * The same, shared with the other writes that arrive in this turn of the event loop (see
     * group-commit.ts): for the hot request paths, settling after the shared COMMIT.
     */
    writeSoon: groupCommit(db),
    board: (game: GameRow): Board => boards.get(game, () => boardDefinition(game)),
    /** The kept compiled boards (for tests and the memory benchmark). */
    boards,
    /** Queues a mail (outbox.add); returns its outbox id if it is to go now, else null. */
    mail(mail: NewMail): number | null {
      // A practice game (issue 15) mails no one: its player is at the page, playing bots.
      if (mail.gameId && ctx.bots.settings(mail.gameId)?.practice === 1) return null
      return ctx.outbox.add(mail, options.now())
    },
    link: (path: string) => `${options.baseUrl}${path}`,
  }
  return ctx
}
export type ServiceContext = ReturnType<typeof createContext>

export { boardDefinition }

/** Who is looking: a signed-in person (maybe through an API token limited to one game), or nobody. */
export interface Viewer {
  user: UserRow | null
  tokenGameId?: string
  /**
   * An API token sent to a route that checks it inside its own write transaction
   * (RouteSpec.tokenCheckedInWrite), not yet looked up: until checkedViewer() has checked it,
   * `user` is null, so code that forgets to check it treats the request as signed out.
   */
  uncheckedToken?: string
}

export interface Membership {
  game: GameRow
  seats: SeatRow[]
  isGm: boolean
  seat: SeatRow | undefined
}

export const seatName = (seat: SeatRow) => seat.name ?? `${seat.player_id} (empty seat)`

export function reportNames(seats: readonly SeatRow[]) {
  const names: Record<string, string> = {}
  const colours: Record<string, string> = {}
  for (const seat of seats) {
    names[seat.player_id] = seatName(seat)
    if (seat.colour) colours[seat.player_id] = seat.colour
  }
  return { names, colours }
}

/** The longest reminder a GM may set (games.reminder_before_ms; 12 hours unless chosen). */
export const MAX_REMINDER_BEFORE_MS = 7 * 24 * 3600_000

/** Everyone who hears about the game: the players in their seats and the GM, once each. */
export function recipients(ctx: ServiceContext, game: GameRow): string[] {
  const emails = ctx.games.seats(game.id).flatMap((s) => (s.email ? [s.email] : []))
  emails.push(ctx.users.byId(game.gm_user_id)!.email)
  return [...new Set(emails.map((e) => e.toLowerCase()))]
}
