// Programs by reply, started by server.ts when configured: the SMTP listener (INBOUND_SMTP_PORT)
// and/or the IMAP poller (IMAP_URL). Both hand each mail to handle.ts.
import type { Config } from '../config.js'
import type { ServiceContext } from '../services/context.js'
import { startImapPoller } from './imap-poller.js'
import { startSmtpListener } from './smtp-listener.js'

export async function startInbound(ctx: ServiceContext, config: Pick<Config, 'inboundSmtp' | 'imap'>, log: { warn(o: object, m: string): void; info(m: string): void }) {
  const smtp = config.inboundSmtp ? await startSmtpListener(ctx, { ...config.inboundSmtp, log }) : null
  if (smtp) log.info(`inbound SMTP for replies on ${config.inboundSmtp!.host}:${smtp.port}`)
  const imap = config.imap ? startImapPoller(ctx, { ...config.imap, log }) : null
  if (imap) {
    log.info(`polling IMAP for replies every ${config.imap!.pollMs / 1000} s`)
    void imap.poll()
  }
  return {
    async close() {
      await Promise.all([smtp?.close(), imap?.stop()])
    },
  }
}
