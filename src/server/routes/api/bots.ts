// Bots (issue 15): seat a bot, practice games, webhooks for the bot protocol, and series.
import type { FastifyInstance } from 'fastify'
import { gameIdParams, practiceRequest, seatBotRequest, seatParams, seriesParams, seriesRequest, seriesStopRequest, webhookRequest } from '../../schemas.js'
import { plansSettled } from '../../services/bot-plans.js'
import { createPracticeGame, openSeatForBot, seatBotByGm } from '../../services/bots.js'
import type { ServiceContext } from '../../services/context.js'
import { membership } from '../../services/membership.js'
import { createSeries, seriesOfGm, seriesView, stopSeries } from '../../services/series.js'
import { gameView } from '../../services/views.js'
import { deleteWebhook, registerWebhook, webhookView, type WebhookPolicy } from '../../services/webhooks.js'
import type { RouteRegistry } from '../define.js'
import { memberOf } from './games.js'

export function botRoutes(app: FastifyInstance, ctx: ServiceContext, r: RouteRegistry, policy: WebhookPolicy) {
  r.define(app, {
    method: 'POST', url: '/games/:gameId/seats/:seat/bot', tag: 'gm', auth: 'user', params: seatParams, body: seatBotRequest,
    summary: 'GM: a built-in bot takes a free seat ("Bot (greedy)"), before the start or for a robot whose player left',
    handler: ({ params, viewer, body }) => seatBotByGm(ctx, memberOf(ctx, params.gameId, viewer), params.seat, body.bot, body.reason),
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/bot-seats', tag: 'gm', auth: 'user', status: 201, params: gameIdParams, body: seatBotRequest,
    summary: 'GM: open a new seat in a running game for a built-in bot; its robot enters at the next turn on the start square, as a newcomer\'s would',
    handler: ({ params, viewer, body }) => openSeatForBot(ctx, memberOf(ctx, params.gameId, viewer), body.bot, body.reason),
  })
  r.define(app, {
    method: 'POST', url: '/practice', tag: 'games', auth: 'user', status: 201, body: practiceRequest,
    summary: 'Start a practice game against bots alone: no mail, each turn closes as soon as your program is in',
    handler: async ({ user, body, viewer }) => {
      const game = createPracticeGame(ctx, user.id, body)
      // The first turn shown with its bots' programs in (planned in the worker meanwhile).
      await plansSettled(ctx, game.id)
      return gameView(ctx, membership(ctx, game.id, viewer))
    },
  })
  r.define(app, {
    method: 'GET', url: '/games/:gameId/webhook', tag: 'bots', auth: 'user', params: gameIdParams,
    summary: 'Your seat\'s webhook in this game and its recent deliveries (the secret is shown only when registered)',
    handler: ({ params, viewer }) => webhookView(ctx, memberOf(ctx, params.gameId, viewer)),
  })
  r.define(app, {
    method: 'POST', url: '/games/:gameId/webhook', tag: 'bots', auth: 'user', status: 201, params: gameIdParams, body: webhookRequest,
    summary: 'Register (or replace) your seat\'s webhook: when your hand is dealt the server POSTs your view of the game '
      + '(the JSON of GET /games/{gameId}, under "game") signed in the X-BotWars-Signature header as t=<ms>,sha256=<HMAC-SHA256 of "<t>.<body>" with the secret returned here>; '
      + 'answer by submitting through POST /games/{gameId}/turns/{turn}/submission with your game\'s API token. Failed deliveries are retried with backoff; the deadline stands regardless',
    handler: ({ params, viewer, body }) => registerWebhook(ctx, memberOf(ctx, params.gameId, viewer), body.url, policy),
  })
  r.define(app, {
    method: 'DELETE', url: '/games/:gameId/webhook', tag: 'bots', auth: 'user', params: gameIdParams,
    summary: 'Remove your seat\'s webhook',
    handler: ({ params, viewer }) => deleteWebhook(ctx, memberOf(ctx, params.gameId, viewer)),
  })
  r.define(app, {
    method: 'POST', url: '/series', tag: 'series', auth: 'user', status: 201, body: seriesRequest,
    summary: 'Start a series: a round robin over the boards, games one after another, the seat order rotating; it ends by itself after the last game, or when you stop it',
    handler: ({ user, body }) => seriesView(ctx, createSeries(ctx, user.id, body).id, user.id),
  })
  r.define(app, {
    method: 'GET', url: '/series/:seriesId', tag: 'series', auth: 'user', params: seriesParams,
    summary: 'A series you run: its games and the standings (wins, average placing, flags per game)',
    handler: ({ params, user }) => seriesView(ctx, params.seriesId, user.id),
  })
  r.define(app, {
    method: 'POST', url: '/series/:seriesId/stop', tag: 'series', auth: 'user', params: seriesParams, body: seriesStopRequest,
    // The GM check before the body is read: anyone else gets 403 whatever they send, never a 400.
    access: ({ params, viewer }) => { seriesOfGm(ctx, params.seriesId ?? '', viewer.user!.id) },
    summary: 'Stop a series you run: after the game in progress ("after-game") or now, abandoning that game ("now"); answers the series as GET does',
    handler: ({ params, user, body }) => {
      stopSeries(ctx, params.seriesId, user.id, body.when, body.reason)
      return seriesView(ctx, params.seriesId, user.id)
    },
  })
}
