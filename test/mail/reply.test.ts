// Programs by reply through the built-in SMTP listener (a real SMTP conversation on 127.0.0.1,
// nodemailer as the players' mail program): a whole turn played by reply by every player, the
// confirmations and refusals, and the hostile cases first (strangers, loops, replays, late,
// floods, bad MIME, 10 MB).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardLabel } from '../../src/render/cards.js'
import type { InboundSmtp } from '../../src/server/inbound/smtp-listener.js'
import { inboundStore } from '../../src/server/inbound/store.js'
import { SENDER_LIMIT_PER_HOUR } from '../../src/server/inbound/handle.js'
import { PLAYERS, type Client } from '../server/helpers.js'
import { mailsTo, replyAddressIn, replyWorld, sendToListener, type MailWorld } from './helpers.js'

let w: MailWorld
let inbound: InboundSmtp
let gameId: string
let players: Client[]
let close: () => Promise<void>
beforeAll(async () => { ({ w, inbound, gameId, players, close } = await replyWorld()) })
afterAll(async () => { await close() })

/** Sends raw or structured mail to the listener, as a player's mail program would. */
const send = (message: Parameters<typeof sendToListener>[1]) => sendToListener(inbound.port, message)

const replyTo = (email: string, turn = 1) => replyAddressIn(w.smtp, email, turn)
const hand = async (c: Client, turn = 1) => (await c.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json.me.hand as string[]
const submissions = (player: string) => w.t.app.services.db.prepare(
  'SELECT version, cards_json FROM submissions JOIN turns ON turns.id = submissions.turn_id WHERE turns.game_id = ? AND player_id = ? ORDER BY submissions.id').all(gameId, player) as { version: number; cards_json: string }[]
const answers = async (email: string) => { await w.t.app.mailer.deliver(); return mailsTo(w.smtp, email).filter((m) => /program is in|was not stored/.test(m.subject)) }

describe('hostile replies (written first)', () => {
  it('refuses mail for an unknown reply address at RCPT, before any data', async () => {
    await expect(send({ from: 'ann@example.org', to: `turn-${'a'.repeat(24)}@play.botwars.test`, text: 'FWD1:490' })).rejects.toMatchObject({ responseCode: 550 })
    await expect(send({ from: 'ann@example.org', to: 'gm@play.botwars.test', text: 'hello' })).rejects.toMatchObject({ responseCode: 550 })
  })

  it('refuses a program from another address; the refusal goes to the player only, the stranger gets nothing', async () => {
    const cards = (await hand(players[0]!)).slice(0, 5)
    await send({ from: 'mallory@evil.example', to: replyTo('ann@example.org'), subject: 'Re', text: cards.join('\n') })
    expect(submissions('P1')).toEqual([])
    expect(mailsTo(w.smtp, 'mallory@evil.example')).toEqual([])
    const refusal = (await answers('ann@example.org')).at(-1)!
    expect(refusal.text.replace(/\s+/g, ' ')).toMatch(/another address \(mallory@evil\.example\)/)
    for (const c of cards) expect(refusal.text).not.toContain(c) // nothing of the mail is sent on
  })

  it('never answers auto-replies, bounces or bulk mail (no loops), and stores nothing from them', async () => {
    const before = (await answers('ann@example.org')).length
    const cards = (await hand(players[0]!)).slice(0, 5).join('\n')
    const to = replyTo('ann@example.org')
    await send({ from: 'ann@example.org', to, text: cards, headers: { 'Auto-Submitted': 'auto-replied' } })
    await send({ from: 'ann@example.org', to, text: cards, headers: { Precedence: 'bulk' } })
    await send({ from: 'ann@example.org', to, text: cards, headers: { 'X-Autoreply': 'yes' } })
    await send({ from: 'ann@example.org', to, text: cards, envelope: { from: '', to: [to] } })
    await send({ from: 'MAILER-DAEMON@example.org', to, text: cards })
    expect(submissions('P1')).toEqual([])
    expect(await answers('ann@example.org')).toHaveLength(before)
    expect(inboundStore(w.t.app.services.db).all().filter((m) => m.outcome === 'loop')).toHaveLength(5)
  })

  it('does not crash or half-store on malformed MIME, odd encodings or attachments', async () => {
    const to = replyTo('bob@example.org')
    const broken = `From: bob@example.org\r\nTo: ${to}\r\nSubject: x\r\nContent-Type: multipart/mixed; boundary="zzz"\r\n\r\n--zzz\r\nContent-Type: text/plain; charset=x-unknown-charset\r\nContent-Transfer-Encoding: base64\r\n\r\n@@@not base64@@@\r\n--zz`
    await send({ envelope: { from: 'bob@example.org', to: [to] }, raw: broken })
    await send({ envelope: { from: 'bob@example.org', to: [to] }, raw: `From: bob@example.org\r\nTo: ${to}\r\nContent-Type: text/plain; charset=utf-16le\r\n\r\n\u0000\u0000\u00ff` })
    expect(submissions('P2')).toEqual([])
    const refusals = await answers('bob@example.org')
    expect(refusals.length).toBe(2)
    expect(refusals.every((m) => /no program found/.test(m.text))).toBe(true)
  })

  it('refuses a 10 MB mail at DATA', async () => {
    await expect(send({ from: 'bob@example.org', to: replyTo('bob@example.org'), text: 'FWD1:490\n' + 'x'.repeat(10 * 1024 * 1024) }))
      .rejects.toMatchObject({ responseCode: 552 })
    expect(submissions('P2')).toEqual([])
  })
})

describe('a whole turn played by reply', () => {
  it('stores each player\'s program as a web submission would and confirms it, restating what was stored', async () => {
    const [annHand, bobHand, cidHand] = [await hand(players[0]!), await hand(players[1]!), await hand(players[2]!)]
    // Ann: numbered lines, quoted turn mail below, a signature.
    await send({
      from: 'Ann <ann@example.org>', to: replyTo('ann@example.org'), subject: 'Re: Turn 1',
      text: `Here you go!\n\n${annHand.slice(0, 5).map((c, i) => `${i + 1}. ${c}`).join('\n')}\nsacrifice at 3\n\n-- \nAnn\n\nOn Mon, BotWars wrote:\n> ${annHand.slice(5).join('\n> ')}\n`,
    })
    // Bob: lower case, spaces instead of colons, registers out of order; HTML only.
    const bobLines = bobHand.slice(0, 5).map((c, i) => `r${i + 1}: ${c.toLowerCase().replace(':', ' ')}`)
    await send({ from: 'bob@example.org', to: replyTo('bob@example.org'), subject: 'Re: Turn 1', html: `<div>${[...bobLines].reverse().join('<br>')}</div><blockquote>${bobHand.slice(5).join('<br>')}</blockquote>` })
    // Cid: base64 ISO-8859-1 text with an attachment beside it.
    await send({
      from: 'cid@example.org', to: replyTo('cid@example.org'), subject: 'Réponse', text: `Voilà :\n${cidHand.slice(0, 5).join('\n')}\nreboot\n`,
      textEncoding: 'base64', attachments: [{ filename: 'notes.txt', content: 'FWD3:999 is not a card' }],
    })
    expect(JSON.parse(submissions('P1').at(-1)!.cards_json)).toEqual(annHand.slice(0, 5))
    expect(JSON.parse(submissions('P2').at(-1)!.cards_json)).toEqual(bobHand.slice(0, 5))
    expect(JSON.parse(submissions('P3').at(-1)!.cards_json)).toEqual(cidHand.slice(0, 5))

    for (const [i, p] of PLAYERS.entries()) {
      const confirmation = (await answers(p.email)).at(-1)!
      expect(confirmation.subject).toBe('Turn 1 of "Test game" — your program is in (version 1)')
      const own = [annHand, bobHand, cidHand][i]!
      // In the words the turn mail uses for them.
      own.slice(0, 5).forEach((c, r) => expect(confirmation.text).toContain(`${r + 1}. ${cardLabel(c)}`))
      // Nobody else's cards: a confirmation restates only the player's own program (secrecy).
      const others = [annHand, bobHand, cidHand].filter((_, j) => j !== i).flat()
      for (const c of others) expect(confirmation.text).not.toContain(cardLabel(c))
      expect(confirmation.headers.get('in-reply-to')).toBe(`<game-${gameId}@botwars.test>`)
    }
    expect((await answers('ann@example.org')).at(-1)!.text).toContain('sacrifice options at 3 HP')
    expect((await answers('cid@example.org')).at(-1)!.text).toContain('reboot next turn')

    // Every program in: the turn closes early and turn 2 is dealt, with new reply addresses.
    expect(w.t.app.runDueWork().closed).toBe(1)
    await w.t.app.mailer.deliver()
    expect(replyTo('ann@example.org', 2)).not.toBe(replyTo('ann@example.org', 1))
  })

  it('refuses a bad program naming the problem, and the previous program stands', async () => {
    const annHand = await hand(players[0]!, 2)
    const before = submissions('P1')
    const notMine = ['FWD1:490', 'FWD1:500', 'FWD1:510', 'FWD1:520', 'FWD1:530', 'FWD1:540', 'FWD1:550', 'FWD1:560'].find((c) => !annHand.includes(c))!
    await send({ from: 'ann@example.org', to: replyTo('ann@example.org', 2), text: [notMine, ...annHand.slice(1, 5)].join('\n') })
    const refusal = (await answers('ann@example.org')).at(-1)!
    expect(refusal.subject).toBe('Turn 2 of "Test game" — your mail was not stored')
    expect(refusal.text).toContain(notMine)
    expect(submissions('P1')).toEqual(before)
    await send({ from: 'ann@example.org', to: replyTo('ann@example.org', 2), text: 'sacrifice at 99' })
    expect((await answers('ann@example.org')).at(-1)!.text).toMatch(/sacrificeAt/)
    expect(submissions('P1')).toEqual(before)
  })

  it('handles a replayed mail once, and refuses a late one politely', async () => {
    const annHand = await hand(players[0]!, 2)
    const message = { from: 'ann@example.org', to: replyTo('ann@example.org', 2), text: annHand.slice(0, 5).join('\n'), messageId: '<replayed-1@example.org>' }
    await send(message)
    await send(message)
    expect(submissions('P1').filter((s) => s.cards_json === JSON.stringify(annHand.slice(0, 5)))).toHaveLength(1)
    // Late: turn 1's address after turn 1 closed.
    const before = submissions('P1')
    await send({ from: 'ann@example.org', to: replyTo('ann@example.org', 1), text: 'FWD1:490' })
    const late = (await answers('ann@example.org')).at(-1)!
    expect(late.subject).toBe('Turn 1 of "Test game" — your mail was not stored')
    expect(late.text).toMatch(/turn 1 is closed/)
    expect(submissions('P1')).toEqual(before)
  })

  it('accepts another sender when the GM allowed it, and answers the player\'s own address', async () => {
    w.t.app.services.db.prepare('UPDATE games SET reply_from_any = 1 WHERE id = ?').run(gameId)
    const bobHand = await hand(players[1]!, 2)
    await send({ from: 'bob.at.work@example.com', to: replyTo('bob@example.org', 2), text: bobHand.slice(0, 5).join('\n') })
    expect(JSON.parse(submissions('P2').at(-1)!.cards_json)).toEqual(bobHand.slice(0, 5))
    expect((await answers('bob@example.org')).at(-1)!.subject).toMatch(/your program is in/)
    expect(mailsTo(w.smtp, 'bob.at.work@example.com')).toEqual([])
    w.t.app.services.db.prepare('UPDATE games SET reply_from_any = 0 WHERE id = ?').run(gameId)
  })

  it('drops a flood from one sender to one reply address without answering it (rate limit)', async () => {
    const to = replyTo('cid@example.org', 2) // nothing was sent to it yet: the limit counts per sender and address
    const before = { messages: inboundStore(w.t.app.services.db).all().length, answers: (await answers('cid@example.org')).length }
    for (let i = 0; i < SENDER_LIMIT_PER_HOUR + 2; i++) await send({ from: 'cid@example.org', to, text: 'hello' })
    const outcomes = inboundStore(w.t.app.services.db).all().slice(before.messages).map((m) => m.outcome)
    expect(outcomes.filter((o) => o === 'rate-limited')).toHaveLength(2)
    expect((await answers('cid@example.org')).length - before.answers).toBe(SENDER_LIMIT_PER_HOUR)
  })
})
