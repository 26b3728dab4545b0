// Turns: view, submit a program, and the GM's review (reopen, re-resolve, publish).
import type { FastifyInstance } from 'fastify'
import { notFound } from '../../errors.js'
import { HISTORY_PAGE, historyPage, lockRequest, reasonRequest, reopenRequest, submissionRequest, turnParams } from '../../schemas.js'
import type { ServiceContext } from '../../services/context.js'
import { lockGmProgram } from '../../services/lock.js'
import { publishByGm, reopenSubmission, reresolve, submitProgramSoon } from '../../services/turns.js'
import { submissionHistory, submissionView, turnView } from '../../services/views.js'
import type { RouteRegistry } from '../define.js'
import { memberOf } from './games.js'

export function turnRoutes(app: FastifyInstance, ctx: ServiceContext, r: RouteRegistry) {
  const turnOf = (gameId: string, number: number) => {
    const turn = ctx.turns.byNumber(gameId, number)
    if (!turn) throw notFound(`no turn ${number}`)
    return turn
  }
  r.define(app, {
    method: 'GET', url: '/games/:gameId/turns/:turn', tag: 'turns', auth: 'user', tokens: true, params: turnParams,
    summary: 'A turn as you may see it: your hand and program; results once published (the GM also sees the draft)',
    handler: ({ params, viewer }) => {
      const m = memberOf(ctx, params.gameId, viewer)
      return turnView(ctx, m, turnOf(m.game.id, params.turn))
    },
  })
  r.define(app, {
    method: 'GET', url: '/games/:gameId/turns/:turn/submissions', tag: 'turns', auth: 'user', tokens: true, params: turnParams,
    query: historyPage,
    summary: 'The versions of the programs you may see for a turn, with their times: versions from..from+limit-1 of each player; `next` links the following page',
    handler: ({ params, viewer, query }) => {
      const m = memberOf(ctx, params.gameId, viewer)
      const turn = turnOf(m.game.id, params.turn)
      const { submissions, more } = submissionHistory(ctx, m, turn, query.from, query.limit)
      const next = more ? `/api/v1/games/${m.game.id}/turns/${turn.number}/submissions?from=${query.from + query.limit}${query.limit === HISTORY_PAGE ? '' : `&limit=${query.limit}`}` : null
      return { submissions, next }
    },
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/turns/:turn/submission', tag: 'turns', auth: 'user', tokens: true, tokenCheckedInWrite: true, status: 201, params: turnParams, body: submissionRequest,
    summary: 'Submit (or replace) your program: checked against your hand (R8); a refused one leaves the previous in place',
    handler: async ({ params, viewer, body }) => {
      return submissionView(await submitProgramSoon(ctx, viewer, params.gameId, params.turn, body))
    },
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/turns/:turn/lock', tag: 'gm', auth: 'user', params: turnParams, body: lockRequest,
    summary: 'GM who plays: lock your own program for the open turn (final); only then are the others\' programs and the draft shown to you',
    handler: ({ params, viewer, body }) => { lockGmProgram(ctx, memberOf(ctx, params.gameId, viewer), params.turn, body.confirm === true, body.reason) },
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/turns/:turn/reopen', tag: 'gm', auth: 'user', params: turnParams, body: reopenRequest,
    summary: 'GM: reopen one player\'s program in the draft for a correction (the others stay)',
    handler: ({ params, viewer, body }) => { reopenSubmission(ctx, memberOf(ctx, params.gameId, viewer), params.turn, body.player, body.reason) },
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/turns/:turn/resolve', tag: 'gm', auth: 'user', params: turnParams, body: reasonRequest,
    summary: 'GM: resolve the draft again with the latest programs',
    handler: ({ params, viewer, body }) => { reresolve(ctx, memberOf(ctx, params.gameId, viewer), params.turn, body.reason) },
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/turns/:turn/publish', tag: 'gm', auth: 'user', params: turnParams, body: reasonRequest,
    summary: 'GM: publish the draft: results to everyone, next turn dealt (or the game ends, R34)',
    handler: ({ params, viewer, body }) => { publishByGm(ctx, memberOf(ctx, params.gameId, viewer), params.turn, body.reason) },
  })
}
