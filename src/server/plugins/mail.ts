// Mail delivery for the app: picks the transport (SMTP_URL, or .eml files when unset) and runs
// the outbox worker. The outbox itself is written by the services, inside their transactions.
import { join } from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { pictureFromDatabase, type ComposeDeps } from '../mail/compose.js'
import { preferencesRepository } from '../mail/preferences.js'
import { fileTransport, smtpTransport, type MailTransport } from '../mail/transport.js'
import { deliverDueMail } from '../mail/worker.js'
import type { ServiceContext } from '../services/context.js'

const DAY_MS = 24 * 60 * 60_000
const BATCH = 100
const MAX_BATCHES = 20
const BUDGET_MS = 4_000

export function chooseTransport(smtpUrl: string | undefined, dataDir: string, log: FastifyBaseLogger): MailTransport {
  return smtpUrl ? smtpTransport(smtpUrl) : fileTransport(join(dataDir, 'outbox'), (line) => log.info(line))
}

/** `budgetMs`: real time one deliver() call may take (tests of the batching pass Infinity, so no test depends on speed). */
export function mailer(ctx: ServiceContext, transport: MailTransport, from: string, baseUrl: string, log: FastifyBaseLogger, budgetMs = BUDGET_MS) {
  const compose: ComposeDeps = {
    from, domain: new URL(baseUrl).hostname || 'botwars.local', link: ctx.link, prefs: preferencesRepository(ctx.db),
    picture: (request) => pictureFromDatabase(ctx, request),
  }
  let running: Promise<number> | null = null
  let stopped = false
  /**
   * Batches of BATCH while each comes back full (a backlog), at most MAX_BATCHES or about
   * BUDGET_MS of real time per call, so the clockwork's next tick is not held up for long.
   */
  const deliverBatches = async () => {
    const started = performance.now()
    let total = 0
    for (let batch = 0; batch < MAX_BATCHES && !stopped; batch++) {
      const sent = await deliverDueMail({ outbox: ctx.outbox, transport, compose, log }, ctx.now, BATCH, () => stopped)
      total += sent
      if (sent < BATCH || performance.now() - started > budgetMs) break
    }
    return total
  }
  return {
    transport,
    /** Sends what is due; overlapping calls share one run. */
    deliver(): Promise<number> {
      running ??= deliverBatches().finally(() => { running = null })
      return running
    },
    /**
     * Deletes mail sent more than `retentionDays` ago, at most `limit` rows a call (the clockwork
     * calls it every tick, so a backlog goes in bounded steps). Unsent mail is kept.
     */
    prune(retentionDays: number, limit = 500): number {
      return ctx.outbox.pruneSent(ctx.now() - retentionDays * DAY_MS, limit)
    },
    /** Shutting down: a run in progress ends after the message it is sending; no new run sends anything. */
    stop() { stopped = true },
  }
}
export type Mailer = ReturnType<typeof mailer>
