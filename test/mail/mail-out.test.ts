// Mail out (issue 14), through a real SMTP server on 127.0.0.1: one multipart turn mail per
// player per turn (story, inline board picture, report link, hand, state, deadline, form, reply
// address), results-only mail for the GM, game threads, one-click unsubscribe, preferences.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TurnResult } from '../../src/engine/turn.js'
import type { Card } from '../../src/engine/types.js'
import { cardLabel } from '../../src/render/cards.js'
import { PNG_SIGNATURE } from '../../src/render/png.js'
import { turnStory } from '../../src/render/story.js'
import { PLAYERS } from '../server/helpers.js'
import { firstCards, lastTo, MAIL_DOMAIN, mailsTo, mailWorld, startedGame, type MailWorld } from './helpers.js'

let w: MailWorld
let gameId: string
let turn2Mails: Map<string, ReturnType<typeof lastTo>>
beforeAll(async () => {
  w = await mailWorld()
  const set = await startedGame(w.t.app)
  gameId = set.gameId
  for (const c of set.players) {
    expect((await c.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await firstCards(c, gameId, 1) })).status).toBe(201)
  }
  expect(w.t.app.runDueWork().closed).toBe(1) // close early, no review window: published, turn 2 dealt
  await w.t.app.mailer.deliver()
  turn2Mails = new Map(PLAYERS.map((p) => [p.email, lastTo(w.smtp, p.email)]))
})
afterAll(async () => { await w.close() })

describe('the turn mail', () => {
  it('is one mail per player per turn: no separate results, no reminder in the same second', () => {
    for (const p of PLAYERS) {
      const sinceDeal = mailsTo(w.smtp, p.email).filter((m) => /^Turn [12] of/.test(m.subject))
      expect(sinceDeal.map((m) => m.subject.replace(/due .*/, 'due …'))).toEqual([
        'Turn 1 of "Test game" — your program is due …', 'Turn 2 of "Test game" — your program is due …'])
    }
    expect(w.t.app.services.outbox.all().filter((r) => r.kind === 'reminder')).toHaveLength(0)
  })

  it('says what is needed in a stable subject, and threads every mail of the game', () => {
    const mail = turn2Mails.get('ann@example.org')!
    expect(mail.subject).toBe('Turn 2 of "Test game" — your program is due Sat 12 Jan 12:00 UTC')
    const thread = `<game-${gameId}@botwars.test>`
    for (const m of mailsTo(w.smtp, 'ann@example.org').filter((m) => m.subject.includes('"Test game"'))) {
      expect(m.headers.get('in-reply-to')).toBe(thread)
      expect(m.headers.get('references')).toBe(thread)
      expect(m.messageId).not.toBe(thread)
    }
  })

  it('tells each player their own story, derived from the event log, with the picture inline and the report link', () => {
    const turn = w.t.app.services.turns.byNumber(gameId, 1)!
    const result = JSON.parse(turn.result_json!) as TurnResult
    PLAYERS.forEach((p, seat) => {
      const mail = turn2Mails.get(p.email)!
      // The shared story line of src/render/story.ts (pages tell the same), from the event log.
      const story = `${turnStory(result, { P1: 'Ann', P2: 'Bob', P3: 'Cid' }).find((l) => l.player === `P${seat + 1}`)!.text}.`
      expect(story).toMatch(/^r\d+c\d+/)
      expect(mail.text.replace(/\s+/g, ' ')).toContain(`Turn 1: ${story}`)
      expect(mail.html).toContain(story.replace(/'/g, '&#39;'))
      expect(mail.text).toContain(`http://botwars.test/games/${gameId}/turns/1\n`)
      const picture = mail.attachments.find((a) => a.contentType === 'image/png')!
      expect(picture.contentId).toBe('<board@botwars>')
      expect(picture.content.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
      expect(mail.html).toContain('src="cid:board@botwars"')
    })
  })

  it('carries the new hand (only the player\'s own), the state, the deadline and the form link', () => {
    const dealt = JSON.parse(w.t.app.services.turns.byNumber(gameId, 2)!.dealt_state_json)
    // Cards in words, as on the pages: "Move 2 (700)" (the reply parser reads both forms).
    const everyCard = Object.values(dealt.hands as Record<string, Card[]>).flat().map(cardLabel)
    PLAYERS.forEach((p, seat) => {
      const mail = turn2Mails.get(p.email)!
      const own = (dealt.hands[`P${seat + 1}`] as Card[]).map(cardLabel)
      expect(everyCard.filter((c) => mail.text.includes(c)).sort()).toEqual([...own].sort())
      expect(everyCard.filter((c) => mail.html.includes(c)).sort()).toEqual([...own].sort())
      for (const label of ['HP:', 'Robots left:', 'Options:', 'Fused:']) expect(mail.text).toContain(label)
      expect(mail.text).toContain('Your program is due Sat 12 Jan 12:00 UTC.')
      expect(mail.text).toContain(`http://botwars.test/games/${gameId}/turns/2/submit`)
    })
  })

  it('has a reply address of its own per player and turn, as Reply-To', () => {
    const addresses = PLAYERS.map((p) => turn2Mails.get(p.email)!.headers.get('reply-to')!)
    for (const a of addresses) expect(a).toMatch(new RegExp(`^turn-[a-z2-7]{24}@${MAIL_DOMAIN.replace(/\./g, '\\.')}$`))
    expect(new Set(addresses).size).toBe(3)
    const turn1 = mailsTo(w.smtp, 'ann@example.org').find((m) => m.subject.startsWith('Turn 1 of'))!
    expect(turn1.headers.get('reply-to')).not.toBe(addresses[0])
  })

  it('is multipart: a text part under 80 columns, an HTML part with inline styles only, no scripts, no external images', () => {
    for (const mail of w.smtp.received.filter((m) => m.to[0] !== undefined)) {
      expect(mail.text.length).toBeGreaterThan(0)
      expect(mail.html.length, mail.subject).toBeGreaterThan(0)
      for (const line of mail.text.split('\n')) expect(line.length, `${mail.subject}: ${line}`).toBeLessThan(80)
      expect(mail.html).not.toMatch(/<script|<style|<link|@import|javascript:/i)
      for (const src of mail.html.matchAll(/src="([^"]*)"/g)) expect(src[1]).toMatch(/^cid:/)
      expect(mail.headers.get('auto-submitted')).toBe('auto-generated')
    }
    expect(turn2Mails.get('ann@example.org')!.html).toMatch(/<p[^>]+style="[^"]+"/)
  })

  it('sends the GM, who does not play, the results only, with the picture', () => {
    const gmMail = mailsTo(w.smtp, 'gm@example.org').at(-1)!
    expect(gmMail.subject).toBe('Turn 1 of "Test game" — results')
    expect(gmMail.text).not.toMatch(/Your hand|due/)
    expect(gmMail.attachments.some((a) => a.contentId === '<board@botwars>')).toBe(true)
  })
})

describe('mail preferences', () => {
  it('one-click unsubscribe (List-Unsubscribe-Post) stops game mail; sign-in mail still goes', async () => {
    const mail = turn2Mails.get('cid@example.org')!
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    const url = /^<(http:\/\/botwars\.test(\/mail\/unsubscribe\?[^>]+))>$/.exec(mail.headers.get('list-unsubscribe')!)![2]!
    // Opening the link changes nothing (mail scanners open links); a forged token is refused.
    expect((await w.t.app.inject({ method: 'GET', url })).body).toContain('Stop BotWars mail?')
    const forged = url.replace(/t=[^&]+/, `t=${'A'.repeat(43)}`)
    expect((await w.t.app.inject({ method: 'POST', url: forged, payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).statusCode).toBe(400)
    const other = url.replace(/a=[^&]+/, `a=${Buffer.from('ann@example.org').toString('base64url')}`)
    expect((await w.t.app.inject({ method: 'POST', url: other, payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).statusCode).toBe(400)
    const done = await w.t.app.inject({ method: 'POST', url, payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(done.statusCode).toBe(200)
    expect(done.body).toContain('BotWars mail stopped')

    const before = w.t.app.services.outbox.all().length
    w.t.app.services.write(() => w.t.app.services.mail({ kind: 'results', gameId, to: 'cid@example.org', subject: 'x', body: 'y' }))
    expect(w.t.app.services.outbox.all().length).toBe(before)
    expect((await w.t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'cid@example.org' } })).statusCode).toBe(202)
    expect(w.t.app.services.outbox.all().at(-1)).toMatchObject({ kind: 'sign-in', recipient: 'cid@example.org' })
  })

  it('the settings page sets a daily digest, which folds held mail into one message a day', async () => {
    const session = await signedInCookie('bob@example.org')
    const page = await w.t.app.inject({ method: 'GET', url: '/settings/mail', headers: { cookie: session } })
    expect(page.statusCode).toBe(200)
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!
    const csrfCookie = page.cookies.find((c) => c.name.endsWith('botwars_csrf'))!
    const cookie = `${session}; ${csrfCookie.name}=${csrfCookie.value}`
    const saved = await w.t.app.inject({ method: 'POST', url: '/settings/mail', payload: new URLSearchParams({ _csrf: csrf, mode: 'digest' }).toString(), headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' } })
    expect(saved.statusCode).toBe(200)
    expect(saved.body).toMatch(/id="mode-digest" name="mode" value="digest" checked/)
    const noCsrf = await w.t.app.inject({ method: 'POST', url: '/settings/mail', payload: 'mode=none', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' } })
    expect(noCsrf.statusCode).toBe(403)

    const ctx = w.t.app.services
    const queued = ctx.outbox.all().length
    ctx.write(() => {
      ctx.mail({ kind: 'results', gameId, to: 'bob@example.org', subject: 'First', body: 'first body' })
      ctx.mail({ kind: 'deadline', gameId, to: 'BOB@example.org', subject: 'Second', body: 'second body' })
    })
    expect(ctx.outbox.all().length).toBe(queued)
    expect(w.t.app.runDueWork().digests).toBe(0) // the first digest goes a day after it was chosen
    w.t.clock.now += 24 * 3600_000
    expect(w.t.app.runDueWork().digests).toBe(1)
    const digest = ctx.outbox.all().at(-1)!
    expect(digest).toMatchObject({ kind: 'digest', recipient: 'bob@example.org' })
    expect(digest.body).toContain('first body')
    expect(digest.body).toContain('second body')
    ctx.write(() => ctx.mail({ kind: 'results', gameId, to: 'bob@example.org', subject: 'Third', body: 'third body' }))
    expect(w.t.app.runDueWork().digests).toBe(0) // once a day
    w.t.clock.now += 24 * 3600_000
    expect(w.t.app.runDueWork().digests).toBe(1)
    expect(ctx.outbox.all().at(-1)!.body).toContain('third body')
  })
})

async function signedInCookie(email: string): Promise<string> {
  const { signIn } = await import('../server/helpers.js')
  const c = await signIn(w.t.app, email)
  return c.headers.cookie!
}
