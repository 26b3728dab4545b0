// A real SMTP server on 127.0.0.1 for the mail tests (the smtp-server package), keeping what it accepts.
import { SMTPServer } from 'smtp-server'

export interface Received { to: string[]; subject: string; messageId: string; text: string }

/** RFC 2047 encoded words (nodemailer encodes subjects with quotes or non-ASCII). */
function decodeWords(text: string): string {
  return text.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, data: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'))
}

function decode(raw: string): Received {
  const split = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
  let body = raw.slice(split + 4)
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? ''
  if (/quoted-printable/i.test(header('Content-Transfer-Encoding'))) {
    body = Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8')
  } else if (/base64/i.test(header('Content-Transfer-Encoding'))) {
    body = Buffer.from(body, 'base64').toString('utf8')
  }
  return { to: [], subject: decodeWords(header('Subject')), messageId: header('Message-ID'), text: body.replace(/\r\n/g, '\n') }
}

/** `refuse`: recipients the server answers with a permanent 550 (no such mailbox), as real ones do. */
export async function startSmtp(port = 0, options: { refuse?: (address: string) => boolean } = {}) {
  const received: Received[] = []
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onRcptTo(address, _session, callback) {
      if (!options.refuse?.(address.address)) return callback()
      callback(Object.assign(new Error(`5.1.1 <${address.address}>: no such mailbox`), { responseCode: 550 }))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        received.push({ ...decode(Buffer.concat(chunks).toString('utf8')), to: session.envelope.rcptTo.map((r) => r.address) })
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const address = server.server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  return {
    received, port: actualPort, url: `smtp://127.0.0.1:${actualPort}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
