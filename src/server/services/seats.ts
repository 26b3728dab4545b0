// Seats that change in a running game (issue 12): the GM opens a seat for a newcomer (their robot
// enters at the next deal, R25), a player withdraws, the GM removes a player; and the game's
// settings for endings, table talk and a robot whose player is gone.
import { badRequest, conflict, forbidden } from '../errors.js'
import { ownSeatLeftMail, seatLeftMail } from '../mail/gm-templates.js'
import type { GameRow, SeatRow } from '../repositories/games.js'
import type { GameSettings } from '../repositories/gm.js'
import type { settingsRequest } from '../schemas-gm.js'
import { recipients, seatName, type Membership, type ServiceContext } from './context.js'
import { invite } from './games.js'
import { goneRobotBot, goneRobotText, playerGone } from './gone-robot.js'
import { gmPlays, requireGm } from './membership.js'
import { setPathPreview } from './path-preview.js'
import type { z } from 'zod'

const MAX_SEATS = 8

/** A new seat in a running game, with an invitation; the newcomer's robot enters at the next deal. */
export function openSeat(ctx: ServiceContext, m: Membership, email: string, reason: string): { seat: number; player: string } {
  requireGm(m)
  return ctx.write(() => {
    const { game, seat } = addSeat(ctx, m.game.id)
    ctx.games.logAction(game.id, ctx.now(), 'open-seat', reason, { seat: seat.seat_no })
    invite(ctx, { ...m, game, seats: ctx.games.seats(game.id) }, email, seat.seat_no)
    return { seat: seat.seat_no, player: seat.player_id }
  })
}

/** A new, empty seat in a running game (inside the caller's transaction); its robot enters at the next deal. */
export function addSeat(ctx: ServiceContext, gameId: string): { game: GameRow; seat: SeatRow } {
  const game = ctx.games.byId(gameId)!
  if (game.status !== 'running' && game.status !== 'paused') throw conflict(game.status === 'setup' ? 'the game has not started: invite to one of its seats' : `the game is ${game.status}`)
  const seats = ctx.games.seats(game.id)
  if (seats.length >= MAX_SEATS) throw conflict(`a game has at most ${MAX_SEATS} seats`)
  // Seat numbers and player ids stay unique for the whole game: a closed seat's number is not reused.
  const taken = new Set(seats.flatMap((s) => [s.seat_no, Number(s.player_id.slice(1))]))
  const n = Array.from({ length: MAX_SEATS }, (_, i) => i + 1).find((k) => !taken.has(k))!
  ctx.gm.addSeat(game.id, n, `P${n}`)
  return { game: ctx.games.byId(game.id)!, seat: ctx.games.seats(game.id).find((s) => s.seat_no === n)! }
}

/** A player leaves the game by their own choice; the GM and the other players are told. */
export function withdraw(ctx: ServiceContext, m: Membership, reason: string): void {
  if (!m.seat) throw forbidden('you have no seat in this game')
  // Issue 11 (services/lock.ts): a GM who plays keeps their seat while the game runs.
  if (gmPlays(m) && m.game.status !== 'setup') throw conflict('you are the GM and play in this game: your seat stays yours until the game ends')
  ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    if (game.status === 'finished' || game.status === 'abandoned') throw conflict(`the game is ${game.status}`)
    const seat = ctx.games.seats(game.id).find((s) => s.id === m.seat!.id)
    if (!seat || seat.user_id !== m.seat!.user_id) throw conflict('you no longer have this seat')
    const everyone = recipients(ctx, game)
    playerGone(ctx, game, seat, false)
    ctx.games.logAction(game.id, ctx.now(), 'withdraw', reason, { seat: seat.seat_no, player: seatName(seat) })
    const robot = game.status === 'setup' ? 'The seat is free again.' : goneRobotText(game)
    const own = game.status === 'setup' ? robot : goneRobotText(game, true)
    for (const to of everyone) {
      ctx.mail({
        kind: 'seat-left', gameId: game.id, to,
        ...(to === seat.email?.toLowerCase()
          ? ownSeatLeftMail(game.name, false, reason, own, ctx.link('/'))
          : seatLeftMail(game.name, seatName(seat), `withdrew from the game${reason ? `: ${reason}` : ''}`, robot, ctx.link(`/games/${game.id}`))),
      })
    }
  })
}

export type SettingsInput = z.output<typeof settingsRequest>

/** The GM changes the game's settings; a changed turn limit needs a reason, and never lies behind the turn being played. */
export function changeSettings(ctx: ServiceContext, m: Membership, input: SettingsInput): GameSettings {
  requireGm(m)
  return ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    if (game.status === 'finished' || game.status === 'abandoned') throw conflict(`the game is ${game.status}`)
    const next: GameSettings = {
      turnLimit: input.turnLimit === undefined ? game.turn_limit : input.turnLimit,
      stalemateTurns: input.stalemateTurns === undefined ? game.stalemate_turns : input.stalemateTurns,
      tableTalk: input.tableTalk ?? game.table_talk === 1,
      goneRobot: input.goneRobot ?? game.gone_robot,
      goneRobotBot: null,
    }
    // A bot for a gone player's robot: the one named, else the game's, else greedy (issue 15's middle level).
    if (next.goneRobot === 'bot') next.goneRobotBot = input.goneRobotBot ?? game.gone_robot_bot ?? 'greedy'
    const before = settingsView(game)
    if (next.turnLimit !== game.turn_limit) {
      if (!input.reason) throw badRequest('a changed turn limit needs a reason: players see it', 'reason')
      const current = ctx.turns.current(game.id)
      const least = current ? (current.status === 'published' ? current.number + 1 : current.number) : 1
      if (next.turnLimit !== null && next.turnLimit < least) throw badRequest(`the turn limit cannot be before turn ${least}, the turn being played`, 'turnLimit')
    }
    ctx.gm.setSettings(game.id, next)
    if (input.pathPreview !== undefined) setPathPreview(ctx, m, input.pathPreview, input.reason)
    const changed = {
      ...(next.turnLimit !== game.turn_limit ? { turnLimit: next.turnLimit } : {}),
      ...(next.stalemateTurns !== game.stalemate_turns ? { stalemateTurns: next.stalemateTurns } : {}),
      ...(next.tableTalk !== (game.table_talk === 1) ? { tableTalk: next.tableTalk } : {}),
      ...(next.goneRobot !== before.goneRobot ? { goneRobot: next.goneRobot } : {}),
      ...(next.goneRobotBot !== before.goneRobotBot ? { goneRobotBot: next.goneRobotBot } : {}),
    }
    // A request that only turns the preview on or off is logged once, as that (path-preview.ts).
    if (Object.keys(changed).length || input.pathPreview === undefined) ctx.games.logAction(game.id, ctx.now(), 'settings', input.reason, changed)
    return next
  })
}

export function settingsView(game: GameRow) {
  return { turnLimit: game.turn_limit, stalemateTurns: game.stalemate_turns, tableTalk: game.table_talk === 1, goneRobot: game.gone_robot, goneRobotBot: goneRobotBot(game), pathPreview: game.path_preview === 1 }
}
