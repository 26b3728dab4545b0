// The limits of programs by reply against forged senders (a real SMTP conversation with the built-in
// listener on 127.0.0.1). The story: the per-sender limit counted the claimed sender before the
// address, so a player could send 30 mails "From: ann@…" to his own reply address and Ann's real
// program was then dropped unanswered; a leaked address mailed from ever new senders mailed its
// player unlimited refusals; and a person's mail with no From header was dropped as a loop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { InboundSmtp } from '../../src/server/inbound/smtp-listener.js'
import { inboundStore } from '../../src/server/inbound/store.js'
import { SEAT_REFUSALS_PER_HOUR, SENDER_LIMIT_PER_HOUR } from '../../src/server/inbound/handle.js'
import type { Client } from '../server/helpers.js'
import { firstCards, latestCardsJson, mailsTo, replyAddressIn, replyWorld, sendToListener, type MailWorld } from './helpers.js'

let w: MailWorld
let inbound: InboundSmtp
let gameId: string
let players: Client[]
let close: () => Promise<void>
beforeAll(async () => { ({ w, inbound, gameId, players, close } = await replyWorld()) })
afterAll(async () => { await close() })

const send = (message: Parameters<typeof sendToListener>[1]) => sendToListener(inbound.port, message)
const replyTo = (email: string, turn = 1) => replyAddressIn(w.smtp, email, turn)
const latest = (player: string) => latestCardsJson(w.t, gameId, player)
const outcomeOf = (messageId: string) => inboundStore(w.t.app.services.db).all().find((m) => m.message_key === messageId)?.outcome
const answers = async (email: string) => { await w.t.app.mailer.deliver(); return mailsTo(w.smtp, email).filter((m) => /program is in|was not stored/.test(m.subject)) }

describe('limits that a forged sender cannot turn against a player', () => {
  it('another player cannot silence Ann by sending 30 mails with her address as sender to his own reply address', async () => {
    const bobAddress = replyTo('bob@example.org')
    for (let i = 0; i < SENDER_LIMIT_PER_HOUR; i++) {
      await send({ from: 'ann@example.org', to: bobAddress, envelope: { from: 'ann@example.org', to: [bobAddress] }, subject: 'x', text: 'hello' })
    }
    // Ann now replies with a good program to her own address: it is stored and confirmed.
    const cards = await firstCards(players[0]!, gameId, 1)
    await send({ from: 'ann@example.org', to: replyTo('ann@example.org'), subject: 'Re: Turn 1', text: cards.join('\n'), messageId: '<ann-real@example.org>' })
    expect(outcomeOf('<ann-real@example.org>')).toBe('stored')
    expect(latest('P1')).toBe(JSON.stringify(cards))
    expect((await answers('ann@example.org')).at(-1)?.subject).toMatch(/your program is in/)
  })

  it('answers a mail with no From header (sent by the player over SMTP) with a refusal to the player, instead of dropping it', async () => {
    const before = (await answers('cid@example.org')).length
    const to = replyTo('cid@example.org')
    await send({ envelope: { from: 'cid@example.org', to: [to] }, raw: `To: ${to}\r\nSubject: Re: Turn 1\r\nMessage-ID: <nofrom-1@example.org>\r\n\r\nFWD1:490\r\n` })
    const after = await answers('cid@example.org')
    expect({ outcome: outcomeOf('<nofrom-1@example.org>'), answers: after.length - before }).toEqual({ outcome: 'refused', answers: 1 })
    expect(after.at(-1)!.text.replace(/\s+/g, ' ')).toMatch(/no From address/)
  })

  it('a leaked reply address mailed from ever new senders answers its player at most SEAT_REFUSALS_PER_HOUR refusals an hour; a program is still confirmed', async () => {
    const to = replyTo('ann@example.org')
    const before = (await answers('ann@example.org')).length
    for (let i = 0; i < SEAT_REFUSALS_PER_HOUR + 3; i++) {
      await send({ from: `stranger${i}@evil.example`, to, subject: 'x', text: 'FWD1:490', messageId: `<stranger-${i}@evil.example>` })
    }
    expect((await answers('ann@example.org')).length - before).toBe(SEAT_REFUSALS_PER_HOUR)
    expect(outcomeOf(`<stranger-${SEAT_REFUSALS_PER_HOUR + 2}@evil.example>`)).toBe('refused-unanswered')
    const cards = (await firstCards(players[0]!, gameId, 1)).reverse()
    await send({ from: 'ann@example.org', to, subject: 'Re: Turn 1', text: cards.join('\n'), messageId: '<ann-again@example.org>' })
    expect(outcomeOf('<ann-again@example.org>')).toBe('stored')
    expect((await answers('ann@example.org')).at(-1)?.subject).toMatch(/your program is in \(version 2\)/)
    expect(mailsTo(w.smtp, 'stranger0@evil.example')).toEqual([])
  })
})
