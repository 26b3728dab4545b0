// A real SMTP server on 127.0.0.1 for the mail tests (the smtp-server package), keeping what it
// accepts, each message parsed by mailparser (text and HTML parts, headers, attachments).
import { simpleParser, type Attachment } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface Received {
  to: string[]; subject: string; messageId: string; text: string; html: string
  /** Header names in lower case; structured values (addresses, dates) as their raw text. */
  headers: Map<string, string>
  attachments: Attachment[]
  raw: Buffer
}

async function decode(raw: Buffer, to: string[]): Promise<Received> {
  const parsed = await simpleParser(raw, { keepCidLinks: true })
  const headers = new Map<string, string>()
  for (const line of parsed.headerLines) headers.set(line.key, line.line.slice(line.line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim())
  return {
    to, subject: parsed.subject ?? '', messageId: parsed.messageId ?? '', text: (parsed.text ?? '').replace(/\r\n/g, '\n'),
    html: typeof parsed.html === 'string' ? parsed.html : '', headers, attachments: parsed.attachments, raw,
  }
}

/** Only the envelope and the top-level headers: for tests of volume, where parsing every part would be most of the time. */
function headersOnly(raw: Buffer, to: string[]): Received {
  const head = raw.subarray(0, raw.indexOf('\r\n\r\n')).toString('utf8').replace(/\r\n[ \t]+/g, ' ')
  const headers = new Map(head.split('\r\n').map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as [string, string]))
  return { to, subject: headers.get('subject') ?? '', messageId: headers.get('message-id') ?? '', text: '', html: '', headers, attachments: [], raw }
}

/**
 * `refuse`: recipients the server answers with a permanent 550 (no such mailbox), as real ones do.
 * `refuseData`: a message's own refusal text, if the server refuses it (550) once its data has
 * arrived, as a content filter does; real ones may quote the message in it.
 * `parse: false`: keep only the envelope and headers of each message (volume tests).
 * `hold`: called with each message's recipients once its data has arrived; the server answers only
 * when the promise it returns settles (accepted, or refused with its error): a send in flight.
 */
export interface SmtpOptions { refuse?: (address: string) => boolean; refuseData?: (mail: Received) => string | undefined; parse?: boolean; hold?: (to: string[]) => Promise<void> }

export async function startSmtp(port = 0, options: SmtpOptions = {}) {
  const received: Received[] = []
  let inService = true
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onConnect(_session, callback) {
      if (inService) return callback()
      callback(Object.assign(new Error('4.3.2 out of service, try again later'), { responseCode: 421 }))
    },
    onRcptTo(address, _session, callback) {
      if (!options.refuse?.(address.address)) return callback()
      callback(Object.assign(new Error(`5.1.1 <${address.address}>: no such mailbox`), { responseCode: 550 }))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address)
        const raw = Buffer.concat(chunks)
        ;(options.parse === false ? Promise.resolve(headersOnly(raw, to)) : decode(raw, to)).then(async (mail) => {
          await options.hold?.(to)
          const refusal = options.refuseData?.(mail)
          if (refusal !== undefined) return callback(Object.assign(new Error(refusal), { responseCode: 550 }))
          received.push(mail)
          callback()
        }).catch(callback)
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const address = server.server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  const smtp = {
    received, port: actualPort, url: `smtp://127.0.0.1:${actualPort}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    /**
     * A mail server that is down: open connections (the app's pooled one) are told 421 and closed,
     * as the server does when it shuts down, and every new one is answered 421 and closed. The port
     * stays taken, unlike close(): a port let go can be taken by another test's server (test files
     * run side by side) before the server comes back on it.
     */
    outOfService() {
      inService = false
      for (const connection of (server as unknown as { connections: Set<{ send(code: number, message: string): void; close(): void }> }).connections) {
        connection.send(421, 'Server shutting down')
        connection.close()
      }
    },
    /** Back in service as if started afresh on its port: with `next` options and nothing received yet. */
    restart(next: SmtpOptions = {}) {
      options = next
      received.length = 0
      inService = true
      return smtp
    },
  }
  return smtp
}
