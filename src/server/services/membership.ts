// Who the viewer is in a game: its GM, a seated player, both (a GM who plays), or nobody. Shared by
// the game and turn services, the views and the pages; it imports no other service, so the
// services depend on it one way.
import { forbidden, notFound } from '../errors.js'
import type { Membership, ServiceContext, Viewer } from './context.js'

/** Loads a game and what the viewer is in it; an API token only opens its own game. */
export function membership(ctx: ServiceContext, gameId: string, viewer: Viewer): Membership {
  const game = ctx.games.byId(gameId)
  if (!game || (viewer.tokenGameId && viewer.tokenGameId !== gameId)) throw notFound('no such game')
  const seats = ctx.games.seats(gameId)
  const userId = viewer.user?.id
  return { game, seats, isGm: userId !== undefined && game.gm_user_id === userId, seat: seats.find((s) => userId !== undefined && s.user_id === userId) }
}

export function requireGm(m: Membership): void {
  if (!m.isGm) throw forbidden('only the GM of this game can do that')
}

/**
 * A GM who plays holds a seat in their own game (taken before the start: services/games.ts refuses
 * a seat to the GM of a running game). Such a GM's program is completed first (BotWars rules): it
 * is locked before the GM sees any other program or result of the turn (services/lock.ts).
 */
export const gmPlays = (m: Membership): boolean => m.isGm && m.seat !== undefined
