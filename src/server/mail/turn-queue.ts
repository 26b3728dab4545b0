// Queues the mails of a turn (called by services/turns.ts inside its transactions): at a deal,
// one turn mail per player with a robot (the previous turn's story and picture, the new hand,
// the reply address); results-only mail to everyone else who hears about the game; the
// natural game-over mail; the reminder.
import type { TurnResult } from '../../engine/turn.js'
import type { GameState, RobotState } from '../../engine/types.js'
import { turnStory } from '../../render/story.js'
import type { GameRow } from '../repositories/games.js'
import type { TurnRow } from '../repositories/turns.js'
import { recipients, reportNames, type ServiceContext } from '../services/context.js'
import { replyAddress, replyTokens } from '../inbound/tokens.js'
import { SETTINGS_PATH } from './compose.js'
import { preferencesRepository } from './preferences.js'
import { reminderMail, resultsOnlyMail, turnMail, type Ending, type PreviousTurn } from './turn-mail.js'
import type { CorrectionView } from '../services/corrections.js'

/** A turn just published: its result and the GM's corrections in it (issue 12; public from now on, like the report). */
export interface Published { number: number; result: TurnResult; corrections: readonly CorrectionView[] }

const submitPath = (gameId: string, turn: number) => `/games/${gameId}/turns/${turn}/submit`
const reportPath = (gameId: string, turn: number) => `/games/${gameId}/turns/${turn}`

/**
 * The previous turn's part of a reader's mail. `attached`: whether the picture goes with it; a
 * mail held for the reader's daily digest goes without (a digest attaches no pictures), so it must
 * not say that it does: the full report's link shows the board.
 */
function previousFor(ctx: ServiceContext, game: GameRow, published: Published, player: string | null, attached: boolean): PreviousTurn {
  const { names } = reportNames(ctx.games.seats(game.id))
  // A robot off the board when the turn began is out of the game (a lost one is back by then, R29):
  // it played no part in the turn, and its player reads the turn as the GM does.
  const inPlay = (r: { at: unknown }) => r.at !== null
  const inTurn = player !== null && published.result.start.robots.some((r) => r.player === player && inPlay(r))
  const own = inTurn && published.result.end.robots.some((r) => r.player === player && r.at !== null)
  const story = turnStory(published.result, names)
  const played = new Set(published.result.start.robots.filter(inPlay).map((r) => r.player))
  return {
    number: published.number,
    story: inTurn ? `${story.find((line) => line.player === player)!.text}.` : null,
    everyone: inTurn ? [] : story.filter((line) => played.has(line.player)).map((line) => `${line.name}: ${line.text}`),
    reportLink: ctx.link(reportPath(game.id, published.number)),
    picture: attached, own,
    corrections: published.corrections.map((c) => ({ name: c.name, mine: c.player === player, at: c.at, before: c.before, after: c.after, reason: c.reason })),
  }
}

/** The reply address of a player's turn, when programs by reply are on (MAIL_DOMAIN set). */
function replyAddressFor(ctx: ServiceContext, turnId: number, player: string): string | null {
  if (!ctx.mailDomain) return null
  return replyAddress(ctx.mailDomain, replyTokens(ctx.db).issue(turnId, player, ctx.now()))
}

/** Whether mail to an address is held for its daily digest (mail/preferences.ts), which attaches no picture. */
const heldForDigest = (ctx: ServiceContext) => {
  const prefs = preferencesRepository(ctx.db)
  return (email: string) => prefs.modeOf(email.toLowerCase()) === 'digest'
}

const hasRobot = (robot: RobotState | undefined): robot is RobotState => robot !== undefined && robot.robotsLeft > 0

/**
 * One turn mail per seated player whose robot is still in the game; then, after a published
 * turn, the results-only mail to everyone else (the GM who does not play, players who are out).
 */
export function queueTurnMails(ctx: ServiceContext, game: GameRow, turn: TurnRow, dealt: GameState, published: Published | null): void {
  const settingsLink = ctx.link(SETTINGS_PATH)
  const inDigest = heldForDigest(ctx)
  const dealtTo = new Set<string>()
  for (const seat of ctx.games.seats(game.id)) {
    const robot = dealt.robots.find((r) => r.player === seat.player_id)
    if (!seat.email || !hasRobot(robot)) continue
    const reply = replyAddressFor(ctx, turn.id, seat.player_id)
    dealtTo.add(seat.email.toLowerCase())
    ctx.mail({
      kind: 'hand', gameId: game.id, to: seat.email, restsOnTurn: turn.number - 1,
      ...turnMail({
        game: game.name, name: seat.name ?? seat.player_id, settingsLink,
        previous: published && previousFor(ctx, game, published, seat.player_id, !inDigest(seat.email)),
        hand: {
          turn: turn.number, robot, hand: dealt.hands[seat.player_id] ?? [], deadline: turn.deadline,
          submitLink: ctx.link(submitPath(game.id, turn.number)), replyAddress: reply, inDigest: inDigest(seat.email),
        },
      }),
      ...(reply ? { headers: { 'Reply-To': reply } } : {}),
      ...(published && !inDigest(seat.email) ? { picture: { gameId: game.id, turn: published.number, player: seat.player_id } } : {}),
    })
  }
  if (published) queueResultsOnly(ctx, game, published, null, dealtTo)
}

/** The results of a published turn to everyone not in `except`; `ending` when the game ended with it. */
export function queueResultsOnly(ctx: ServiceContext, game: GameRow, published: Published, ending: Ending | null, except = new Set<string>()): void {
  const settingsLink = ctx.link(SETTINGS_PATH)
  const seats = ctx.games.seats(game.id)
  const inDigest = heldForDigest(ctx)
  for (const to of recipients(ctx, game)) {
    if (except.has(to)) continue
    const player = seats.find((s) => s.email?.toLowerCase() === to)?.player_id ?? null
    ctx.mail({
      kind: ending ? 'game-over' : 'results', gameId: game.id, to, restsOnTurn: published.number,
      ...resultsOnlyMail(game.name, previousFor(ctx, game, published, player, !inDigest(to)), settingsLink, ending),
      ...(inDigest(to) ? {} : { picture: { gameId: game.id, turn: published.number, player } }),
    })
  }
}

/** The reminder to one player whose program is not in. */
export function queueReminder(ctx: ServiceContext, game: GameRow, turn: TurnRow, to: string, player: string): void {
  const reply = ctx.mailDomain ? replyAddressFor(ctx, turn.id, player) : null
  ctx.mail({
    kind: 'reminder', gameId: game.id, to, restsOnTurn: turn.number - 1,
    ...reminderMail(game.name, turn.number, turn.deadline, ctx.link(submitPath(game.id, turn.number)), reply, ctx.link(SETTINGS_PATH), heldForDigest(ctx)(to)),
    ...(reply ? { headers: { 'Reply-To': reply } } : {}),
  })
}
