// Shared by the mail tests: an app that writes reply addresses (MAIL_DOMAIN), a real SMTP server
// on 127.0.0.1 receiving what it sends, and small helpers to play a turn through the API.
import type { FastifyInstance } from 'fastify'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import { startSmtpListener, type InboundSmtp } from '../../src/server/inbound/smtp-listener.js'
import { PLAYERS, setUpGame, testApp, type Client, type TestApp } from '../server/helpers.js'
import { startSmtp, type Received } from '../server/smtp.js'

export const MAIL_DOMAIN = 'play.botwars.test'

export interface MailWorld { t: TestApp; smtp: Awaited<ReturnType<typeof startSmtp>>; close(): Promise<void> }

export async function mailWorld(options: Parameters<typeof testApp>[0] = {}): Promise<MailWorld> {
  const smtp = await startSmtp()
  const t = await testApp({ smtpUrl: smtp.url, ...options })
  t.app.services.mailDomain = MAIL_DOMAIN
  return { t, smtp, async close() { await t.close(); await smtp.close() } }
}

/** A started game of three players (Ann, Bob, Cid) and a GM who does not play. */
export async function startedGame(app: FastifyInstance, game: Record<string, unknown> = {}) {
  const set = await setUpGame(app, PLAYERS, { reviewWindowHours: 0, ...game })
  const started = await set.gm.call('POST', `/api/v1/games/${set.gameId}/start`)
  if (started.status !== 200) throw new Error(`start: ${started.status} ${started.text}`)
  return set
}

/** The first cards of the player's hand, one per unfused register: a legal program (R8). */
export async function firstCards(c: Client, gameId: string, turn: number): Promise<string[]> {
  const view = (await c.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json
  const robot = view.me.robot
  const wanted = robot.at && robot.mode !== 'destroyed' && !robot.rebooting ? 5 - Object.keys(robot.fused).length : 0
  return (view.me.hand as string[]).slice(0, wanted)
}

/** The player's first cards rotated by `by`: a legal program unlike the one sent before. */
export async function rotatedCards(c: Client, gameId: string, turn: number, by: number): Promise<string[]> {
  const cards = await firstCards(c, gameId, turn)
  return [...cards.slice(by % cards.length), ...cards.slice(0, by % cards.length)]
}

export const mailsTo = (smtp: MailWorld['smtp'], email: string) => smtp.received.filter((m) => m.to.includes(email))
/** The answers to programs by reply the player has had (confirmations and refusals), once the outbox is sent. */
export async function answersTo(w: MailWorld, email: string): Promise<Received[]> {
  await w.t.app.mailer.deliver()
  return mailsTo(w.smtp, email).filter((m) => /program is in|was not stored/.test(m.subject))
}
export const lastTo = (smtp: MailWorld['smtp'], email: string): Received => mailsTo(smtp, email).at(-1)!

/** The rows of a GM console's "Mail that could not be delivered" table (recipient, subject, why), and the whole page. */
export async function undeliveredOn(app: FastifyInstance, game: { gm: Client; gameId: string }) {
  const page = await app.inject({ method: 'GET', url: `/games/${game.gameId}/gm`, headers: { cookie: game.gm.headers.cookie! } })
  if (page.statusCode !== 200) throw new Error(`GM console: ${page.statusCode} ${page.body}`)
  const table = /<table class="undelivered">([\s\S]*?)<\/table>/.exec(page.body)?.[1] ?? ''
  const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#34;/g, '"').trim()
  const rows = [...table.matchAll(/<tr><td>([\s\S]*?)<\/td><td>([\s\S]*?)<\/td><td[^>]*>[\s\S]*?<\/td><td[^>]*>([\s\S]*?)<\/td><\/tr>/g)]
    .map((m) => ({ to: text(m[1]!), subject: text(m[2]!), why: text(m[3]!) }))
  return { body: page.body, rows }
}

/** Sends mail to the built-in SMTP listener on `port`, as a player's mail program would (raw or structured). */
export async function sendToListener(port: number, message: SendMailOptions & { envelope?: { from: string; to: string[] } }) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
  try {
    return await transport.sendMail(message)
  } finally {
    transport.close()
  }
}

/** The reply address of the latest mail of turn `turn` to `email` (the turn mail that deals the hand). */
export function replyAddressIn(smtp: MailWorld['smtp'], email: string, turn: number): string {
  const mail = mailsTo(smtp, email).filter((m) => m.subject.startsWith(`Turn ${turn} of`) && m.headers.has('reply-to')).at(-1)
  if (!mail) throw new Error(`no mail of turn ${turn} with a reply address to ${email}`)
  return mail.headers.get('reply-to') as string
}

/**
 * A mail world taking replies through the built-in SMTP listener on 127.0.0.1, and a started game of
 * three players whose turn mails (with their reply addresses) have gone out.
 */
export async function replyWorld() {
  const w = await mailWorld()
  const inbound: InboundSmtp = await startSmtpListener(w.t.app.services, { port: 0, host: '127.0.0.1', log: { warn: () => {} } })
  const set = await startedGame(w.t.app)
  await w.t.app.mailer.deliver()
  return { w, inbound, gameId: set.gameId, players: set.players, close: async () => { await inbound.close(); await w.close() } }
}

/** The cards of the newest program stored for `player` in game `gameId`, as stored (JSON), or undefined. */
export function latestCardsJson(t: TestApp, gameId: string, player: string): string | undefined {
  return (t.app.services.db.prepare(`SELECT cards_json FROM submissions JOIN turns ON turns.id = submissions.turn_id
    WHERE turns.game_id = ? AND player_id = ? ORDER BY submissions.id DESC LIMIT 1`).get(gameId, player) as { cards_json: string } | undefined)?.cards_json
}
