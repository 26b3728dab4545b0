// Programs by reply as people really write them (a real SMTP conversation with the built-in
// listener on 127.0.0.1): bottom-posted under the ">" quote, and top-posted above a turn mail that
// Outlook quotes WITHOUT ">" under a header block in its user's language. The story: the quoted
// turn mail's example paragraph (the player's own first cards) was stored as a program the player
// never chose, the robot state's "HP: 10" refused good programs, and bottom-posts were never read.
// Then: the HTML part's hand, quoted as text, was read as a program (its heading was no stop line);
// "Mvoe 2 (700)" was dropped as prose instead of pointed out; and two prose lines shaped like headers
// ("Note: bring snacks" / "Plan: go left") above a program were taken for a quoted header block.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { InboundSmtp } from '../../src/server/inbound/smtp-listener.js'
import { programFromReply } from '../../src/server/inbound/program-text.js'
import { cardLabel } from '../../src/render/cards.js'
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
/** The text part of the turn mail that dealt turn 1's hand, as the player's mail program would quote it. */
const turnMailText = (email: string) => mailsTo(w.smtp, email).filter((m) => m.subject.startsWith('Turn 1 of') && m.headers.has('reply-to')).at(-1)!.text
const latest = (player: string) => latestCardsJson(w.t, gameId, player)
const answers = async (email: string) => { await w.t.app.mailer.deliver(); return mailsTo(w.smtp, email).filter((m) => /program is in|was not stored/.test(m.subject)) }
const lastAnswer = async (email: string) => (await answers(email)).at(-1)
/** Sends a reply to turn 1 as `email` and returns the one answer it got. */
async function replyOf(email: string, content: { text: string } | { html: string }, subject = 'Re: Turn 1') {
  const before = (await answers(email)).length
  await send({ from: email, to: replyTo(email), subject, ...content })
  const after = await answers(email)
  expect(after).toHaveLength(before + 1)
  return after.at(-1)!
}
/** The player's first cards in words ("Move 2 (700)"), rotated by `by`: a legal program unlike the one sent before. */
const programInWords = async (player: number, by: number) => {
  const cards = await firstCards(players[player]!, gameId, 1)
  const rotated = [...cards.slice(by % cards.length), ...cards.slice(0, by % cards.length)]
  return { cards: rotated, text: rotated.map((c, i) => `${i + 1}. ${cardLabel(c)}`).join('\n') }
}
const TURN_MAIL_SUBJECT = (email: string) => mailsTo(w.smtp, email).filter((m) => m.subject.startsWith('Turn 1 of')).at(-1)!.subject

describe('programs by reply: how people really quote the turn mail', () => {
  it('reads a bottom-posted reply (attribution line, the ">" quoted turn mail, then the program below it)', async () => {
    const cards = await firstCards(players[0]!, gameId, 1)
    const quoted = turnMailText('ann@example.org').split('\n').map((l) => `> ${l}`).join('\n')
    // Thunderbird / mutt / Apple Mail set to answer below the quote: the usual netiquette form.
    await send({
      from: 'ann@example.org', to: replyTo('ann@example.org'), subject: 'Re: Turn 1',
      text: `On 07/01/2030 12:00, BotWars wrote:\n${quoted}\n\nHere is my program:\n${cards.map((c, i) => `${i + 1}. ${c}`).join('\n')}\n\nAnn\n`,
    })
    const answer = await lastAnswer('ann@example.org')
    expect(answer?.text ?? '(no answer)').not.toMatch(/was not stored/)
    expect(latest('P1')).toBe(JSON.stringify(cards))
  })

  it('stores a top-posted program above a turn mail quoted under an Italian Outlook header, not refusing it for "HP: 10"', async () => {
    const cards = await firstCards(players[1]!, gameId, 1)
    const quoted = turnMailText('bob@example.org')
    // Outlook (it-IT) plain text top-post: the original follows unprefixed under its own header block.
    await send({
      from: 'bob@example.org', to: replyTo('bob@example.org'), subject: 'R: Turn 1',
      text: `${cards.join('\n')}\n\n-----Messaggio originale-----\nDa: BotWars <botwars@localhost>\nInviato: lunedì 7 gennaio 2030 12:00\nA: bob@example.org\nOggetto: Turn 1\n\n${quoted}\n`,
    })
    const answer = await lastAnswer('bob@example.org')
    expect(answer?.text ?? '(no answer)').not.toMatch(/was not stored/)
    expect(latest('P2')).toBe(JSON.stringify(cards))
  })

  it('never stores the quoted example of the turn mail as the program (Dutch Outlook "Van:", the player only declares a reboot)', async () => {
    // Cid's client quotes (trimmed) the turn mail's example paragraph under a Dutch header block,
    // without ">" prefixes. The example is made of his own first cards: it would pass every check.
    const text = turnMailText('cid@example.org')
    const example = text.slice(text.indexOf('Or reply to this mail'), text.indexOf('Replies go to'))
    await send({
      from: 'cid@example.org', to: replyTo('cid@example.org'), subject: 'Antw: Turn 1',
      text: `reboot\n\nVan: BotWars <botwars@localhost>\nVerzonden: maandag 7 januari 2030 12:00\nAan: cid@example.org\nOnderwerp: Turn 1\n\n${example}\n`,
    })
    expect(latest('P3') ?? '[]').toBe('[]') // nothing, or a program of no cards with the reboot: never the quoted example
  })

  it('never stores the example even with no header line above it (the turn mail\'s own lines end the reading)', () => {
    const text = turnMailText('cid@example.org')
    const example = text.slice(text.indexOf('Or reply to this mail'), text.indexOf('Replies go to'))
    expect(programFromReply(`reboot\n\n${example}`)).toEqual({ ok: true, program: { cards: [], rebootNext: true } })
    expect(programFromReply(`reboot\n\n${text}`)).toEqual({ ok: true, program: { cards: [], rebootNext: true } })
  })

  it('ignores an ordinary prose line or signature line that is not a card (e.g. "Turn 1", "Room 101")', () => {
    expect(programFromReply('Turn 1\nFWD1:490\n\nAnn Smith\nRoom 101')).toEqual({ ok: true, program: { cards: ['FWD1:490'], rebootNext: false } })
  })

  it('never reads the cards of the HTML part\'s hand, quoted by an HTML mail program without ">" (its hand heading ends the reading)', async () => {
    const turnMail = mailsTo(w.smtp, 'cid@example.org').filter((m) => m.subject.startsWith('Turn 1 of') && m.headers.has('reply-to')).at(-1)!
    const body = turnMail.html.slice(turnMail.html.indexOf('>', turnMail.html.indexOf('<body')) + 1, turnMail.html.indexOf('</body>'))
    // The card chips laid out one per line, as a narrow (phone) column shows them and a client then quotes them.
    const quoted = body.replaceAll('</span> <span', '</span><br><span')
    // No header block, no blockquote: the quoted turn mail follows the player's own lines unmarked.
    const program = await programInWords(2, 1)
    const answer = await replyOf('cid@example.org', { html: `<div>${program.text.split('\n').join('<br>')}</div><div><br></div><div>${quoted}</div>` })
    expect(answer.text.replace(/\s+/g, ' ')).not.toMatch(/was not stored/)
    expect(latest('P3')).toBe(JSON.stringify(program.cards))
  })
})

describe('programs by reply: a card in words with a typo', () => {
  it('refuses "Mvoe 2 (700)", naming the word and what it probably meant; the stored program stands', async () => {
    const stored = await programInWords(0, 1)
    expect((await replyOf('ann@example.org', { text: stored.text })).subject).toMatch(/your program is in/)
    expect(latest('P1')).toBe(JSON.stringify(stored.cards))
    const refusal = await replyOf('ann@example.org', { text: `Here it is:\n1. Mvoe 2 (700)\n2. Turn rigth (80)\n\nThanks, Ann` })
    expect(refusal.subject).toMatch(/was not stored/)
    expect(refusal.text.replace(/\s+/g, ' ')).toMatch(/"Mvoe" is not a card name; did you mean "Move 2 \(700\)"\?/)
    expect(refusal.text).toMatch(/previous program, if you sent one, stands/)
    expect(latest('P1')).toBe(JSON.stringify(stored.cards))
  })

  it('still stores a program in words followed by ordinary prose ("Thanks, see you next turn")', async () => {
    const program = await programInWords(0, 2)
    const answer = await replyOf('ann@example.org', { text: `${program.text}\n\nThanks, see you next turn\nBack soon,\nAnn` })
    expect(answer.subject).toMatch(/your program is in/)
    expect(latest('P1')).toBe(JSON.stringify(program.cards))
  })
})

describe('programs by reply: prose shaped like headers above the program, under the quotes of real mail programs', () => {
  // Each: "Note: …" / "Plan: …" lines above the program (not a header block), then the mail program's
  // own quote of the turn mail (which must still end the reading: its example is the player's own cards).
  const clients: [name: string, player: number, email: string, quote: (turnMail: string, subject: string) => string][] = [
    ['Gmail (top-posted, ">" quote under "On … wrote:")', 0, 'ann@example.org', (t) =>
      `On Mon, Jan 7, 2030 at 12:00 PM BotWars <botwars@localhost> wrote:\n\n${t.split('\n').map((l) => `> ${l}`.trimEnd()).join('\n')}`],
    ['Outlook (Microsoft 365, unmarked quote under a rule and From/Sent/To/Subject)', 1, 'bob@example.org', (t, subject) =>
      `________________________________\nFrom: BotWars <botwars@localhost>\nSent: Monday, January 7, 2030 12:00 PM\nTo: Bob <bob@example.org>\nSubject: ${subject}\n\n${t}`],
    ['Apple Mail (attribution inside the ">" quote)', 2, 'cid@example.org', (t) =>
      `> On 7 Jan 2030, at 12:00, BotWars <botwars@localhost> wrote:\n> \n${t.split('\n').map((l) => `> ${l}`.trimEnd()).join('\n')}`],
    ['German Outlook (unmarked quote under Von/Gesendet/An/Betreff)', 0, 'ann@example.org', (t, subject) =>
      `Von: BotWars <botwars@localhost>\nGesendet: Montag, 7. Januar 2030 12:00\nAn: Ann <ann@example.org>\nBetreff: ${subject}\n\n${t}`],
    ['Swedish Outlook (unmarked quote under Från/Skickat/Till/Ämne, no rule above it)', 1, 'bob@example.org', (t, subject) =>
      `Från: BotWars <botwars@localhost>\nSkickat: den 7 januari 2030 12:00\nTill: bob@example.org\nÄmne: ${subject}\n\n${t}`],
  ]
  for (const [name, player, email, quote] of clients) {
    it(`stores the program from ${name}`, async () => {
      const program = await programInWords(player, 3 + player)
      const text = `Note: bring snacks\nPlan: go left, then the flag\n\n${program.text}\n\n${quote(turnMailText(email), TURN_MAIL_SUBJECT(email))}\n`
      const answer = await replyOf(email, { text })
      expect(answer.text.replace(/\s+/g, ' ')).not.toMatch(/was not stored/)
      expect(latest(`P${player + 1}`)).toBe(JSON.stringify(program.cards))
    })
  }
})
