// Programs by reply from unusual mail programs, as a hostile review tried them (a real SMTP
// conversation with the built-in listener on 127.0.0.1). The rule each case holds to: the program
// stored is exactly what the player wrote above the quote, or the reply is refused naming what was
// wrong and the previous program stands. Found: an "On … wrote:" attribution (Thunderbird puts it on
// two lines) over an old program quoted WITHOUT ">" had that program read as new cards, as had an
// HTML reply quoting under a bare rule; "1 FWD2:700" (no dot) and two cards on one line were dropped
// as prose, leaving a refusal that named no line ("no program found", or a wrong count of cards).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { programFromReply } from '../../src/server/inbound/program-text.js'
import { cardLabel } from '../../src/render/cards.js'
import type { Received } from '../server/smtp.js'
import { answersTo, latestCardsJson, replyAddressIn, replyWorld, rotatedCards, sendToListener } from './helpers.js'

let world: Awaited<ReturnType<typeof replyWorld>>
beforeAll(async () => { world = await replyWorld() })
afterAll(async () => { await world.close() })

const PLAYER_EMAILS = ['ann@example.org', 'bob@example.org', 'cid@example.org']
const latest = (player: number) => latestCardsJson(world.w.t, world.gameId, `P${player + 1}`)
const to = (player: number) => replyAddressIn(world.w.smtp, PLAYER_EMAILS[player]!, 1)
/** Sends a reply as `player` (text, HTML or a raw message) and returns the one answer it got. */
async function reply(player: number, content: { text: string } | { html: string } | { raw: string }): Promise<Received> {
  const email = PLAYER_EMAILS[player]!
  const before = (await answersTo(world.w, email)).length
  await sendToListener(world.inbound.port, 'raw' in content
    ? { envelope: { from: email, to: [to(player)] }, raw: `From: ${email}\r\nTo: ${to(player)}\r\nSubject: Re: Turn 1\r\n${content.raw}` }
    : { from: email, to: to(player), subject: 'Re: Turn 1', ...content })
  const after = await answersTo(world.w, email)
  expect(after).toHaveLength(before + 1)
  return after.at(-1)!
}
/** Stores a first program for `player` by reply (the "old" one a later reply quotes); returns its lines as written. */
async function storedFirst(player: number): Promise<{ cards: string[]; text: string }> {
  const cards = await rotatedCards(world.players[player]!, world.gameId, 1, 1)
  const text = cards.map((c, i) => `${i + 1}. ${c}`).join('\n')
  expect((await reply(player, { text })).subject).toMatch(/your program is in/)
  expect(latest(player)).toBe(JSON.stringify(cards))
  return { cards, text }
}
const newCards = (player: number, by = 2) => rotatedCards(world.players[player]!, world.gameId, 1, by)
const flat = (m: Received) => m.text.replace(/\s+/g, ' ')

describe('an old program quoted without ">" under an "On … wrote:" attribution', () => {
  it('Thunderbird, the attribution on two lines, a lone "reboot" above: the quoted cards are never stored again', async () => {
    const old = await storedFirst(0)
    const answer = await reply(0, { text: `reboot\n\nOn 07/01/2030 12:00, Ann Smith via\nBotWars wrote:\n${old.text}\n` })
    // Only the reboot was said: refused (the robot must play its cards) or stored without cards, never the old cards again.
    expect(answer.text).not.toContain(`1. ${old.cards[0]}`)
    expect(flat(answer)).not.toMatch(/found \d+ cards/)
  })

  for (const [client, attribution] of [
    ['Gmail', 'On Mon, Jan 7, 2030 at 12:00 PM Bob <bob@example.org> wrote:'],
    ['German Thunderbird', 'Am 07.01.2030 um 12:00 schrieb Bob:'],
    ['French Apple Mail', 'Le 7 janv. 2030 à 12:00, Bob <bob@example.org> a écrit :'],
  ]) {
    it(`${client}: stores the new program written above it, not both`, async () => {
      const old = await storedFirst(1)
      const cards = await newCards(1)
      const answer = await reply(1, { text: `${cards.join('\n')}\n\n${attribution}\n\n${old.text}\n` })
      expect(flat(answer)).not.toMatch(/was not stored/)
      expect(latest(1)).toBe(JSON.stringify(cards))
    })
  }

  it('still reads a program written below an attribution whose quote is marked with ">" (bottom-posting)', async () => {
    const old = await storedFirst(2)
    const cards = await newCards(2)
    const answer = await reply(2, { text: `On 07/01/2030 12:00, BotWars wrote:\n${old.text.replace(/^/gm, '> ')}\n\n${cards.join('\n')}\n` })
    expect(flat(answer)).not.toMatch(/was not stored/)
    expect(latest(2)).toBe(JSON.stringify(cards))
  })
})

describe('HTML-only replies', () => {
  it('a quote under a bare rule (<hr>), no header block: only the program above it', async () => {
    const old = await storedFirst(0)
    const cards = await newCards(0)
    await reply(0, { html: `<div>${cards.map(cardLabel).join('<br>')}</div><hr><div>${old.text.split('\n').join('<br>')}</div>` })
    expect(latest(0)).toBe(JSON.stringify(cards))
  })

  it('Gmail (quote in a blockquote under its attribution) and Apple Mail (blockquote type=cite): only the program above it', async () => {
    const old = await storedFirst(1)
    const cards = await newCards(1, 3)
    const quote = old.text.split('\n').join('<br>')
    await reply(1, { html: `<div dir="ltr">${cards.join('<br>')}</div><br><div class="gmail_quote"><div class="gmail_attr">On Mon, Jan 7, 2030 at 12:00 PM Bob wrote:<br></div><blockquote class="gmail_quote">${quote}</blockquote></div>` })
    expect(latest(1)).toBe(JSON.stringify(cards))
    const apple = await newCards(1, 4)
    await reply(1, { html: `<div>${apple.join('<br>')}</div><div><br><blockquote type="cite"><div>On 7 Jan 2030, at 12:00, Bob wrote:</div><div>${quote}</div></blockquote></div>` })
    expect(latest(1)).toBe(JSON.stringify(apple))
  })
})

describe('programs written loosely', () => {
  it('lower case, tabs and extra spaces, Windows line endings (raw CRLF), numbered "1 " without a dot', async () => {
    const cards = await newCards(2, 1)
    const lines = cards.map((c, i) => [`${i + 1}.\t${c.toLowerCase().replace(':', ' :  ')}`, `${i + 1}   ${c}`, `  r${i + 1})  ${cardLabel(c).toLowerCase().replace(' (', '   (  ')}`][i % 3]!)
    const answer = await reply(2, { raw: `Content-Type: text/plain; charset=utf-8\r\n\r\nHi,\r\n\r\n${lines.join('\r\n')}\r\n\r\nCid\r\n` })
    expect(flat(answer)).not.toMatch(/was not stored/)
    expect(latest(2)).toBe(JSON.stringify(cards))
  })

  it('a card split by a quoted-printable soft line break is read whole', async () => {
    const cards = await newCards(2, 2)
    const [kind, priority] = cards[0]!.split(':')
    const body = `1. ${kind}:=\r\n${priority}\r\n${cards.slice(1).map((c, i) => `${i + 2}. ${c}`).join('\r\n')}\r\n`
    await reply(2, { raw: `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${body}` })
    expect(latest(2)).toBe(JSON.stringify(cards))
  })

  it('a signature after "-- " holding a card code is not read', async () => {
    const cards = await newCards(0, 3)
    const other = (await newCards(0, 0)).find((c) => !cards.includes(c)) ?? 'FWD1:490'
    await reply(0, { text: `${cards.join('\n')}\n\n-- \nAnn Smith\n${other}\n` })
    expect(latest(0)).toBe(JSON.stringify(cards))
  })

  it('a program written only below where a quote seems to begin: refused naming that line, and the previous program stands', async () => {
    const before = latest(2)
    const cards = await newCards(2, 3)
    const answer = await reply(2, { text: `My program\n------------------------------\n${cards.join('\n')}\n` })
    expect(answer.subject).toMatch(/was not stored/)
    expect(flat(answer)).toMatch(/no program found above "-{30}"/)
    expect(latest(2)).toBe(before)
  })

  it('two cards on one line: refused naming the line, and the previous program stands', async () => {
    const before = latest(1)
    const cards = await newCards(1, 2)
    const answer = await reply(1, { text: `1. ${cards[0]}\n2. ${cards[1]} ${cards[2]}\n3. ${cards[3]}\n4. ${cards[4]}\n` })
    expect(answer.subject).toMatch(/was not stored/)
    expect(flat(answer)).toContain(`"${cards[1]} ${cards[2]}"`)
    expect(flat(answer)).toMatch(/one card per line/)
    expect(latest(1)).toBe(before)
  })
})

describe('what ends the reading, and what does not (the reader alone)', () => {
  const OLD = '1. FWD2:700\n2. FWD1:500\n3. RT90:200\n4. LF90:110\n5. UTRN:50'
  const read = (text: string) => programFromReply(text)
  it('an attribution over an unmarked quote, in other languages and without a verb (Gmail in Russian or Japanese)', () => {
    for (const attribution of ['El lun, 7 ene 2030 a las 12:00, Ann (<ann@example.org>) escribió:', 'Op ma 7 jan. 2030 om 12:00 schreef Ann <ann@example.org>:',
      'Il giorno lun 7 gen 2030 alle ore 12:00 Ann <ann@example.org> ha scritto:', 'pon., 7 sty 2030 o 12:00 Ann <ann@example.org> napisał(a):',
      'пн, 7 янв. 2030 г. в 12:00, Ann <ann@example.org>:', '2030年1月7日(月) 12:00 Ann <ann@example.org>:']) {
      expect({ attribution, read: read(`1. FWD3:790\n\n${attribution}\n${OLD}`) }).toEqual({ attribution, read: { ok: true, program: { cards: ['FWD3:790'], rebootNext: false } } })
    }
  })
  it('the sender\'s own "as I wrote:" and prose that mentions a card are not quotes: the program after them is read', () => {
    expect(read('As I wrote:\n1. FWD3:790')).toEqual({ ok: true, program: { cards: ['FWD3:790'], rebootNext: false } })
    expect(read('I played FWD2:700 last turn, never again.\n1. FWD3:790')).toEqual({ ok: true, program: { cards: ['FWD3:790'], rebootNext: false } })
  })
  it('a card with something after it, or cards in a list on one line, is refused naming the line', () => {
    expect(read('1. FWD3:790 (the long one)')).toEqual({ ok: false, problem: 'the line "FWD3:790 (the long one)" is not one card; write one card per line, like "1. FWD2:700"' })
    expect(read('FWD3:790, FWD1:500, RT90:200')).toMatchObject({ ok: false, problem: expect.stringContaining('"FWD3:790, FWD1:500, RT90:200" is not one card') })
  })
  it('full-width forms from a CJK keyboard read as the ASCII ones', () => {
    expect(read('１．FWD3：790')).toEqual({ ok: true, program: { cards: ['FWD3:790'], rebootNext: false } })
  })
})
