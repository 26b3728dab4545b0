// Reading a program out of a mail body (pure): forgiving about the form, strict about what
// counts; quoted text and signatures never count.
import { simpleParser } from 'mailparser'
import { describe, expect, it } from 'vitest'
import type { Card, RobotState } from '../../src/engine/types.js'
import { programFromReply } from '../../src/server/inbound/program-text.js'
import { turnMail } from '../../src/server/mail/turn-mail.js'
import { cardLabel } from '../../src/render/cards.js'

const cards = (text: string) => {
  const parsed = programFromReply(text)
  if (!parsed.ok) throw new Error(parsed.problem)
  return parsed.program
}

describe('programFromReply', () => {
  it('reads cards as the mail wrote them, one per line or numbered, in any case and separator', () => {
    expect(cards('FWD2:700\nLF90:110\n').cards).toEqual(['FWD2:700', 'LF90:110'])
    expect(cards('1. fwd2 700\n2) lf90-110\nr3: UTRN:40\n- rt90:80').cards).toEqual(['FWD2:700', 'LF90:110', 'UTRN:40', 'RT90:80'])
  })

  it('reads the cards in words, as the turn mail lists them', () => {
    expect(cards('1. Move 2 (700)\n2. Turn left (110)\n3. u-turn 40').cards).toEqual(['FWD2:700', 'LF90:110', 'UTRN:40'])
  })

  it('puts register-numbered lines in register order', () => {
    expect(cards('3. UTRN:40\n1. FWD2:700\n2. LF90:110').cards).toEqual(['FWD2:700', 'LF90:110', 'UTRN:40'])
  })

  it('reads reboot, sacrifice, double wrench and facing lines', () => {
    expect(cards('reboot\nsacrifice at 4\ndouble wrench option\nfacing west')).toEqual({ cards: [], rebootNext: true, sacrificeAt: 4, doubleWrench: 'option', facing: 'W' })
  })

  it('ignores prose, quoted lines and everything after a signature or a quoted header; reads below an "On … wrote:" quote', () => {
    const text = 'Hi GM, my moves:\nFWD1:490\n> FWD2:700\n\n-- \nAnn\nLF90:110'
    expect(cards(text).cards).toEqual(['FWD1:490'])
    expect(cards('On Mon, 7 Jan 2030, BotWars wrote:\n> FWD1:490\n\nFWD2:700').cards).toEqual(['FWD2:700']) // bottom-posted
    expect(cards('FWD1:490\n-----Original Message-----\nFWD2:700').cards).toEqual(['FWD1:490'])
    expect(cards('FWD1:490\nFrom: BotWars <gm@botwars.test>\nFWD2:700').cards).toEqual(['FWD1:490'])
  })

  it('stops at a quote without ">" in any language: a header block ("De :", "Från:"), a separator of dashes, a turn mail line', () => {
    // Outlook quotes the mail being answered without ">"; a quoted turn mail holds an example program of the player's own cards.
    const example = '\n  1. Move 2 (700)\n  2. Turn left (110)\n'
    expect(cards(`reboot\n\nDe : BotWars <botwars@localhost>\nEnvoyé : lundi 7 janvier 2030 12:00\nÀ : ann@example.org\nObjet : Turn 1\n${example}`))
      .toEqual({ cards: [], rebootNext: true })
    expect(cards(`reboot\n\nFrån: BotWars <botwars@localhost>\nSkickat: den 7 januari 2030 12:00\n${example}`)).toEqual({ cards: [], rebootNext: true })
    expect(cards(`FWD1:490\n-----Message d'origine-----\n${example}`).cards).toEqual(['FWD1:490'])
    expect(cards(`reboot\n\nOr reply to this mail with your program, one card per line (registers in order), for example:\n${example}`).cards).toEqual([])
    expect(cards(`reboot\nYour hand (9 cards):\n${example}`).cards).toEqual([])
  })

  it('never takes program lines for a header block: "r3: FWD2:700", "facing: N", "double wrench: repair"', () => {
    expect(cards('r3: FWD2:700\nfacing: N\ndouble wrench: repair\nr4: LF90:110')).toEqual({ cards: ['FWD2:700', 'LF90:110'], rebootNext: false, facing: 'N', doubleWrench: 'repair' })
    expect(cards('Facing: W\nIdle: 5\nSacrifice: 3')).toEqual({ cards: ['IDLE:5'], rebootNext: false, facing: 'W', sacrificeAt: 3 })
  })

  it('ignores prose that only looks like a card ("Turn 1", "Room 101", "HP: 10", "Tel: 555")', () => {
    expect(cards('Turn 1\nFWD1:490\n\nAnn Smith\nRoom 101\nHP: 10\nTel: 555').cards).toEqual(['FWD1:490'])
  })

  it('refuses a mail with no program, or with more cards than registers, saying why', () => {
    expect(programFromReply('Thanks, see you next turn!')).toEqual({ ok: false, problem: expect.stringMatching(/no program found/) })
    expect(programFromReply('')).toMatchObject({ ok: false })
    expect(programFromReply(['FWD1:490', 'FWD1:500', 'FWD1:510', 'FWD1:520', 'FWD1:530', 'FWD1:540'].join('\n'))).toEqual({ ok: false, problem: expect.stringMatching(/at most 5/) })
  })

  it('points out a line that looks like a card but is not one; leaves the check of the hand to the submission service', () => {
    expect(programFromReply('FWD9:700\nFWD1:490')).toEqual({ ok: false, problem: expect.stringMatching(/"FWD9:700" is not a card name/) })
    expect(programFromReply('FWD1:490\nFDW2:700')).toEqual({ ok: false, problem: expect.stringMatching(/"FDW2:700" is not a card name/) }) // two letters swapped
    expect(cards('FWD1:999').cards).toEqual(['FWD1:999']) // no such card: submitProgram says so, naming it
    expect(cards('pass')).toEqual({ cards: [], rebootNext: false })
  })

  it('points out a card written in words with a typo: the word it did not understand, and what it probably meant', () => {
    expect(programFromReply('1. Mvoe 2 (700)\n2. Turn left (110)')).toEqual({ ok: false, problem: expect.stringMatching(/"Mvoe" is not a card name; did you mean "Move 2 \(700\)"\?/) })
    expect(programFromReply('FWD1:490\nTurn rigth (80)')).toEqual({ ok: false, problem: expect.stringMatching(/"rigth" is not a card name; did you mean "Turn right \(80\)"\?/) })
    expect(programFromReply('3) sidestep lfet 300')).toEqual({ ok: false, problem: expect.stringMatching(/"lfet" .*"Sidestep left \(300\)"/) })
    expect(programFromReply('Idel (5)')).toEqual({ ok: false, problem: expect.stringMatching(/"Idel" .*"Idle \(5\)"/) })
    expect(programFromReply('Uturn (40)')).toEqual({ ok: false, problem: expect.stringMatching(/"Uturn" .*"U-turn \(40\)"/) })
    expect(programFromReply('Trun rigth (80)')).toEqual({ ok: false, problem: expect.stringMatching(/"Trun rigth" .*"Turn right \(80\)"/) }) // two typos in a long name
    // Without the card's number, as the brief typos come: still pointed out, never silently dropped.
    expect(programFromReply('Mvoe 2')).toEqual({ ok: false, problem: expect.stringMatching(/"Mvoe" is not a card name; did you mean "Move 2"\?/) })
    expect(programFromReply('FWD1:490\n2. Turn rigth')).toEqual({ ok: false, problem: expect.stringMatching(/"rigth" is not a card name; did you mean "Turn right"\?/) })
  })

  it('refuses a card named in words without its number, rather than storing a program without it', () => {
    expect(programFromReply('FWD1:490\n2. Move 2\n3. LF90:110')).toEqual({ ok: false, problem: expect.stringMatching(/"Move 2" has no card number/) })
  })

  it('keeps ordinary prose as prose, however close to the game its words are', () => {
    const prose = ['Thanks, see you next turn', 'Thanks, see you next turn!', 'Back soon', 'Move on', 'Turning point', 'Idle thoughts', 'Turn 1', 'Left or right?',
      'Good luck (2)', 'Back in 10', 'Move fast', 'Turn around', 'Right', 'Thanks', 'Cheers, Ann', 'Ide', 'Isle of Man', 'Backup plan', 'Room 101']
    expect(cards(`1. Move 2 (700)\n2. Turn right (80)\n\n${prose.join('\n')}`).cards).toEqual(['FWD2:700', 'RT90:80'])
    for (const line of prose) expect(programFromReply(line)).toEqual({ ok: false, problem: expect.stringMatching(/no program found/) })
  })

  it('reads on past prose lines shaped like headers ("Note: bring snacks", "Plan: go left"): only a real header block ends the reading', () => {
    expect(cards('Note: bring snacks\nPlan: go left\n1. FWD1:490\n2. LF90:110').cards).toEqual(['FWD1:490', 'LF90:110'])
    expect(cards('Hinweis: Snacks mitbringen\nPlan: erst links\nIdee: dann geradeaus\nFWD1:490').cards).toEqual(['FWD1:490'])
    expect(cards('Subject: my program\nNote: a quiet turn\nFWD1:490').cards).toEqual(['FWD1:490'])
  })

  it('still ends the reading at a quoted header block in any common language, bold or not', () => {
    const example = '\n  1. Move 2 (700)\n  2. Turn left (110)\n'
    const blocks = [
      'Fra: BotWars <botwars@localhost>\nSendt: 7. januar 2030 12:00\nTil: ann@example.org\nEmne: Turn 1', // Danish / Norwegian Outlook
      'Od: BotWars <botwars@localhost>\nWysłano: poniedziałek, 7 stycznia 2030 12:00\nDo: ann@example.org\nTemat: Turn 1', // Polish
      'Lähettäjä: BotWars <botwars@localhost>\nLähetetty: maanantai 7. tammikuuta 2030 12.00\nVastaanottaja: ann@example.org\nAihe: Turn 1', // Finnish
      'Kimden: BotWars <botwars@localhost>\nGönderildi: 7 Ocak 2030 Pazartesi 12:00\nKime: ann@example.org\nKonu: Turn 1', // Turkish
      'От: BotWars <botwars@localhost>\nОтправлено: 7 января 2030 г. 12:00\nКому: ann@example.org\nТема: Turn 1', // Russian
      '发件人: BotWars <botwars@localhost>\n发送时间: 2030年1月7日 12:00\n收件人: ann@example.org\n主题: Turn 1', // Chinese
      '差出人： BotWars <botwars@localhost>\n送信日時： 2030年1月7日 12:00\n宛先： ann@example.org\n件名： Turn 1', // Japanese, full-width colons
      '*Sent:* Monday, January 7, 2030 12:00 PM\n*To:* ann@example.org\n*Subject:* Turn 1', // bold headers made text
      'Enviado el: lunes, 7 de enero de 2030 12:00\nPara: ann@example.org\nAsunto: Turn 1', // Spanish, "De:" line trimmed away
    ]
    for (const block of blocks) expect(cards(`reboot\nNote: bring snacks\n\n${block}\n${example}`), block).toEqual({ cards: [], rebootNext: true })
  })
})

describe('the turn mail\'s own lines end the reading, in its text part and in its HTML part as a client renders it to text', () => {
  const robot: RobotState = { hp: 10, robotsLeft: 3, at: { row: 3, col: 4 }, facing: 'N', mode: 'real', flags: 0, options: [], fused: {}, rebooting: false } as unknown as RobotState
  const hand: Card[] = ['FWD2:700', 'LF90:110', 'RT90:80', 'UTRN:40', 'SRT1:520', 'RVS1:430', 'FWD1:490', 'IDLE:5', 'SLF1:300']
    .map((code) => ({ kind: code.split(':')[0], priority: Number(code.split(':')[1]) }) as Card)
  const mail = turnMail({ game: 'Test', name: 'Ann', settingsLink: 'http://botwars.test/settings', previous: null,
    hand: { turn: 2, robot, hand, deadline: Date.UTC(2030, 0, 7, 12), submitLink: 'http://botwars.test/submit', replyAddress: 'turn-abc@play.botwars.test' } })
  const labels = hand.map(cardLabel)
  /** The paragraph that introduces the first line holding `text` (the line's own paragraph above it, or the one before): found by place, not by wording. */
  const introducing = (lines: string[], text: string) => {
    const at = lines.findIndex((l) => l.includes(text))
    let end = at
    if (!lines[at - 1]?.trim()) while (end > 0 && !lines[end - 1]!.trim()) end--
    let start = end
    while (start > 0 && lines[start - 1]!.trim()) start--
    return lines.slice(start, end)
  }
  const parts = async () => ({
    text: mail.body.split('\n'),
    // The HTML part as the inbound path itself renders HTML to text (mailparser), and as a client quoting it does.
    html: ((await simpleParser(Buffer.from(`Content-Type: text/html; charset=utf-8\r\n\r\n${mail.html}`))).text ?? '').split('\n'),
  })

  it('stops at the hand heading and at the reply invitation, whichever part was quoted, even with the cards one per line below', async () => {
    for (const [part, lines] of Object.entries(await parts())) {
      // The hand, then the example program (its first line is "1. " and the first card).
      for (const first of [labels[0]!, `1. ${labels[0]}`]) {
        const intro = introducing(lines, first)
        expect(intro.length, `${part}: no paragraph before ${first}`).toBeGreaterThan(0)
        const quoted = [...intro, ...labels.map((l, i) => `${i + 1}. ${l}`)].join('\n')
        expect(programFromReply(`reboot\n\n${quoted}`), `${part}: ${intro.join(' / ')}`).toEqual({ ok: true, program: { cards: [], rebootNext: true } })
      }
    }
  })
})
