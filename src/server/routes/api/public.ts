// Spectators, with the game's public link: published turns only.
import type { FastifyInstance } from 'fastify'
import { publicParams, publicTurnParams } from '../../schemas.js'
import type { ServiceContext } from '../../services/context.js'
import { spectatorGameView, spectatorTurnView } from '../../services/views.js'
import type { RouteRegistry } from '../define.js'

export function publicRoutes(app: FastifyInstance, ctx: ServiceContext, r: RouteRegistry) {
  r.define(app, {
    method: 'GET', url: '/public/:publicToken', tag: 'spectators', auth: 'public', params: publicParams,
    summary: 'A game for spectators: seats, robots after the last published turn, history',
    handler: ({ params }) => spectatorGameView(ctx, params.publicToken),
  })
  r.define(app, {
    method: 'GET', url: '/public/:publicToken/turns/:turn', tag: 'spectators', auth: 'public', params: publicTurnParams,
    summary: 'A published turn: programs, tables and events',
    handler: ({ params }) => spectatorTurnView(ctx, params.publicToken, params.turn),
  })
}
