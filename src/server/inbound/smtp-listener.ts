// The built-in SMTP listener, for a host whose MX points at this server (INBOUND_SMTP_PORT).
// It takes mail for reply addresses only: an address without a known token is refused at RCPT
// (550), before any data; a message over MAX_INBOUND_BYTES is refused at DATA (552); slow or
// idle connections are dropped. A message is acknowledged (250) only after it was handled and
// committed, so a crash before that makes the sending server try again later, and a retry of a
// handled message is recognised by its Message-ID.
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server'
import type { ServiceContext } from '../services/context.js'
import { handleInbound, MAX_INBOUND_BYTES } from './handle.js'
import { replyTokens, tokenOf } from './tokens.js'

export interface InboundSmtp { port: number; close(): Promise<void> }

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code })

export async function startSmtpListener(ctx: ServiceContext, options: { port: number; host: string; log: { warn(o: object, m: string): void } }): Promise<InboundSmtp> {
  const server = new SMTPServer({
    name: ctx.mailDomain ?? 'botwars',
    banner: 'BotWars reply box',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    size: MAX_INBOUND_BYTES,
    maxClients: 50,
    socketTimeout: 60_000,
    closeTimeout: 10_000,
    onRcptTo(address, _session, callback) {
      const token = tokenOf(address.address)
      if (!token || !replyTokens(ctx.db).lookup(token)) return callback(smtpError(550, `5.1.1 <${address.address}>: no such mailbox`))
      callback()
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = []
      let size = 0
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size <= MAX_INBOUND_BYTES) chunks.push(chunk)
      })
      stream.on('end', () => {
        if (stream.sizeExceeded || size > MAX_INBOUND_BYTES) return callback(smtpError(552, `5.3.4 message too big: at most ${MAX_INBOUND_BYTES} bytes`))
        const envelope = {
          mailFrom: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
        }
        handleInbound(ctx, { raw: Buffer.concat(chunks), envelope }).then(() => callback(), (err: unknown) => {
          options.log.warn({ err }, 'inbound mail not handled; the sender will retry')
          callback(smtpError(451, '4.3.0 temporary failure, try again later'))
        })
      })
    },
  })
  // While it starts, a failure to listen rejects the start, and server.ts names INBOUND_SMTP_PORT
  // in one line; the server must still have a listener for it (an 'error' with none would throw).
  const starting = () => {}
  server.on('error', starting)
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  server.off('error', starting)
  server.on('error', (err) => options.log.warn({ err }, 'inbound SMTP connection error'))
  const address = server.server.address()
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
