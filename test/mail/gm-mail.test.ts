// The GM's mails (issue 12) as mail worth opening (issue 14), through a real SMTP server on
// 127.0.0.1: corrections, message notices, rollback and the final standings are multipart and in
// the game's thread, carry one-click unsubscribe, and follow each person's preference (every
// mail / daily digest / none); the turn mail after a corrected turn says what the GM corrected,
// and the mail of the turn that ends the game is one mail with its story, picture and standings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { preferencesRepository } from '../../src/server/mail/preferences.js'
import type { Client } from '../server/helpers.js'
import { closeTurn, someProgram, startedGame } from '../gm/helpers.js'
import { hasChromium } from '../browser/harness.js'
import { mailsTo, mailWorld, type MailWorld } from './helpers.js'
import { renderMail } from './render.js'

let w: MailWorld
let gm: Client, ann: Client, bob: Client, cid: Client, gameId: string, chosenAt: number
const thread = () => `<game-${gameId}@botwars.test>`

beforeAll(async () => {
  w = await mailWorld()
  const g = await startedGame(w.t.app, { turnLimit: 2 })
  ;({ gm, gameId } = g)
  ;[ann, bob, cid] = g.players as [Client, Client, Client]
  await w.t.app.mailer.deliver()
  const prefs = preferencesRepository(w.t.app.services.db)
  prefs.setMode('bob@example.org', 'none', w.t.clock.now)
})
afterAll(async () => { await w.close() })

const since = (email: string, count: number) => mailsTo(w.smtp, email).slice(count)

function expectRich(mail: ReturnType<typeof mailsTo>[number]) {
  expect(mail.html.length, mail.subject).toBeGreaterThan(0)
  expect(mail.html).not.toMatch(/<script|<style/i)
  for (const line of mail.text.split('\n')) expect(line.length, `${mail.subject}: ${line}`).toBeLessThan(80)
  expect(mail.headers.get('in-reply-to')).toBe(thread())
  expect(mail.headers.get('references')).toBe(thread())
  expect(mail.headers.get('list-unsubscribe')).toMatch(/^<http:\/\/botwars\.test\/mail\/unsubscribe\?/)
  expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
}

/** Drawn in Chromium (screenshots in test-results/mail/): shows `text`, fits a phone, fetches nothing. */
async function expectRendered(mail: ReturnType<typeof mailsTo>[number], name: string, text: string) {
  if (!hasChromium) return console.warn(`!! Chromium missing: ${name} is not rendered`)
  const shown = await renderMail(mail, name)
  expect(shown.text).toContain(text)
  expect(shown.tooWideOnPhone).toEqual([])
  expect(shown.requests).toEqual([])
}

describe('the GM\'s mails', () => {
  it('corrections, messages and a rollback: multipart and threaded, held for a digest, dropped for none', async () => {
    const before = { ann: mailsTo(w.smtp, 'ann@example.org').length, bob: mailsTo(w.smtp, 'bob@example.org').length, cid: mailsTo(w.smtp, 'cid@example.org').length }
    expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await someProgram(ann, gameId, 1) })).status).toBe(201)
    await closeTurn(w.t.app, w.t.clock, gm, gameId)
    // Ann chooses the daily digest now: her first digest goes a day from now.
    chosenAt = w.t.clock.now
    preferencesRepository(w.t.app.services.db).setMode('ann@example.org', 'digest', chosenAt)
    for (const [player, c] of [['P3', cid], ['P2', bob]] as const) {
      const done = await gm.call('POST', `/api/v1/games/${gameId}/turns/1/corrections`, { player, cards: await someProgram(c, gameId, 1, true), reason: `${player} mailed it to me` })
      expect(done.status).toBe(201)
    }
    expect((await gm.call('POST', `/api/v1/games/${gameId}/messages`, { body: 'Turn 1 is under review.' })).status).toBe(201)
    w.t.app.runDueWork()
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'checked' })).status).toBe(200)
    // The turn mail goes before the rollback: a rollback withdraws it while it is unsent
    // (rollback-withdraws-mail.test.ts), as it does Ann's, held for her digest.
    await w.t.app.mailer.deliver()
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/rollback`, { reason: 'a wall was missing' })).status).toBe(200)
    await w.t.app.mailer.deliver()

    const cidMails = since('cid@example.org', before.cid)
    expect(cidMails.map((m) => m.subject.replace(/due .*/, 'due …'))).toEqual([
      'BotWars "Test game" turn 1: the GM corrected your program',
      'BotWars "Test game": 1 new message',
      'Turn 2 of "Test game" — your program is due …',
      'BotWars "Test game": turn 1 is rolled back',
    ])
    for (const m of cidMails) expectRich(m)
    // The turn mail after the corrected turn says what the GM corrected: the reader's own first.
    const turnMail = cidMails[2]!
    expect(turnMail.text).toMatch(/Corrections by the GM:\n {2}Your program, corrected [^]*\n {2}Bob, corrected .* UTC:\n[^]*\n {4}why: P2 mailed it to me\n/)
    expect(turnMail.text).toMatch(/\n {2}Your program, corrected .* UTC:\n[^]*\n {4}why: P3 mailed it to me\n/)
    expect(turnMail.html).toContain('P3 mailed it to me')
    expect(turnMail.attachments.some((a) => a.contentId === '<board@botwars>')).toBe(true)
    await expectRendered(turnMail, 'turn-mail-corrections', 'Corrections by the GM')
    expect(since('bob@example.org', before.bob)).toEqual([])
    // Ann's digest, a day after she chose it, holds all of it in one mail.
    expect(since('ann@example.org', before.ann)).toEqual([])
    w.t.clock.now = chosenAt + 24 * 3600_000
    expect(w.t.app.runDueWork().digests).toBe(1)
    expect(w.t.app.runDueWork().digests).toBe(0)
    await w.t.app.mailer.deliver()
    const digest = since('ann@example.org', before.ann)
    expect(digest.map((m) => m.subject)).toEqual([expect.stringMatching(/^BotWars digest: /)])
    expectRich(digest[0]!)
    const all = digest[0]!.text.replace(/\s+/g, ' ')
    for (const text of ['Turn 1 is under review.', 'turn 1 is rolled back', 'Reason: a wall was missing']) expect(all).toContain(text)
    expect(all).not.toContain('Corrections by the GM:') // her turn mail, withdrawn with the turn
  })

  it('the turn that ends the game brings one mail each: its story, the picture and the final standings', async () => {
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'wall fixed' })).status).toBe(200)
    expect((await cid.call('POST', `/api/v1/games/${gameId}/turns/2/submission`, { cards: await someProgram(cid, gameId, 2) })).status).toBe(201)
    await closeTurn(w.t.app, w.t.clock, gm, gameId)
    await w.t.app.mailer.deliver()
    const before = { gm: mailsTo(w.smtp, 'gm@example.org').length, cid: mailsTo(w.smtp, 'cid@example.org').length }
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/2/publish`, { reason: 'last one' })).status).toBe(200)
    await w.t.app.mailer.deliver()
    for (const [email, seen] of [['gm@example.org', before.gm], ['cid@example.org', before.cid]] as const) {
      const mails = since(email, seen)
      expect(mails.map((m) => m.subject)).toEqual(['"Test game" is over — final standings'])
      const mail = mails[0]!
      expectRich(mail)
      expect(mail.text).toContain('reached its turn limit')
      expect(mail.text).toMatch(/Final standings:\n\nPlace {2}Player +Flags {2}Robots {2}HP\n {4}1 {2}/)
      expect(mail.text).toContain(`http://botwars.test/games/${gameId}/turns/2\n`)
      expect(mail.attachments.some((a) => a.contentId === '<board@botwars>')).toBe(true)
      expect(mail.html).toContain('Final standings')
    }
    const final = since('cid@example.org', before.cid)[0]!
    expect(final.text).toMatch(/Turn 2: /) // Cid's own story line
    await expectRendered(final, 'final-mail', 'Final standings')
  })
})
