// Every kind of mail read as the person who gets it (text and HTML), produced by the real app
// through a real SMTP server on 127.0.0.1: a game of three (Ann, Bob, Cid) and a GM who does not
// play, where Ann's robot falls into a pit and is reinstated, Bob declares a reboot, Cid loses his
// last robot, the GM moves the deadline, reopens, corrects and rolls back, Bob withdraws; then two
// games whose mail Ann takes as a digest, one ended with placings and one abandoned, and a program
// sent by reply. What a reader was told wrong, or could not follow, is checked here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { preferencesRepository } from '../../src/server/mail/preferences.js'
import { startSmtpListener } from '../../src/server/inbound/smtp-listener.js'
import { hasChromium } from '../browser/harness.js'
import { closeTurn, someProgram, startedGame } from '../gm/helpers.js'
import { PLAYERS, setUpGame, type Client } from '../server/helpers.js'
import type { Received } from '../server/smtp.js'
import { mailWorld, replyAddressIn, sendToListener, type MailWorld } from './helpers.js'
import { renderMail } from './render.js'

/** A mail with where its links led when it arrived (followed with the reader's session, as they would). */
interface Mail extends Received { label: string; links: { url: string; status: number; location?: string }[] }
let w: MailWorld
const mails: Mail[] = []
/** The signed-in person behind each address, for following their mail's links as they would. */
const sessions = new Map<string, Client>()

async function collect(label: string) {
  await w.t.app.mailer.deliver()
  for (const m of w.smtp.received.slice(seen)) mails.push({ ...m, label, links: await follow(m) })
  seen = w.smtp.received.length
}

const LINK = /https?:\/\/[^\s<>"]+/g
async function follow(m: Received) {
  const unsubscribe = /<([^>]+)>/.exec(m.headers.get('list-unsubscribe') ?? '')?.[1]
  const urls = new Set([...(m.text.match(LINK) ?? []), ...[...m.html.matchAll(/href="([^"]+)"/g)].map((h) => h[1]!.replace(/&amp;/g, '&')), ...(unsubscribe ? [unsubscribe] : [])])
  const cookie = sessions.get(m.to[0]!)?.headers.cookie
  const out: { url: string; status: number; location?: string }[] = []
  for (const url of urls) {
    const res = await w.t.app.inject({ method: 'GET', url: url.replace('http://botwars.test', ''), headers: cookie ? { cookie } : {} })
    out.push({ url, status: res.statusCode, location: res.headers.location as string | undefined })
  }
  return out
}
let seen = 0
const one = (label: string, to: string, subject = /./) => {
  const found = mails.filter((m) => m.label === label && m.to.includes(to) && subject.test(m.subject))
  expect(found, `${label} to ${to}`).toHaveLength(1)
  return found[0]!
}

beforeAll(async () => {
  w = await mailWorld()
  const app = w.t.app
  const g = await startedGame(app, { turnLimit: 3, stalemateTurns: 1, name: 'Friday Factory' })
  const { gm, gameId } = g
  const [ann, bob, cid] = g.players as [Client, Client, Client]
  for (const c of [gm, ann, bob, cid]) sessions.set(c.email, c)
  await collect('set up and turn 1')

  // Ann's robot stands south of a pit, Cid's (his last) south of another: their first card moves them in.
  const first = app.services.db.prepare('SELECT id, dealt_state_json FROM turns WHERE game_id = ? AND number = 1').get(gameId) as { id: number; dealt_state_json: string }
  const state = JSON.parse(first.dealt_state_json)
  const put = (player: string, row: number, col: number, robotsLeft: number) => Object.assign(state.robots.find((r: { player: string }) => r.player === player), { at: { row, col }, facing: 'N', robotsLeft })
  put('P1', 4, 2, 3)
  put('P3', 6, 7, 1)
  app.services.db.prepare('UPDATE turns SET dealt_state_json = ? WHERE id = ?').run(JSON.stringify(state), first.id)
  const forwardFirst = async (c: Client) => {
    const hand = (await c.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me.hand as string[]
    const move = hand.find((card) => card.startsWith('FWD'))!
    return [move, ...hand.filter((card) => card !== move).slice(0, 4)]
  }
  const deadline = Date.parse((await gm.call('GET', `/api/v1/games/${gameId}`)).json.currentTurn.deadline)
  w.t.clock.now = deadline - 11 * 3600_000
  app.runDueWork()
  await collect('reminder')
  expect((await gm.call('POST', `/api/v1/games/${gameId}/deadline`, { extendHours: 2, reason: 'Bob is travelling' })).status).toBe(200)
  await collect('deadline')
  expect((await bob.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await someProgram(bob, gameId, 1), rebootNext: true })).status).toBe(201)
  expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await forwardFirst(ann) })).status).toBe(201)
  expect((await cid.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await forwardFirst(cid) })).status).toBe(201)
  await closeTurn(app, w.t.clock, gm, gameId)
  await collect('draft ready')
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/reopen`, { player: 'P1', reason: 'You asked to change it' })).status).toBe(200)
  await collect('reopened')
  expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await forwardFirst(ann) })).status).toBe(201)
  const cidCards = await forwardFirst(cid)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/corrections`, { player: 'P3', cards: [cidCards[0], ...cidCards.slice(1).reverse()], reason: 'Cid mailed me his program' })).status).toBe(201)
  await collect('correction')
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'ok' })).status).toBe(200)
  await collect('turn 2')
  await closeTurn(app, w.t.clock, gm, gameId)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/2/publish`, { reason: 'ok' })).status).toBe(200)
  await collect('turn 3')
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/2/rollback`, { reason: 'a wall was missing' })).status).toBe(200)
  await collect('rollback')
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/2/publish`, { reason: 'ok again' })).status).toBe(200)
  await collect('turn 3 again')
  expect((await bob.call('POST', `/api/v1/games/${gameId}/withdraw`, { reason: 'no time' })).status).toBe(200)
  await collect('withdrawn')
  await closeTurn(app, w.t.clock, gm, gameId)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/3/publish`, { reason: 'ok' })).status).toBe(200)
  await collect('game over')

  // Two more games, whose mail Ann takes as one digest a day; a seat removed, one ended, one abandoned.
  const options = { turnLengthHours: 24, reviewWindowHours: 24, closeEarly: false }
  const second = await setUpGame(app, PLAYERS, { name: 'Second Game', ...options })
  const third = await setUpGame(app, PLAYERS, { name: 'Third Game', ...options })
  await collect('set up')
  for (const c of [second.gm, ...second.players]) sessions.set(c.email, c)
  const chosen = w.t.clock.now
  preferencesRepository(app.services.db).setMode('ann@example.org', 'digest', chosen)
  for (const game of [second, third]) expect((await game.gm.call('POST', `/api/v1/games/${game.gameId}/start`, { reason: 'go' })).status).toBe(200)
  // Their reminders: Ann's, held for her digest too.
  w.t.clock.now = Date.parse((await second.gm.call('GET', `/api/v1/games/${second.gameId}`)).json.currentTurn.deadline) - 11 * 3600_000
  app.runDueWork()
  expect((await second.gm.call('POST', `/api/v1/games/${second.gameId}/seats/3/remove`, { reason: 'Cid never played' })).status).toBe(200)
  await collect('removed')
  expect((await second.gm.call('POST', `/api/v1/games/${second.gameId}/end`, { reason: 'time is up' })).status).toBe(200)
  await collect('ended')
  expect((await third.gm.call('POST', `/api/v1/games/${third.gameId}/abandon`, { reason: 'the server moves' })).status).toBe(200)
  await collect('abandoned')
  w.t.clock.now = chosen + 24 * 3600_000
  app.runDueWork()
  await collect('digest')
  preferencesRepository(app.services.db).setMode('ann@example.org', 'every', w.t.clock.now)

  // A newcomer's sign-in link and invitation, not yet used.
  expect((await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'dee@example.org' } })).statusCode).toBe(202)
  const fourth = await second.gm.call('POST', '/api/v1/games', { name: 'Fourth Game', board: 'training-floor', seats: 2 })
  expect((await second.gm.call('POST', `/api/v1/games/${fourth.json.id}/invites`, { email: 'dee@example.org' })).status).toBe(201)
  await collect('newcomer')

  // A program by reply, stored, and one refused.
  const inbound = await startSmtpListener(app.services, { port: 0, host: '127.0.0.1', log: { warn: () => {} } })
  try {
    const reply = await startedGame(app, { name: 'Reply Game' })
    for (const c of [reply.gm, ...reply.players]) sessions.set(c.email, c)
    await w.t.app.mailer.deliver()
    seen = w.smtp.received.length
    const to = replyAddressIn(w.smtp, 'bob@example.org', 1)
    const cards = await someProgram(reply.players[1]!, reply.gameId, 1)
    await sendToListener(inbound.port, { from: 'bob@example.org', to, subject: 'Re: turn 1', text: cards.map((c, i) => `${i + 1}. ${c}`).join('\n') })
    await collect('confirmation')
    await sendToListener(inbound.port, { from: 'bob@example.org', to, subject: 'Re: turn 1', text: 'I go left this time.' })
    await collect('refusal')
  } finally {
    await inbound.close()
  }
}, 300_000)
afterAll(async () => { await w.close() })

const CARD_CODE = /\b[A-Z]{2,4}\d?:\d{1,3}\b/
const SETTINGS = 'http://botwars.test/settings/mail'
const GAME_NAMES = /"(Friday Factory|Second Game|Third Game|Fourth Game|Reply Game)"/

describe('every mail, as its reader sees it', () => {
  it('covers every kind the server sends', () => {
    const labels = new Set(mails.map((m) => m.label))
    for (const label of ['reminder', 'deadline', 'draft ready', 'reopened', 'correction', 'turn 2', 'rollback', 'withdrawn', 'game over', 'removed', 'ended', 'abandoned', 'digest', 'newcomer', 'confirmation', 'refusal']) {
      expect(labels, label).toContain(label)
    }
    expect(mails.filter((m) => /no flag touched/.test(m.subject)).length).toBeGreaterThan(0)
  })

  it('every link leads where it says, for the one who got it', () => {
    // The set-up's sign-in links and invitations were used to set the games up; the newcomer's were not.
    const unused = mails.filter((m) => m.label === 'newcomer' || !/sign-in link|Invitation/.test(m.subject))
    // Someone with no account yet is sent to sign in first, and then on to the page.
    const works = (l: Mail['links'][number]) => l.status === 200 || (l.status === 303 && l.location === `/sign-in?next=${encodeURIComponent(new URL(l.url).pathname)}`)
    const broken = unused.flatMap((m) => m.links.filter((l) => !works(l)).map((l) => `${m.label} to ${m.to[0]} (${m.subject}): ${l.status} ${l.url}`))
    expect(broken.join('\n')).toBe('')
  })

  it('every mail: its subject names the game, its text fits a terminal, its footer offers the mail settings once', () => {
    for (const m of mails) {
      const what = `${m.label} to ${m.to[0]}: ${m.subject}`
      if (!/sign-in link|digest/.test(m.subject)) expect(m.subject, what).toMatch(GAME_NAMES)
      for (const line of m.text.split('\n')) if (/\s/.test(line.trim())) expect(line.length, `${what}: ${line}`).toBeLessThan(80)
      expect(m.headers.get('list-unsubscribe'), what).toMatch(/^<http:\/\/botwars\.test\/mail\/unsubscribe\?/)
      expect(m.text, what).toContain(SETTINGS)
      expect(m.html.split(SETTINGS).length - 1, what).toBe(1)
      expect(m.html, what).not.toMatch(/<script|<style/i)
    }
  })

  it('names people and cards in words: no seat ids, no card codes', () => {
    for (const m of mails) {
      const what = `${m.label} to ${m.to[0]}: ${m.subject}`
      for (const part of [m.subject, m.text, m.html.replace(/<[^>]+>/g, ' ')]) {
        expect(part, what).not.toMatch(/\bP[1-8]\b/)
        expect(part, what).not.toMatch(CARD_CODE)
      }
    }
  })

  it('counts in words that agree with the number: no "1 turns", no "1 cards"', () => {
    for (const m of mails) for (const part of [m.subject, m.text]) expect(part, `${m.label}: ${m.subject}`).not.toMatch(/\b1 (turns|cards|robots|registers)\b/)
  })

  it('no sentence is broken: no line of a lone full stop, no robot that "stayed on off the board"', () => {
    for (const m of mails) {
      expect(m.text.split('\n').filter((line) => /^\s*\.\s*$/.test(line)), `${m.label}: ${m.subject}`).toEqual([])
      expect(m.text, `${m.label}: ${m.subject}`).not.toContain('stayed on off the board')
    }
  })

  it('the turn mail says first what to do and by when, and the facing in words', () => {
    for (const m of mails.filter((x) => /^Turn \d+ of .* — your program is due/.test(x.subject))) {
      const top = m.text.split('\n').slice(0, 6).join(' ')
      expect(top, m.subject).toMatch(/(Your program for turn \d+ is due|nothing is due, but you may declare another reboot until) \w{3} \d+ \w{3} \d\d:\d\d UTC/)
      expect(m.text, m.subject).toMatch(/Position: +r\d+c\d+ facing (north|east|south|west)/)
    }
  })

  it('a rebooting robot\'s player is shown no example made of cards they were not dealt', () => {
    const mail = one('turn 2', 'bob@example.org')
    expect(mail.text).toContain('Your robot is rebooting this turn')
    expect(mail.text).toContain('Your robot plays no cards in turn 2: nothing is due')
    expect(mail.subject).toMatch(/turn 2 .* your robot plays no cards: nothing is due$/i)
    for (const part of [mail.text, mail.html]) {
      expect(part).not.toContain('Move 1 (490)')
      expect(part).toMatch(/no cards/)
    }
  })

  it('a reinstated robot\'s player is told they may name its facing, and how', () => {
    const mail = one('turn 2', 'ann@example.org')
    for (const part of [mail.text, mail.html]) {
      expect(part.replace(/\s+/g, ' ')).toMatch(/new robot faces north.*you may name another facing/i)
      expect(part).toContain('facing east')
    }
  })

  it('the GM\'s draft mail: what happened, in lines that fit, and when it publishes itself', () => {
    const mail = one('draft ready', 'gm@example.org')
    expect(mail.text).toMatch(/What happened:\n {2}Ann: /)
    expect(mail.text).not.toContain('Stage 1')
    expect(mail.text).toMatch(/published on \w{3} \d+ \w{3} \d\d:\d\d UTC/)
  })

  it('a reader with no robot in the turn (the GM) is told what happened to each robot', () => {
    const mail = mails.find((m) => m.label === 'turn 2' && m.subject === 'Turn 1 of "Friday Factory" — results' && m.to.includes('gm@example.org'))!
    for (const part of [mail.text, mail.html]) for (const name of ['Ann', 'Bob', 'Cid']) expect(part).toMatch(new RegExp(`${name}: r\\d`))
  })

  it('the deadline moved: the date as the turn mail gives it; the GM who does not play is not asked for a program', () => {
    const player = one('deadline', 'ann@example.org')
    expect(player.text).toMatch(/to \w{3} \d+ \w{3} \d\d:\d\d UTC/)
    expect(player.text).toContain('/turns/1/submit')
    const gm = one('deadline', 'gm@example.org')
    expect(gm.text).not.toMatch(/your program/i)
    expect(gm.text).not.toContain('/submit')
  })

  it('a player who leaves, or is removed, is told in the second person', () => {
    expect(one('withdrawn', 'bob@example.org').text).toMatch(/^You withdrew from the game "Friday Factory": no time\./)
    expect(one('withdrawn', 'ann@example.org').text).toMatch(/^Bob withdrew from the game: no time\./)
    expect(one('removed', 'cid@example.org', /removed you/).text).toMatch(/^The GM removed you from the game "Second Game": Cid never played\./)
    for (const m of [one('withdrawn', 'bob@example.org'), one('removed', 'cid@example.org', /removed you/)]) expect(m.text).not.toContain('Their robot')
  })

  it('the answers to a program by reply name the cards as the turn mail does', () => {
    const confirmation = one('confirmation', 'bob@example.org')
    expect(confirmation.text).toMatch(/\n {2}1\. (Move|Back|Turn|U-turn)[^\n]*\(\d+\)\n/)
    const refusal = one('refusal', 'bob@example.org')
    expect(refusal.text.replace(/\s+/g, ' ')).toContain('"1. Move 2 (700)"')
  })

  it('a turn mail or reminder inside a digest, which has no reply address of its own, says where to send the program', () => {
    const digest = one('digest', 'ann@example.org')
    expect(digest.headers.has('reply-to')).toBe(false)
    expect(digest.text).toContain('reminder: your program is due')
    expect(digest.text).not.toMatch(/reply to (this mail|your turn mail)/i)
    expect(digest.text).toMatch(/Or send your program to the address below, one card per line/)
    expect(digest.text.replace(/\s+/g, ' ')).toMatch(/Send it to turn-[a-z0-9]+@play\.botwars\.test, which is yours alone for this turn\./)
  })

  it('every kind drawn in Chromium at phone and desktop width: nothing too wide or cut off, nothing fetched', async () => {
    const ended = one('ended', 'bob@example.org')
    expect(ended.html).toMatch(/<pre[^>]*>Place {2}Player/)
    // Prose merely indented (a story line a robot) stays a paragraph, free to wrap.
    expect(one('draft ready', 'gm@example.org').html).not.toContain('<pre')
    if (!hasChromium) return console.warn('!! Chromium missing: mails not rendered')
    for (const [m, name] of [[ended, 'review-ended'], [one('newcomer', 'dee@example.org', /sign-in/), 'review-sign-in'], [one('newcomer', 'dee@example.org', /Invitation/), 'review-invitation'], [one('draft ready', 'gm@example.org'), 'review-draft-ready'], [one('digest', 'ann@example.org'), 'review-digest'],
      [one('turn 2', 'ann@example.org'), 'review-turn-reinstated'], [one('turn 2', 'bob@example.org'), 'review-turn-rebooting'],
      [one('turn 2', 'gm@example.org', /results/), 'review-results-gm'], [one('turn 2', 'cid@example.org'), 'review-results-out'],
      [one('reminder', 'ann@example.org'), 'review-reminder'], [one('withdrawn', 'bob@example.org'), 'review-withdrawn-self'],
      [one('confirmation', 'bob@example.org'), 'review-confirmation'], [one('game over', 'ann@example.org'), 'review-game-over']] as const) {
      const shown = await renderMail(m, name)
      expect(shown.tooWideOnPhone, name).toEqual([])
      expect(shown.cutOffOnPhone, name).toEqual([])
      expect(shown.requests, name).toEqual([])
    }
  })
})
