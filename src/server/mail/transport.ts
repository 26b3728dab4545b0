// Where mail goes: through SMTP when SMTP_URL is set, otherwise into .eml files under
// <data dir>/outbox/ with the subject and links logged, so a GM can run a game with no mail server.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import nodemailer from 'nodemailer'

export interface OutgoingMail {
  id: number; from: string; to: string; subject: string; text: string; messageId: string
  html?: string
  replyTo?: string
  inReplyTo?: string
  references?: string
  headers?: Record<string, string>
  attachments?: { filename: string; content: Buffer; cid: string; contentType: string }[]
}

/** The message as nodemailer takes it: multipart/alternative (text, then HTML), related to its inline picture. */
function message(mail: OutgoingMail) {
  return {
    from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, messageId: mail.messageId,
    replyTo: mail.replyTo, inReplyTo: mail.inReplyTo, references: mail.references, headers: mail.headers, attachments: mail.attachments,
  }
}

export interface MailTransport {
  /** Resolves only once the message is accepted (by the SMTP server, or written to disk). */
  send(mail: OutgoingMail): Promise<void>
  close(): void
}

/** A pooled connection left idle this long is closed (the next message opens a new one). */
const SMTP_IDLE_MS = 1_000

export function smtpTransport(url: string): MailTransport {
  // Pooled: one SMTP session carries many messages (8.7 ms a message against a local server,
  // against 109 ms with a new connection and handshake for each; docs/performance.md problem 4).
  // A connection the server drops is replaced for the next message; a message is still marked
  // sent only once the server accepted it. The pool is closed once idle, so no connection is
  // held open between the clockwork's ticks (or keeps a mail server from shutting down).
  let pool: ReturnType<typeof createPool> | null = null
  let idle: NodeJS.Timeout | null = null
  // Every wait of a send ends well before the outbox lease (worker.ts LEASE_MS, 2 minutes): a send
  // still in flight when its lease ran out would be claimed and sent again by another worker. The
  // defaults wait up to 10 minutes for a silent server.
  const createPool = () => nodemailer.createTransport({ url, pool: true, maxConnections: 2, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 45_000 })
  const closePool = () => {
    if (idle) clearTimeout(idle)
    idle = null
    pool?.close()
    pool = null
  }
  return {
    async send(mail) {
      if (idle) clearTimeout(idle)
      idle = null
      pool ??= createPool()
      try {
        await pool.sendMail(message(mail))
      } finally {
        if (pool) {
          if (idle) clearTimeout(idle)
          idle = setTimeout(closePool, SMTP_IDLE_MS)
          idle.unref()
        }
      }
    },
    close: closePool,
  }
}

export function fileTransport(dir: string, log: (line: string) => void): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  // The messages hold sign-in links and hands: only the owner may read them.
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return {
    async send(mail) {
      const info = await builder.sendMail(message(mail))
      const file = join(dir, `${String(mail.id).padStart(6, '0')}.eml`)
      writeFileSync(file, info.message as Buffer, { mode: 0o600 })
      const links = mail.text.match(/https?:\/\/\S+/g) ?? []
      log(`mail to ${mail.to}: ${mail.subject}${links.length ? ` — ${links.join(' ')}` : ''} (${file})`)
    },
    close: () => {},
  }
}
