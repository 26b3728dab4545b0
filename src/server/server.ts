// The only file that listens. Reads the environment, builds the app, runs the clockwork (due
// turns, mail) every few seconds, and shuts down gracefully on SIGINT/SIGTERM.
import { browserBundle } from '../browser/build.js'
import { buildApp } from './app.js'
import { ConfigError, loadConfig, type Config } from './config.js'
import { startInbound } from './inbound/index.js'

const TICK_MS = 5_000
const WEBHOOK_TICK_MS = 1_000
/** On shutdown: how long requests in progress (and a mail being sent) get before their connections are dropped. */
const GRACE_MS = 5_000

/** The configuration read, for naming what to change when start-up fails (startupProblem). */
let config: Config | undefined

async function main() {
  // Whatever this process creates (database, outbox, secrets, backups) is for its owner only;
  // the files that matter are also made 0600 explicitly (plugins/db.ts, mail/transport.ts).
  process.umask(0o077)
  let c: Config
  try {
    c = config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }
  const app = await buildApp({ config: c, logger: { level: c.logLevel ?? 'info' }, crashPoint: crashHook() })

  let stopping = false
  let tick: Promise<void> = Promise.resolve()
  // Each part of the tick apart: one that throws is logged and skips nothing after it (the mail
  // above all, sign-in links included).
  const step = async (name: string, part: () => unknown) => {
    try {
      await part()
    } catch (err) {
      app.log.error({ err }, `scheduled work failed: ${name}`)
    }
  }
  const work = async () => {
    if (stopping) return
    // The bots of turns about to close plan first, in the worker: the close then finds them in.
    await step('bot plans', () => app.planDueBots())
    await step('due turns', () => app.runDueWork())
    await step('series', () => app.advanceSeries())
    await step('mail', () => app.mailer.deliver())
    await step('mail retention', () => app.mailer.prune(c.mailRetentionDays))
  }
  const runTick = () => { tick = tick.then(work).catch((err: unknown) => app.log.error({ err }, 'scheduled work failed')) }
  const timer = setInterval(runTick, TICK_MS)
  // Webhooks (issue 15) on their own rounds, so a bot server that times out never delays the tick.
  // A round does not wait for the last one (it may be waiting on a slow bot server): rounds
  // overlap, and deliverWebhooks keeps their deliveries in flight to a fixed number.
  const webhookRounds = new Set<Promise<unknown>>()
  const webhookTimer = setInterval(() => {
    if (stopping) return
    const round: Promise<unknown> = app.deliverWebhooks()
      .catch((err: unknown) => app.log.error({ err }, 'webhook delivery failed'))
      .finally(() => webhookRounds.delete(round))
    webhookRounds.add(round)
  }, WEBHOOK_TICK_MS)

  // Runs before app.ts's own onClose hook (hooks run last-registered first), so the database is
  // closed only after the current tick: a claimed mail is marked sent, never left half-done.
  app.addHook('onClose', async () => {
    await Promise.race([Promise.all([tick, ...webhookRounds]), new Promise((r) => setTimeout(r, GRACE_MS).unref())])
  })

  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.log.info(`${signal}: stopping`)
    clearInterval(timer)
    clearInterval(webhookTimer)
    app.mailer.stop() // the tick ends after the message it is sending
    // app.close() stops listening at once, closes idle keep-alive connections (forceCloseConnections:
    // 'idle'), answers requests arriving on busy ones with 503 + Connection: close, and waits for
    // the requests in progress. A connection that never becomes idle (a client half-way through
    // sending a request, which Node would only drop at its 60-s headersTimeout) is dropped after
    // the grace period. All database work is synchronous, so no transaction is ever half-done.
    const force = setTimeout(() => {
      app.log.warn('connections still open after the grace period: closing them')
      app.server.closeAllConnections()
    }, GRACE_MS)
    force.unref()
    try {
      await app.close()
    } catch (err) {
      app.log.error({ err }, 'error while closing')
    }
    clearTimeout(force)
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  // Programs by reply (INBOUND_SMTP_PORT, IMAP_URL): stopped before the database closes.
  const inbound = await startInbound(app.services, c, app.log)
  app.addHook('onClose', () => inbound.close())
  await app.listen({ port: c.port, host: c.host })
  // The planning preview's bundle is built now (about a second, once per change of its sources),
  // not on the first player's request; a failure is logged and retried by that request.
  browserBundle().catch((err: unknown) => app.log.error({ err }, 'the browser bundle could not be built'))
  // Bot plans a stop or a crash left undone (services/bot-plans.ts), in the worker meanwhile.
  app.planWaitingBots().catch((err: unknown) => app.log.error({ err }, 'bot plans left from the last run failed'))
  runTick()
}

/**
 * Test-only: BOTWARS_CRASH_POINT=close-turn makes the process kill itself (SIGKILL, no clean-up)
 * at that point inside the transaction, so the crash test can prove closing is all-or-nothing.
 */
function crashHook(): ((name: string) => void) | undefined {
  const point = process.env.BOTWARS_CRASH_POINT
  if (!point) return undefined
  return (name) => {
    if (name === point) process.kill(process.pid, 'SIGKILL')
  }
}

/**
 * A failure to start that the operator can fix, in one line naming the variable to change; null for
 * anything else (printed whole). Under a supervisor that restarts the process, a line says what a
 * stack trace repeated every few seconds hides.
 */
function startupProblem(err: unknown, c: Config | undefined): string | null {
  const e = err as NodeJS.ErrnoException & { port?: number; address?: string; hostname?: string }
  const which = e.port !== undefined && e.port === c?.inboundSmtp?.port ? 'INBOUND_SMTP_PORT' : 'PORT'
  if (e.code === 'EADDRINUSE') return `${which} ${e.port ?? ''}: the address ${e.address ?? ''} is already in use by another program`
  if (e.code === 'EACCES' && e.syscall === 'listen') return `${which} ${e.port ?? ''}: not allowed to listen there (ports below 1024 need privileges)`
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return `HOST ${e.hostname ?? c?.host ?? ''}: no such host name`
  if (e.code === 'EADDRNOTAVAIL') return `HOST ${e.address ?? c?.host ?? ''}: this machine has no such address`
  if (e.code === 'SQLITE_NOTADB') return `DATABASE_PATH ${c?.databasePath ?? ''}: the file is not an SQLite database`
  if (e.code === 'SQLITE_CANTOPEN' || e.code === 'SQLITE_READONLY') return `DATABASE_PATH ${c?.databasePath ?? ''}: the database cannot be opened for writing (${e.code})`
  if (/^(default|invalid) level/i.test(e.message ?? '')) return `LOG_LEVEL: ${e.message}`
  return null
}

main().catch((err: unknown) => {
  console.error(`BotWars could not start: ${startupProblem(err, config) ?? (err instanceof Error ? err.stack ?? err.message : String(err))}`)
  process.exit(1)
})
