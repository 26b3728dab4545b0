// The only file that listens. Reads the environment, builds the app, runs the clockwork (due
// turns, mail) every few seconds, and shuts down gracefully on SIGINT/SIGTERM.
import { buildApp } from './app.js'
import { ConfigError, loadConfig } from './config.js'

const TICK_MS = 5_000

async function main() {
  let config
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }
  const app = await buildApp({ config, logger: { level: process.env.LOG_LEVEL ?? 'info' }, crashPoint: crashHook() })

  let stopping = false
  let tick: Promise<void> = Promise.resolve()
  const work = async () => {
    if (stopping) return
    app.runDueWork()
    await app.mailer.deliver()
  }
  const runTick = () => { tick = tick.then(work).catch((err: unknown) => app.log.error({ err }, 'scheduled work failed')) }
  const timer = setInterval(runTick, TICK_MS)

  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.log.info(`${signal}: stopping`)
    clearInterval(timer)
    // The database work is synchronous, so no transaction is ever half-done here; wait for the
    // current tick (a mail in flight) and the requests in progress, then close the database.
    await tick
    await app.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  await app.listen({ port: config.port, host: config.host })
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

void main()
