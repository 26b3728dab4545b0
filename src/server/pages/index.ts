// The web pages: server-rendered EJS (views/), forms that work without JavaScript, CSRF on every
// form, the board pictures and the legend. Registered by app.ts as one encapsulated plugin, so its
// error handler (HTML pages instead of JSON) and its CSRF hooks apply to these routes only.
//
// Every page reads through the same service functions as the JSON API (services/views.ts for
// what a viewer may see, services/games.ts and services/turns.ts for changes), so the secrecy
// rules live in one place.
import compress from '@fastify/compress'
import csrf from '@fastify/csrf-protection'
import formbody from '@fastify/formbody'
import view from '@fastify/view'
import ejs from 'ejs'
import type { FastifyInstance } from 'fastify'
import { fileURLToPath } from 'node:url'
import { csrfCookieName, formTokenOwner } from '../plugins/session.js'
import type { SignInLimits } from '../plugins/sign-in-limits.js'
import { mailPages } from '../mail/pages.js'
import type { ServiceContext } from '../services/context.js'
import { authPages } from './auth.js'
import { gamePages } from './games.js'
import { gmPages } from './gm.js'
import type { LiveHub } from '../live/hub.js'
import { liveRoutes } from '../live/routes.js'
import { gmJobPages } from './gm-job.js'
import { installPageErrors, staticFiles, type PageKit, pageKit, unknownPages } from './kit.js'
import { picturePages } from './pictures.js'
import { seriesPages } from './series.js'
import { turnPages } from './turns.js'
import { watchPages } from './watch.js'

export const VIEWS_DIR = fileURLToPath(new URL('../../../views/', import.meta.url))

export interface PagesOptions {
  ctx: ServiceContext
  /** Cookies only over HTTPS (when BASE_URL is https). */
  secure: boolean
  signIn: SignInLimits
  /** Keys the form tokens' binding to the session (derived from the session secret). */
  csrfKey: string
  /** The fingerprint of the code that draws pictures (drawing-fingerprint.ts). */
  pictureFingerprint: string
  /** The live streams' heartbeat interval (live/routes.ts). */
  liveHeartbeatMs?: number | undefined
  /** Told the live pages' hub once it exists (app.ts keeps it as `app.live`). */
  onLiveHub?: (hub: LiveHub) => void
}

export async function pagesPlugin(app: FastifyInstance, options: PagesOptions): Promise<void> {
  const { ctx } = options
  // Pages, pictures and static files go out gzipped to browsers that ask (a board picture and its
  // page shrink about tenfold); the JSON API, outside this plugin, is left as it was. Event
  // streams are never compressed (the plugin leaves text/event-stream alone), so they flow at once.
  await app.register(compress, { encodings: ['gzip'], threshold: 1024 })
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) await app.register(formbody)
  await app.register(view, {
    engine: { ejs },
    root: VIEWS_DIR,
    layout: 'layouts/main.ejs',
    defaultContext: {},
    // Templates do not change while the server runs: compile each page and each include()d
    // partial once (EJS caches includes by file name with cache: true; production: true makes
    // @fastify/view keep the compiled pages). Recompiling per request was a quarter of a turn
    // report page's time (docs/performance.md problem 2).
    options: { rmWhitespace: false, cache: true },
    production: true,
  })
  // The form token is bound to the session it was made for (csrf userInfo: the session id, or
  // "signed-out"), so a token and form cookie an attacker got for their own session do not
  // work with a victim's session cookie.
  await app.register(csrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: csrfCookieName(options.secure),
    cookieOpts: { signed: true, httpOnly: true, sameSite: 'strict', path: '/', secure: options.secure },
    csrfOpts: { hmacKey: options.csrfKey },
    getUserInfo: (request) => formTokenOwner(request),
    getToken: (request) => (request.body as Record<string, string> | undefined)?._csrf,
  })
  // API tokens open the JSON API of one game only: on the pages a request with one is signed out.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.viewer.tokenGameId !== undefined) request.viewer = { user: null }
    done()
  })
  const kit: PageKit = pageKit(app, ctx, VIEWS_DIR, options.pictureFingerprint)
  installPageErrors(app, kit)
  unknownPages(app, kit)
  staticFiles(app, VIEWS_DIR)
  authPages(app, kit, options.signIn)
  const games = gamePages(app, kit)
  gmJobPages(app, kit, games)
  turnPages(app, kit)
  gmPages(app, kit)
  watchPages(app, kit)
  picturePages(app, kit)
  seriesPages(app, kit)
  options.onLiveHub?.(await liveRoutes(app, ctx, options.liveHeartbeatMs))
  mailPages(app, kit)
}
