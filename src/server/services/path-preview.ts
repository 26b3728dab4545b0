// The planning preview (issue 13) is a game setting the GM may change at any time, not only when
// the game is made: a table that finds it too much help turns it off mid-game, and on again. Each
// change is one write and one line in the game's action log ("preview-off"/"preview-on").
import { conflict } from '../errors.js'
import type { Membership, ServiceContext } from './context.js'
import { requireGm } from './membership.js'

/** Turns the preview on or off; saying what it already is changes nothing and logs nothing. */
export function setPathPreview(ctx: ServiceContext, m: Membership, on: boolean, reason: string): boolean {
  requireGm(m)
  return ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    if (game.status === 'finished' || game.status === 'abandoned') throw conflict(`the game is ${game.status}`)
    if ((game.path_preview === 1) === on) return on
    ctx.games.setPathPreview(game.id, on)
    ctx.games.logAction(game.id, ctx.now(), on ? 'preview-on' : 'preview-off', reason, { pathPreview: on })
    return on
  })
}
