// A player's turn mail carries the seat's hand (and its reply address). Mail not sent yet when the
// player loses the seat, held for their daily digest or queued while the mail server is down, went
// out after all: the next digest, or the outbox worker, delivered the seat's current, unpublished
// hand to the player who left while a newcomer (or a bot) played it. Message mail already dropped
// readers who left (mailPendingMessages); the turn mail is now withdrawn in the transaction that
// takes the seat away (services/gone-robot.ts, mail/withdraw.ts), as a rollback withdraws its mail.
import { afterEach, beforeEach, expect, it } from 'vitest'
import { formatCard } from '../../src/engine/deck.js'
import type { Card } from '../../src/engine/types.js'
import { cardLabel } from '../../src/render/cards.js'
import { preferencesRepository } from '../../src/server/mail/preferences.js'
import { DAY, HOUR, PLAYERS, setUpGame, testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
beforeEach(async () => { t = await testApp() })
afterEach(async () => { await t.close() })

const ANN = PLAYERS[0]!.email
const BOB = PLAYERS[1]!.email

/** A game of Ann (P1) and Bob (P2), turn 1 open for five days; Ann reads mail as `annMode`. */
async function openTurn(annMode: 'every' | 'digest') {
  const { gm, gameId, players } = await setUpGame(t.app, PLAYERS.slice(0, 2), { turnLengthHours: 120, reviewWindowHours: 24 })
  t.app.services.write(() => preferencesRepository(t.app.services.db).setMode(ANN, annMode, t.clock.now))
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: 'go' })).status).toBe(200)
  const turn = t.app.services.turns.current(gameId)!
  const hands = JSON.parse(turn.dealt_state_json).hands as Record<string, Card[]>
  const labels = (player: string) => hands[player]!.map((c) => cardLabel(formatCard(c)))
  return { gm, ann: players[0]!, gameId, turn, annHand: labels('P1'), bobHand: labels('P2') }
}

/** Whether a text shows at least a program's worth (five) of these cards. */
const showsHand = (text: string, hand: readonly string[]) => hand.filter((label) => text.includes(label)).length >= 5

/** Every mail to `email` still to go or gone, with the parts held for their digest. */
function everythingTo(email: string) {
  const outbox = t.app.services.outbox.all().filter((m) => m.recipient.toLowerCase() === email)
  const held = t.app.services.db.prepare('SELECT kind, body FROM mail_digest WHERE lower(recipient) = ?').all(email) as { kind: string; body: string }[]
  return [...outbox, ...held]
}

it('sends a replaced digest reader no hand of the seat they no longer hold', async () => {
  const { gm, gameId, annHand, bobHand } = await openTurn('digest')
  expect(everythingTo(ANN).filter((m) => showsHand(m.body, annHand)).map((m) => m.kind)).toEqual(['hand']) // held for her digest

  // An hour later the GM gives Ann's seat to a newcomer; turn 1 is still open, with this hand.
  t.clock.now += HOUR
  expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/1/replace`, { reason: 'gone quiet', email: 'newcomer@example.org' })).status).toBe(200)

  // The day passes (turn 1 still open); the clockwork makes the digests that are due, the worker sends.
  t.clock.now += DAY + HOUR
  t.app.runDueWork()
  await t.app.mailer.deliver()
  expect(t.app.services.turns.current(gameId)!.status).toBe('open')
  expect(everythingTo(ANN).filter((m) => showsHand(m.body, annHand)).map((m) => m.kind)).toEqual([])
  // Bob, who kept his seat, has his turn mail as before.
  expect(everythingTo(BOB).filter((m) => showsHand(m.body, bobHand)).map((m) => [m.kind, 'status' in m ? m.status : 'held'])).toEqual([['hand', 'sent']])
})

it('withdraws the turn mail still queued for a player the GM removes, and tells them they were removed', async () => {
  // The mail server is down: the turn mails wait in the outbox (nothing delivered yet).
  const { gm, gameId, annHand, bobHand } = await openTurn('every')
  expect(everythingTo(ANN).filter((m) => showsHand(m.body, annHand)).map((m) => [m.kind, 'status' in m && m.status])).toEqual([['hand', 'pending']])

  expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/1/remove`, { reason: 'gone quiet' })).status).toBe(200)
  await t.app.mailer.deliver()
  const toAnn = everythingTo(ANN)
  expect(toAnn.filter((m) => showsHand(m.body, annHand)).map((m) => m.kind)).toEqual([])
  expect(toAnn.map((m) => m.kind)).toContain('seat-left')
  expect(everythingTo(BOB).filter((m) => showsHand(m.body, bobHand)).map((m) => [m.kind, 'status' in m && m.status])).toEqual([['hand', 'sent']])
})

it('makes a digest not sent yet again without the hand of a player who withdrew, keeping the rest', async () => {
  const { gm, ann, gameId, annHand } = await openTurn('digest')
  expect((await gm.call('POST', `/api/v1/games/${gameId}/messages`, { body: 'Good luck, robots.' })).status).toBe(201)
  t.app.runDueWork() // the message notice is held for Ann's digest too
  // A day later her digest is made (the hand and the message), but the mail server is down.
  t.clock.now += DAY + HOUR
  expect(t.app.runDueWork().digests).toBe(1)
  const digest = () => t.app.services.outbox.all().find((m) => m.kind === 'digest' && m.recipient === ANN)
  expect(digest()!.status).toBe('pending')
  expect(showsHand(digest()!.body, annHand)).toBe(true)

  expect((await ann.call('POST', `/api/v1/games/${gameId}/withdraw`, { reason: 'too busy' })).status).toBe(200)
  await t.app.mailer.deliver()
  const sent = digest()!
  expect(sent.status).toBe('sent')
  expect(showsHand(sent.body, annHand)).toBe(false)
  expect(sent.body).toContain('Good luck, robots.')
})
