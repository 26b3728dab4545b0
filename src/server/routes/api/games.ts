// Games: create, list, view, invite and join, start, replace players, and the GM's controls.
import type { FastifyInstance } from 'fastify'
import { notFound } from '../../errors.js'
import {
  createGameRequest, deadlineRequest, gameIdParams, inviteRequest, joinRequest, reasonRequest, replaceRequest, seatParams, tokenParams,
} from '../../schemas.js'
import type { ServiceContext, Viewer } from '../../services/context.js'
import {
  abandonGame, createGame, extendDeadline, invitation, invite, joinGame, listBoards, pauseGame, removePlayer, resumeGame, startGame,
} from '../../services/games.js'
import { membership } from '../../services/membership.js'
import { gameView, historyView } from '../../services/views.js'
import type { RouteRegistry } from '../define.js'

/** A game the viewer is in (as GM or player); others get 404, as if it did not exist. */
export function memberOf(ctx: ServiceContext, gameId: string, viewer: Viewer) {
  const m = membership(ctx, gameId, viewer)
  if (!m.isGm && !m.seat) throw notFound('no such game')
  return m
}

export function gameRoutes(app: FastifyInstance, ctx: ServiceContext, r: RouteRegistry) {
  r.define(app, {
    method: 'GET', url: '/boards', tag: 'games', auth: 'public', summary: 'The boards in boards/ a game can be played on',
    handler: () => ({ boards: listBoards(ctx) }),
  })
  r.define(app, {
    method: 'GET', url: '/games', tag: 'games', auth: 'user', summary: 'Your games, as GM or player',
    handler: ({ user }) => ({
      games: ctx.games.forUser(user.id).map((g) => ({ id: g.id, name: g.name, status: g.status, board: g.board_name, isGm: g.gm_user_id === user.id })),
    }),
  })
  r.define(app, {
    method: 'POST', url: '/games', tag: 'games', auth: 'user', status: 201, body: createGameRequest,
    summary: 'Create a game; you are its GM',
    handler: ({ user, body, viewer }) => gameView(ctx, membership(ctx, createGame(ctx, user.id, body).id, viewer)),
  })
  r.define(app, {
    method: 'GET', url: '/games/:gameId', tag: 'games', auth: 'user', tokens: true, params: gameIdParams,
    summary: 'A game as you may see it: seats, robots, the current turn (your hand and program only)',
    handler: ({ params, viewer }) => gameView(ctx, memberOf(ctx, params.gameId, viewer)),
  })
  r.define(app, {
    method: 'GET', url: '/games/:gameId/history', tag: 'games', auth: 'user', tokens: true, params: gameIdParams,
    summary: 'Every GM action with its time and reason',
    handler: ({ params, viewer, user }) => {
      const m = memberOf(ctx, params.gameId, viewer)
      return { history: historyView(ctx, m.game, { isGm: m.isGm, ownEmail: user.email, player: m.seat?.player_id }) }
    },
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/invites', tag: 'gm', auth: 'user', status: 201, params: gameIdParams, body: inviteRequest,
    summary: 'GM: invite someone by email to a free seat',
    handler: ({ params, viewer, body }) => invite(ctx, memberOf(ctx, params.gameId, viewer), body.email, body.seat),
  })
  r.define(app, {
    method: 'GET', url: '/invites/:token', tag: 'games', auth: 'public', params: tokenParams,
    summary: 'What an invitation is for',
    handler: ({ params }) => {
      const { game, seat } = invitation(ctx, params.token)
      return { game: { id: game.id, name: game.name, board: game.board_name, status: game.status }, seat: seat.seat_no, gm: ctx.users.byId(game.gm_user_id)?.name }
    },
  })
  r.define(app, {
    method: 'POST', url: '/invites/:token/join', tag: 'games', auth: 'user', params: tokenParams, body: joinRequest,
    summary: 'Take the invited seat with a name and a robot colour',
    handler: ({ params, user, body }) => joinGame(ctx, user.id, params.token, body.name, body.colour),
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/start', tag: 'gm', auth: 'user', params: gameIdParams, body: reasonRequest,
    summary: 'GM: place the robots (R25), deal turn 1 (R7) and mail every hand',
    handler: ({ params, viewer, body }) => { startGame(ctx, memberOf(ctx, params.gameId, viewer), body.reason) },
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/seats/:seat/remove', tag: 'gm', auth: 'user', params: seatParams, body: reasonRequest,
    summary: 'GM: remove a player; the robot stays, its programs filled (R9) until a newcomer joins',
    handler: ({ params, viewer, body }) => { removePlayer(ctx, memberOf(ctx, params.gameId, viewer), params.seat, body.reason) },
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/seats/:seat/replace', tag: 'gm', auth: 'user', params: seatParams, body: replaceRequest,
    summary: 'GM: replace a player; the newcomer is invited and takes over the robot',
    handler: ({ params, viewer, body }) => { removePlayer(ctx, memberOf(ctx, params.gameId, viewer), params.seat, body.reason, body.email) },
  })
  for (const [action, run, summary] of [
    ['pause', pauseGame, 'GM: pause the game (deadlines stop)'],
    ['resume', resumeGame, 'GM: resume a paused game (the deadline moves on by the pause)'],
    ['abandon', abandonGame, 'GM: end the game early'],
  ] as const) {
    r.define(app, {
      method: 'POST', url: `/games/:gameId/${action}`, tag: 'gm', auth: 'user', params: gameIdParams, body: reasonRequest, summary,
      handler: ({ params, viewer, body }) => { run(ctx, memberOf(ctx, params.gameId, viewer), body.reason) },
    })
  }
  r.define(app, {
    method: 'POST', url: '/games/:gameId/deadline', tag: 'gm', auth: 'user', params: gameIdParams, body: deadlineRequest,
    summary: 'GM: move the open turn\'s deadline (a new time, or extendHours from the current one)',
    handler: ({ params, viewer, body }) => {
      const m = memberOf(ctx, params.gameId, viewer)
      const current = ctx.turns.current(m.game.id)
      const deadline = body.deadline !== undefined ? Date.parse(body.deadline) : (current?.deadline ?? ctx.now()) + body.extendHours! * 3600_000
      return { deadline: new Date(extendDeadline(ctx, m, deadline, body.reason)).toISOString() }
    },
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/api-token', tag: 'games', auth: 'user', status: 201, params: gameIdParams,
    summary: 'A new personal API token for this game (shown once; the previous one stops working)',
    handler: ({ params, viewer, user }) => {
      const m = memberOf(ctx, params.gameId, viewer)
      return { token: ctx.write(() => ctx.users.createApiToken(user.id, m.game.id, ctx.now())), usage: 'Authorization: Bearer <token>' }
    },
  })
  r.define(app, {
    method: 'DELETE', url: '/games/:gameId/api-token', tag: 'games', auth: 'user', params: gameIdParams,
    summary: 'Revoke your API token for this game',
    handler: ({ params, viewer, user }) => {
      const m = memberOf(ctx, params.gameId, viewer)
      return { revoked: ctx.write(() => ctx.users.revokeApiTokens(user.id, m.game.id, ctx.now())) }
    },
  })
}
