// Builds the application (no listening here: server.ts listens, tests use app.inject).
import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import type { Config } from './config.js'
import { loggerWithRedactedUrls } from './plugins/log-redaction.js'
import { boardFileProblems } from './services/games.js'
import { installErrorHandling } from './errors.js'
import { openDatabase, type Db } from './plugins/db.js'
import { startCheckpointer } from './plugins/checkpointer.js'
import { startBotPlanner } from './plugins/bot-planner.js'
import { botPlanning, planDueTurns, plansPending, plansSettled, planWaitingTurns, type BotPlanHooks } from './services/bot-plans.js'
import { closeTurn } from './services/turns.js'
import { chooseTransport, mailer, type Mailer } from './plugins/mail.js'
import { registerSecurityHeaders } from './plugins/security-headers.js'
import { registerSessions } from './plugins/session.js'
import { SIGN_IN_REQUESTS_PER_MINUTE, signInLimits } from './plugins/sign-in-limits.js'
import { authRoutes } from './routes/api/auth.js'
import { botRoutes } from './routes/api/bots.js'
import { gameRoutes } from './routes/api/games.js'
import { gmRoutes } from './routes/api/gm.js'
import { openApiDocument } from './routes/api/openapi.js'
import { publicRoutes } from './routes/api/public.js'
import { turnRoutes } from './routes/api/turns.js'
import { routeRegistry } from './routes/define.js'
import { drawingFingerprint } from './pages/drawing-fingerprint.js'
import { pagesPlugin } from './pages/index.js'
import type { MailTransport } from './mail/transport.js'
import { SIGN_IN_MAILS_PER_HOUR, checkedViewer } from './services/auth.js'
import { createContext, type ServiceContext } from './services/context.js'
import { DUE_WORK_LIMIT, runDueWork } from './services/scheduler.js'
import { advanceSeries } from './services/series.js'
import type { LiveHub } from './live/hub.js'
import { deliverWebhooks, webhookPolicy, type WebhookPolicy } from './services/webhooks.js'

export const API_PREFIX = '/api/v1'
export const BODY_LIMIT = 1024 * 1024

export interface AppOptions {
  config: Pick<Config, 'databasePath' | 'dataDir' | 'smtpUrl' | 'baseUrl' | 'sessionSecret' | 'mailFrom' | 'mailDomain' | 'boardCacheSquares' | 'trustProxy'>
  /** The clock every deadline is computed with; tests drive it. */
  now?: () => number
  boardsDir?: string
  transport?: MailTransport
  crashPoint?: (name: string) => void
  newSeed?: () => number
  logger?: FastifyServerOptions['logger']
  /** Real time one mailer.deliver() call may take (plugins/mail.ts); tests of batching lift it. */
  mailBudgetMs?: number
  /** Sign-in link requests per address of origin per minute (the page and the API together). */
  loginRateLimit?: number
  /** Sign-in mails per recipient address per hour (default SIGN_IN_MAILS_PER_HOUR). */
  signInMailsPerHour?: number
  /** Which webhook URLs may be called (issue 15); from NODE_ENV and BOTWARS_WEBHOOK_ALLOW_PRIVATE by default. */
  webhookPolicy?: WebhookPolicy
  /** How often the live pages' event streams send a heartbeat comment (default live/routes.ts HEARTBEAT_MS); tests shorten it. */
  liveHeartbeatMs?: number
  /** Test-only: hooks into the planning of bot seats' programs (services/bot-plans.ts). */
  botPlanHooks?: BotPlanHooks
  /** The fingerprint of the code that draws pictures (default: pages/drawing-fingerprint.ts's, of the code running); tests play a new release with another. */
  pictureFingerprint?: string
  /** Test-only: told of every route as it is registered, so a test can check that each page has its accessibility check (test/browser/a11y-routes.test.ts). */
  onRoute?: (route: { method: string | string[]; url: string }) => void
}

declare module 'fastify' {
  interface FastifyInstance {
    services: ServiceContext
    db: Db
    mailer: Mailer
    /** Closes due turns, publishes due drafts, queues reminders (see services/scheduler.ts). */
    runDueWork(): ReturnType<typeof runDueWork>
    /** Sends due webhook deliveries (services/webhooks.ts); its own timer in server.ts, apart from the tick. */
    deliverWebhooks(): Promise<number>
    /** Plans the bot seats of the turns due to close, before runDueWork closes them (services/bot-plans.ts). */
    planDueBots(): Promise<void>
    /** Waits until no bot plan is under way (tests that drive the clockwork by hand). */
    botsPlanned(): Promise<void>
    /** At start-up: plans the bot seats of open turns left without a program by a stop or a crash. */
    planWaitingBots(): Promise<void>
    /** Starts the next game of each series whose game ended, or ends the series (services/series.ts). */
    advanceSeries(): number
    /** The live pages' hub (live/hub.ts), set when the pages are registered: who follows, and a look now instead of at the next tick. */
    live: LiveHub | null
  }
}

/** Trusts the `hops` proxies nearest the server: the client is the address the farthest of them saw. */
const hopsTrusted = (hops: number) => (_address: string, hop: number) => hop < hops

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerWithRedactedUrls(options.logger ?? false),
    // Behind a proxy: who the client is comes from X-Forwarded-For, for the proxies trusted (TRUST_PROXY).
    // A number of hops becomes the function proxy-addr makes of one (the types take no number).
    trustProxy: typeof options.config.trustProxy === 'number' ? hopsTrusted(options.config.trustProxy) : options.config.trustProxy ?? false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // On close: drop idle keep-alive connections at once (server.ts drops busy ones after a grace period).
    forceCloseConnections: 'idle',
  })
  // Before any route: a hook added on the root is inherited by every plugin registered after it.
  if (options.onRoute) app.addHook('onRoute', options.onRoute)
  const db = openDatabase(options.config.databasePath)
  const checkpointer = options.config.databasePath === ':memory:' ? null : startCheckpointer(db, options.config.databasePath, (message) => app.log.warn(message))
  // Bots plan in a worker thread (services/bot-plans.ts); a practice turn they complete is closed here.
  const planner = startBotPlanner((message) => app.log.warn(message))
  const planning = botPlanning(planner, app.log, (turnId) => closeTurn(ctx, turnId), options.botPlanHooks)
  const ctx: ServiceContext = createContext({
    db, now: options.now ?? Date.now, baseUrl: options.config.baseUrl,
    boardsDir: options.boardsDir ?? fileURLToPath(new URL('../../boards/', import.meta.url)),
    crashPoint: options.crashPoint,
    newSeed: options.newSeed,
    mailDomain: options.config.mailDomain,
    boardCacheSquares: options.config.boardCacheSquares,
    botPlanning: planning,
  })
  for (const { file, problem } of boardFileProblems(ctx)) app.log.warn(`boards/${file} is left out of the gallery: ${problem}`)
  const transport = options.transport ?? chooseTransport(options.config.smtpUrl, options.config.dataDir, app.log)
  app.decorate('db', db)
  app.decorate('services', ctx)
  app.decorate('mailer', mailer(ctx, transport, options.config.mailFrom, options.config.baseUrl, app.log, options.mailBudgetMs))
  app.decorate('runDueWork', () => runDueWork(ctx, app.log))
  app.decorate('planDueBots', () => planDueTurns(ctx, DUE_WORK_LIMIT))
  app.decorate('planWaitingBots', () => planWaitingTurns(ctx))
  app.decorate('botsPlanned', () => plansSettled(ctx))
  const policy = options.webhookPolicy ?? webhookPolicy()
  app.decorate('deliverWebhooks', () => deliverWebhooks(ctx, { policy, log: app.log }))
  app.decorate('advanceSeries', () => advanceSeries(ctx, app.log))
  // A change to a game answers once the bots it asked to play have planned, as when they planned in
  // its transaction: a practice submission shows the next turn with the bots' programs in. Others'
  // requests meanwhile are served, the planning being in the worker thread.
  // Not an async hook: every submission passes here, and almost always no plan is under way.
  app.addHook('onSend', (request, _reply, payload, done) => {
    const gameId = (request.params as { gameId?: unknown } | undefined)?.gameId
    if (request.method === 'GET' || typeof gameId !== 'string' || !plansPending(ctx, gameId)) return done(null, payload)
    plansSettled(ctx, gameId).then(() => done(null, payload), (err: Error) => done(err))
  })
  app.addHook('onClose', async () => {
    // Plans in progress get a grace period to be stored (the database still open), then are abandoned.
    await planner.stop()
    transport.close()
    await checkpointer?.stop()
    db.close()
  })

  installErrorHandling(app, (viewer) => { checkedViewer(ctx, viewer) })
  registerSecurityHeaders(app, options.config.baseUrl.startsWith('https:'))
  await registerSessions(app, ctx, options.config.sessionSecret, options.config.baseUrl.startsWith('https:'))
  await app.register(rateLimit, { global: false })
  const signIn = signInLimits(app, options.loginRateLimit ?? SIGN_IN_REQUESTS_PER_MINUTE, options.signInMailsPerHour ?? SIGN_IN_MAILS_PER_HOUR)

  const registry = routeRegistry()
  await app.register(async (api) => {
    // Answers carry hands, programs and addresses: no cache (browser or proxy) may keep them.
    api.addHook('onRequest', (_request, reply, done) => {
      reply.header('cache-control', 'no-store')
      done()
    })
    authRoutes(api, ctx, registry, signIn)
    gameRoutes(api, ctx, registry)
    turnRoutes(api, ctx, registry)
    gmRoutes(api, ctx, registry)
    publicRoutes(api, ctx, registry)
    botRoutes(api, ctx, registry, policy)
    const document = openApiDocument(registry.routes, API_PREFIX, options.config.baseUrl)
    api.get('/openapi.json', async () => document)
  }, { prefix: API_PREFIX })
  app.decorate('live', null)
  await app.register(pagesPlugin, {
    ctx, secure: options.config.baseUrl.startsWith('https:'), signIn, liveHeartbeatMs: options.liveHeartbeatMs,
    onLiveHub: (hub) => { app.live = hub },
    pictureFingerprint: options.pictureFingerprint ?? drawingFingerprint(),
    csrfKey: createHash('sha256').update(`csrf:${options.config.sessionSecret}`).digest('base64url'),
  })
  return app
}
