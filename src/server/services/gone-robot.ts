// A robot whose player is gone (issue 12 "Seats that change", issue 15 "Where bots play"). The GM
// chooses per game, at creation and later with a reason: the robot leaves the board at the next
// deal (its player is out, A17), keeps playing R9's random programs until a newcomer takes the
// seat, or is played by a built-in bot (A20). Carried out here when a player withdraws or is
// removed; the robot and its history stay the seat's in every case.
import { botSeatName, type BotLevel } from '../../bots/index.js'
import type { GameState } from '../../engine/types.js'
import { withdrawSeatMail } from '../mail/withdraw.js'
import type { GameRow, SeatRow } from '../repositories/games.js'
import { placeBot, playOpenTurn } from './bot-seats.js'
import type { ServiceContext } from './context.js'
import { markIfEveryProgramIn } from './programs-in.js'

type GoneChoice = Pick<GameRow, 'gone_robot' | 'gone_robot_bot'>

/** The bot that plays a gone player's robot in this game, or null when the choice is not a bot. */
export function goneRobotBot(game: GoneChoice): BotLevel | null {
  return game.gone_robot === 'bot' ? game.gone_robot_bot ?? 'greedy' : null
}

/** What the game does with a robot whose player left, in words for people (pages and mail); `own` for the player who left. */
export function goneRobotText(game: GoneChoice, own = false): string {
  const bot = goneRobotBot(game)
  const robot = own ? 'Your robot' : 'Their robot'
  if (bot) return `${robot} is played by the built-in bot ${botSeatName(bot)} from now on; it keeps its place and history.`
  return game.gone_robot === 'leave'
    ? `${robot} leaves the board at the next deal: ${own ? 'you are' : 'they are'} out of the race.`
    : `${robot} stays and plays programs filled at random (R9) until a newcomer takes the seat.`
}

/** The seat's name once a bot plays it: "Bot (greedy) for Alice". */
export function botForName(level: BotLevel, playerName: string): string {
  return `${botSeatName(level)} for ${playerName}`
}

/**
 * Empties the seat of a player who withdrew or was removed and carries out the game's choice,
 * inside the caller's transaction; the player's turn mail not sent yet is withdrawn. A seat handed
 * to a newcomer (`replaced`), or left before the start, is only emptied: the newcomer plays the robot.
 */
export function playerGone(ctx: ServiceContext, game: GameRow, seat: SeatRow, replaced: boolean): void {
  if (seat.user_id !== null) ctx.users.revokeApiTokens(seat.user_id, game.id, ctx.now())
  // Their turn mail not sent yet (held for a digest, or waiting for the mail server) carries the
  // seat's hand, which a newcomer or a bot now plays: it never reaches them.
  if (seat.email) withdrawSeatMail(ctx, game.id, seat.email)
  ctx.games.vacate(seat.id)
  const choice = replaced || game.status === 'setup' ? null : game.gone_robot
  ctx.gm.setRobotLeaves(seat.id, choice === 'leave')
  const bot = choice === null ? null : goneRobotBot(game)
  if (!bot) {
    // Nobody plays the seat's robot now: the open turn no longer waits for its program (programs-in.ts).
    const turn = ctx.turns.current(game.id)
    if (turn?.status === 'open') markIfEveryProgramIn(ctx, game.id, turn.id, JSON.parse(turn.dealt_state_json) as GameState)
    return
  }
  const empty: SeatRow = { ...seat, user_id: null, invite_email: null }
  placeBot(ctx, game, empty, bot, { name: botForName(bot, seat.name ?? seat.player_id), colour: seat.colour })
  // A20: the bot also plays the open turn if the player had not sent a program for it.
  playOpenTurn(ctx, game, empty, bot)
}
