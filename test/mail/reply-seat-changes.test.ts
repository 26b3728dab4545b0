// A reply token belongs to the person it was mailed to, not to the seat. When the GM gives a seat
// to someone else in the middle of a turn, the removed player still holds the turn mail and its
// reply address; in a game that takes programs by reply from any address (replyFromAnyAddress),
// that address alone used to be enough to program the newcomer's robot, and the newcomer was mailed
// a confirmation of a program they never sent. Written first, against a real SMTP conversation.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSmtpListener, type InboundSmtp } from '../../src/server/inbound/smtp-listener.js'
import { replyTokens, tokenOf } from '../../src/server/inbound/tokens.js'
import { acceptInvitation, signIn, type Client } from '../server/helpers.js'
import { firstCards, mailsTo, mailWorld, replyAddressIn, sendToListener, startedGame, type MailWorld } from './helpers.js'

let w: MailWorld
let inbound: InboundSmtp
let gameId: string
let gm: Client, bob: Client
const silent = { warn: () => {} }

beforeAll(async () => {
  w = await mailWorld()
  inbound = await startSmtpListener(w.t.app.services, { port: 0, host: '127.0.0.1', log: silent })
  const set = await startedGame(w.t.app, { replyFromAnyAddress: true, reviewWindowHours: 24 })
  ;({ gm, gameId } = set)
  bob = set.players[1]!
  await w.t.app.mailer.deliver()
})
afterAll(async () => { await inbound.close(); await w.close() })

const send = (from: string, to: string, text: string) => sendToListener(inbound.port, { from, to, subject: 'Re: turn 1', text })
const replyTo = (email: string) => replyAddressIn(w.smtp, email, 1)
const programsOf = (player: string) => w.t.app.services.db.prepare(
  'SELECT user_id, cards_json FROM submissions JOIN turns ON turns.id = submissions.turn_id WHERE turns.game_id = ? AND player_id = ?').all(gameId, player)
const lookUp = (address: string) => replyTokens(w.t.app.services.db).lookup(tokenOf(address)!)

it('refuses the reply address of a player whose seat the GM gave to someone else, and mails nobody', async () => {
  const bobAddress = replyTo('bob@example.org')
  const cards = await firstCards(bob, gameId, 1)
  expect(lookUp(bobAddress)).toMatchObject({ player_id: 'P2', turn_number: 1 }) // Bob's while he sits there

  expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/2/replace`, { email: 'dee@example.org', reason: 'Bob moved away' })).status).toBe(200)
  const dee = await acceptInvitation(w.t.app, { email: 'dee@example.org', name: 'Dee', colour: 'teal' })
  await w.t.app.mailer.deliver()
  const deeMailsBefore = mailsTo(w.smtp, 'dee@example.org').length

  expect(lookUp(bobAddress)).toBeUndefined()
  // Refused at RCPT, as an address that does not exist: from Bob's own address and from any other.
  for (const from of ['bob@example.org', 'bob.at.work@example.com']) {
    await expect(send(from, bobAddress, cards.join('\n'))).rejects.toMatchObject({ responseCode: 550 })
  }
  expect(programsOf('P2')).toEqual([])
  await w.t.app.mailer.deliver()
  expect(mailsTo(w.smtp, 'dee@example.org')).toHaveLength(deeMailsBefore)
  expect(mailsTo(w.smtp, 'bob.at.work@example.com')).toEqual([])
})

it('still takes a program by reply from a player who kept their seat', async () => {
  const ann = replyTo('ann@example.org')
  const annClient = await signIn(w.t.app, 'ann@example.org')
  const cards = await firstCards(annClient, gameId, 1)
  await send('ann@example.org', ann, cards.join('\n'))
  expect(programsOf('P1')).toHaveLength(1)
})

it('judges a token issued before tokens named their holder by when the seat was taken', () => {
  // Tokens stored before migration 041 have no holder: valid while the seat's player sat there when it was issued.
  const db = w.t.app.services.db
  const cid = replyTo('cid@example.org')
  db.prepare('UPDATE reply_tokens SET user_id = NULL').run()
  expect(lookUp(cid)).toMatchObject({ player_id: 'P3' })
  db.prepare("UPDATE seats SET joined_at = joined_at + 1 WHERE game_id = ? AND player_id = 'P3'").run(gameId)
  db.prepare('UPDATE reply_tokens SET created_at = (SELECT joined_at - 1 FROM seats WHERE game_id = ? AND player_id = ?)').run(gameId, 'P3')
  expect(lookUp(cid)).toBeUndefined()
})
