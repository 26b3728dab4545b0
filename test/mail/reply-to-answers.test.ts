// Replies to the server's own answers (a real SMTP conversation with the built-in listener on
// 127.0.0.1). A player revises their program by replying to the confirmation, and their mail
// program quotes it without ">" and without a header block: the confirmation restates the stored
// program, one card per line, and those lines were read as part of the new one (ten cards, refused;
// or the old program stored again under a lone "reboot"). The refusal is quoted the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { simpleParser } from 'mailparser'
import { programFromReply } from '../../src/server/inbound/program-text.js'
import { preferencesRepository } from '../../src/server/mail/preferences.js'
import { cardLabel } from '../../src/render/cards.js'
import { DAY, HOUR } from '../server/helpers.js'
import { closeTurn, gameOf, someProgram, startedGame as startedReviewedGame } from '../gm/helpers.js'
import type { Received } from '../server/smtp.js'
import { answersTo, latestCardsJson, rotatedCards, mailsTo, replyAddressIn, replyWorld, sendToListener } from './helpers.js'

let world: Awaited<ReturnType<typeof replyWorld>>
beforeAll(async () => { world = await replyWorld() })
afterAll(async () => { await world.close() })

const latest = (player: string) => latestCardsJson(world.w.t, world.gameId, player)
const answers = (email: string) => answersTo(world.w, email)
/** Sends `text` as `email` to `to` and returns the one answer it got. */
async function reply(email: string, to: string, text: string): Promise<Received> {
  const before = (await answers(email)).length
  await sendToListener(world.inbound.port, { from: email, to, subject: 'Re: your program', text })
  const after = await answers(email)
  expect(after).toHaveLength(before + 1)
  return after.at(-1)!
}
/** The player's first cards rotated by `by`, numbered, in codes or in words: a legal program unlike the others. */
async function program(player: number, by: number, words = false) {
  const rotated = await rotatedCards(world.players[player]!, world.gameId, 1, by)
  return { cards: rotated, text: rotated.map((c, i) => `${i + 1}. ${words ? cardLabel(c) : c}`).join('\n') }
}
const storedCards = (player: string) => (world.w.t.app.services.db.prepare(`SELECT cards_json FROM submissions JOIN turns ON turns.id = submissions.turn_id
  WHERE turns.game_id = ? AND player_id = ?`).pluck().all(world.gameId, player) as string[])
const flat = (text: string) => text.replace(/\s+/g, ' ')

describe('a reply quoting the confirmation without ">" and without a header block', () => {
  it('stores the revised program written above it, not the ten cards of both', async () => {
    const first = await program(0, 1)
    const confirmation = await reply('ann@example.org', replyAddressIn(world.w.smtp, 'ann@example.org', 1), first.text)
    expect(confirmation.subject).toMatch(/your program is in/)
    const revised = await program(0, 2, true)
    const answer = await reply('ann@example.org', confirmation.headers.get('reply-to')!, `${revised.text}\n\n${confirmation.text}`)
    expect(flat(answer.text)).not.toMatch(/was not stored/)
    expect(latest('P1')).toBe(JSON.stringify(revised.cards))
  })

  it('never stores the confirmed program again under a lone "reboot" (the quoted cards are not the sender\'s)', async () => {
    const first = await program(1, 1)
    const confirmation = await reply('bob@example.org', replyAddressIn(world.w.smtp, 'bob@example.org', 1), first.text)
    const answer = await reply('bob@example.org', confirmation.headers.get('reply-to')!, `reboot\n\n${confirmation.text}`)
    // Only the reboot was said: stored without cards, or refused naming why; never the quoted cards as version 2.
    expect(answer.text).not.toContain(`1. ${first.cards[0]}`)
    expect(storedCards('P2').filter((cards) => cards === JSON.stringify(first.cards))).toHaveLength(1)
  })
})

describe('a reply quoting the refusal without ">"', () => {
  it('stores the corrected program written above it, though the refusal repeats the mistyped card', async () => {
    const refusal = await reply('cid@example.org', replyAddressIn(world.w.smtp, 'cid@example.org', 1), '1. Mvoe 2 (700)\n2. FDW2:700')
    expect(refusal.subject).toMatch(/was not stored/)
    const corrected = await program(2, 1, true)
    const answer = await reply('cid@example.org', refusal.headers.get('reply-to')!, `${corrected.text}\n\n${refusal.text}`)
    expect(flat(answer.text)).not.toMatch(/was not stored/)
    expect(latest('P3')).toBe(JSON.stringify(corrected.cards))
  })
})

describe('a reply quoting the confirmation\'s HTML part, unmarked (an HTML-only mail program)', () => {
  it('stores only the program written above it', async () => {
    const confirmation = (await answers('ann@example.org')).filter((m) => /program is in/.test(m.subject)).at(-1)!
    const body = bodyOf(confirmation.html)
    const revised = await program(0, 3)
    const before = (await answers('ann@example.org')).length
    await sendToListener(world.inbound.port, {
      from: 'ann@example.org', to: confirmation.headers.get('reply-to')!, subject: 'Re: your program',
      html: `<div>${revised.text.split('\n').join('<br>')}</div><div><br></div><div>${body}</div>`,
    })
    const after = await answers('ann@example.org')
    expect(after).toHaveLength(before + 1)
    expect(flat(after.at(-1)!.text)).not.toMatch(/was not stored/)
    expect(latest('P1')).toBe(JSON.stringify(revised.cards))
  })
})

/** The inside of an HTML mail's body, as a mail program puts it into a reply. */
const bodyOf = (html: string) => html.slice(html.indexOf('>', html.indexOf('<body')) + 1, html.indexOf('</body>'))
/** What the reader reads of a mail written as HTML only (mailparser, as handle.ts reads it). */
const textOfHtml = async (html: string) => (await simpleParser(Buffer.from(`Content-Type: text/html; charset=utf-8\r\n\r\n${html}`))).text ?? ''

describe('every mail the server sends, quoted whole without ">" below a lone "reboot"', () => {
  it('adds nothing to the program: turn mails, results, reminders, answers, the GM\'s draft and correction, the digest', async () => {
    const t = world.w.t
    // Mail of all kinds: this game's turn closes (Bob reads a daily digest), and a second game under
    // review reminds its players, its GM gets the draft with its report and corrects a program, and
    // the next turn mails list the correction.
    const reviewed = await startedReviewedGame(t.app)
    t.app.services.write(() => preferencesRepository(t.app.services.db).setMode('bob@example.org', 'digest', t.clock.now))
    t.app.runDueWork() // every program of this game is in: its turn closes (close early), turn 2 is dealt
    t.clock.now = Date.parse((await gameOf(reviewed.gm, reviewed.gameId)).currentTurn.deadline) - 12 * HOUR
    t.app.runDueWork()
    await closeTurn(t.app, t.clock, reviewed.gm, reviewed.gameId)
    const corrected = await reviewed.gm.call('POST', `/api/v1/games/${reviewed.gameId}/turns/1/corrections`, {
      player: 'P1', cards: await someProgram(reviewed.players[0]!, reviewed.gameId, 1, true), reason: 'Ann phoned her program in',
    })
    expect(corrected.status).toBe(201)
    expect((await reviewed.gm.call('POST', `/api/v1/games/${reviewed.gameId}/turns/1/publish`, { reason: 'ok' })).status).toBe(200)
    t.clock.now += DAY
    t.app.runDueWork()
    await t.app.mailer.deliver()
    const kinds = t.app.services.outbox.all().map((m) => m.kind)
    for (const kind of ['hand', 'results', 'reminder', 'reply-confirmation', 'reply-refusal', 'draft-ready', 'correction', 'digest']) expect(kinds).toContain(kind)

    expect(world.w.smtp.received.some((m) => m.text.includes('Corrections by the GM:'))).toBe(true) // a turn mail listing the correction

    for (const mail of world.w.smtp.received) {
      const quotedText = programFromReply(`reboot\n\n${mail.text}`)
      expect({ subject: mail.subject, read: quotedText }).toEqual({ subject: mail.subject, read: { ok: true, program: { cards: [], rebootNext: true } } })
      const quotedHtml = programFromReply(await textOfHtml(`<div>reboot</div><div><br></div><div>${bodyOf(mail.html)}</div>`))
      expect({ subject: mail.subject, html: quotedHtml }).toEqual({ subject: mail.subject, html: { ok: true, program: { cards: [], rebootNext: true } } })
    }
  })
})
