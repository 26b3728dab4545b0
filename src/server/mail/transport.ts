// Where mail goes: through SMTP when SMTP_URL is set, otherwise into .eml files under
// <data dir>/outbox/ with the subject and links logged, so a GM can run a game with no mail server.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import nodemailer from 'nodemailer'

export interface OutgoingMail { id: number; from: string; to: string; subject: string; text: string; messageId: string }

export interface MailTransport {
  /** Resolves only once the message is accepted (by the SMTP server, or written to disk). */
  send(mail: OutgoingMail): Promise<void>
  close(): void
}

export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url)
  return {
    async send(mail) {
      await transporter.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, messageId: mail.messageId })
    },
    close: () => transporter.close(),
  }
}

export function fileTransport(dir: string, log: (line: string) => void): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  mkdirSync(dir, { recursive: true })
  return {
    async send(mail) {
      const info = await builder.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, messageId: mail.messageId })
      const file = join(dir, `${String(mail.id).padStart(6, '0')}.eml`)
      writeFileSync(file, info.message as Buffer)
      const links = mail.text.match(/https?:\/\/\S+/g) ?? []
      log(`mail to ${mail.to}: ${mail.subject}${links.length ? ` — ${links.join(' ')}` : ''} (${file})`)
    },
    close: () => {},
  }
}
