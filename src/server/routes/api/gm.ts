// The GM's job (issue 12): corrections, rollback and withdrawn reports, ending with placings and
// the standings, seats that change, game settings, and the game's message threads.
import type { FastifyInstance } from 'fastify'
import { gameIdParams, turnParams } from '../../schemas.js'
import {
  correctionRequest, endRequest, hideMessageRequest, messageParams, messageRequest, openSeatRequest, rollbackRequest, settingsRequest,
  withdrawnParams, withdrawRequest,
} from '../../schemas-gm.js'
import type { ServiceContext, Viewer } from '../../services/context.js'
import { requireGm } from '../../services/membership.js'
import { correctProgram } from '../../services/corrections.js'
import { hideMessage, messagesFor, postMessage } from '../../services/messages.js'
import { rollBack, withdrawnReport } from '../../services/rollback.js'
import { changeSettings, openSeat, settingsView, withdraw } from '../../services/seats.js'
import { endWithPlacings, standingsView } from '../../services/standings.js'
import type { RouteRegistry } from '../define.js'
import { memberOf } from './games.js'

export function gmRoutes(app: FastifyInstance, ctx: ServiceContext, r: RouteRegistry) {
  // Who may call, before the body is read (routes/define.ts `access`).
  type Access = { params: Record<string, string | undefined>; viewer: Viewer }
  const gmOnly = ({ params, viewer }: Access) => requireGm(memberOf(ctx, params.gameId ?? '', viewer))
  const member = ({ params, viewer }: Access) => { memberOf(ctx, params.gameId ?? '', viewer) }
  r.define(app, {
    method: 'POST', url: '/games/:gameId/turns/:turn/corrections', tag: 'gm', auth: 'user', access: gmOnly, status: 201, params: turnParams, body: correctionRequest,
    summary: 'GM: enter or amend a player\'s program in the draft, with a reason; the draft is resolved again and the player mailed',
    handler: ({ params, viewer, body }) => { correctProgram(ctx, memberOf(ctx, params.gameId, viewer), params.turn, body) },
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/turns/:turn/rollback', tag: 'gm', auth: 'user', access: gmOnly, params: turnParams, body: rollbackRequest,
    summary: 'GM: roll back the last published turn: the game as before it, the turn back in review, its report kept as withdrawn',
    handler: ({ params, viewer, body }) => { rollBack(ctx, memberOf(ctx, params.gameId, viewer), params.turn, body.reason, body.expectedTurn) },
  })
  r.define(app, {
    method: 'GET', url: '/games/:gameId/turns/:turn/withdrawn/:version', tokens: true, tag: 'turns', auth: 'user', access: member, params: withdrawnParams,
    summary: 'A withdrawn (rolled-back) version of a published turn report, as text',
    handler: ({ params, viewer }) => withdrawnReport(ctx, memberOf(ctx, params.gameId, viewer).game.id, params.turn, params.version),
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/end', tag: 'gm', auth: 'user', access: gmOnly, params: gameIdParams, body: endRequest,
    summary: 'GM: end the game now with placings (flags, distance to the next flag, HP, robots left; A16, A17)',
    handler: ({ params, viewer, body }) => { endWithPlacings(ctx, memberOf(ctx, params.gameId, viewer), body.reason, body.expectedTurn) },
  })
  r.define(app, {
    method: 'GET', url: '/games/:gameId/standings', tokens: true, tag: 'games', auth: 'user', access: member, params: gameIdParams,
    summary: 'Placings: final once the game ended, else as the game stands after its last published turn',
    handler: ({ params, viewer }) => standingsView(ctx, memberOf(ctx, params.gameId, viewer).game),
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/settings', tag: 'gm', auth: 'user', access: gmOnly, params: gameIdParams, body: settingsRequest,
    summary: 'GM: turn limit (a change needs a reason), stalemate help, table talk, what a robot whose player left does, the planning preview',
    handler: ({ params, viewer, body }) => {
      const m = memberOf(ctx, params.gameId, viewer)
      changeSettings(ctx, m, body)
      return settingsView(ctx.games.byId(m.game.id)!)
    },
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/seats', tag: 'gm', auth: 'user', access: gmOnly, status: 201, params: gameIdParams, body: openSeatRequest,
    summary: 'GM: open a seat in a running game and invite a newcomer; their robot enters at the next turn (R25)',
    handler: ({ params, viewer, body }) => openSeat(ctx, memberOf(ctx, params.gameId, viewer), body.email, body.reason),
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/withdraw', tag: 'games', auth: 'user', access: member, params: gameIdParams, body: withdrawRequest,
    summary: 'Leave the game: your seat is emptied; your robot leaves the board or plays on (R9), as the game says',
    handler: ({ params, viewer, body }) => { withdraw(ctx, memberOf(ctx, params.gameId, viewer), body.reason) },
  })
  r.define(app, {
    method: 'GET', url: '/games/:gameId/messages', tokens: true, tag: 'messages', auth: 'user', access: member, params: gameIdParams,
    summary: 'The messages you may read: the public thread and your private threads (the GM reads all)',
    handler: ({ params, viewer, user }) => ({ messages: messagesFor(ctx, memberOf(ctx, params.gameId, viewer), user.id) }),
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/messages', tag: 'messages', auth: 'user', access: member, status: 201, params: gameIdParams, body: messageRequest,
    summary: 'Write to everyone at the table, privately to the GM, or (GM, or table talk) privately to a player',
    handler: ({ params, viewer, user, body }) => postMessage(ctx, memberOf(ctx, params.gameId, viewer), user.id, body),
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/messages/:messageId/hide', tag: 'gm', auth: 'user', access: gmOnly, params: messageParams, body: hideMessageRequest,
    summary: 'GM: hide an abusive message (it stays in the log with the reason)',
    handler: ({ params, viewer, body }) => { hideMessage(ctx, memberOf(ctx, params.gameId, viewer), params.messageId, body.reason) },
  })
}
