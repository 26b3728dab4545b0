// An operator upgrades the server while games run: today's server opened on a database an older
// release wrote (test/fixtures/upgrade/, made by that release's own code, see its README) must
// bring the schema to today's, keep every page and answer, keep secrets secret, and play on.
import { copyFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Database from '../../src/server/plugins/sqlite.js'
import { openDatabase } from '../../src/server/plugins/db.js'
import { startSmtpListener, type InboundSmtp } from '../../src/server/inbound/smtp-listener.js'
import { firstCards, MAIL_DOMAIN, sendToListener } from '../mail/helpers.js'
import { HOUR, client, tempDir, testApp, type Client, type TestApp } from '../server/helpers.js'
import { startSmtp } from '../server/smtp.js'

const FIXTURES = new URL('../fixtures/upgrade/', import.meta.url)
/** The address the fixture's mail server refused for good (make-fixture.ts). */
const REFUSED = 'nobody@refused.example.org'

interface Fixture {
  now: number
  cookies: Record<'gm' | 'ann' | 'bob' | 'cid', string>
  emails: Record<'gm' | 'ann' | 'bob' | 'cid', string>
  apiTokens: { annRunning: string; bobRunningRevoked: string }
  games: Record<'setup' | 'running' | 'review' | 'corrected' | 'paused' | 'finished' | 'practice' | 'unsent', string>
  /** Cid's reply address for turn 2 of the running game, from the turn mail the old release sent. */
  cidReplyTo: string
  publicTokens: { running: string; finished: string }
  ann2Submitted: { submission: { cards: string[] } }
  finished: { game: any; standings: any; turn1: any; turn2: any }
}

/** Tables, columns, indexes and triggers as SQLite keeps them, whitespace made plain. */
function schemaOf(db: Database.Database) {
  return db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all()
    .map((row: any) => ({ ...row, sql: String(row.sql ?? '').replace(/\s+/g, ' ').trim() }))
}

function freshSchema() {
  const db = openDatabase(join(tempDir(), 'fresh.db'))
  try {
    return { schema: schemaOf(db), migrations: db.prepare('SELECT name FROM schema_migrations ORDER BY name').pluck().all() }
  } finally { db.close() }
}

/** Every same-site picture a page links to (turn and board pictures: stored results drawn again). */
function picturesIn(html: string): string[] {
  return [...new Set([...html.matchAll(/(?:src|href)="(\/(?:games|watch)\/[^"]*\/pictures\/[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&')))]
}

describe.each(['release-030-06984cd', 'release-040-f44fb1f'])('a database written by %s', (name) => {
  const fixture = JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as Fixture
  let t: TestApp
  let smtp: Awaited<ReturnType<typeof startSmtp>>
  let inbound: InboundSmtp
  let oldMigrations: string[]
  let digestsMadeBefore: string[]
  let people: Record<'gm' | 'ann' | 'bob' | 'cid', Client>

  beforeAll(async () => {
    const dir = tempDir()
    copyFileSync(new URL(`${name}.db`, FIXTURES), join(dir, 'botwars.db'))
    const before = new Database(join(dir, 'botwars.db'), { readonly: true })
    oldMigrations = before.prepare('SELECT name FROM schema_migrations').pluck().all() as string[]
    digestsMadeBefore = before.prepare("SELECT body FROM outbox WHERE kind = 'digest' AND status = 'pending'").pluck().all() as string[]
    before.close()
    smtp = await startSmtp(0, { refuse: (address) => address === REFUSED })
    t = await testApp({ dir, smtpUrl: smtp.url, clock: { now: fixture.now + 60_000 } })
    t.app.services.mailDomain = MAIL_DOMAIN
    inbound = await startSmtpListener(t.app.services, { port: 0, host: '127.0.0.1', log: { warn: () => {} } })
    people = Object.fromEntries((['gm', 'ann', 'bob', 'cid'] as const).map((who) =>
      [who, client(t.app, fixture.emails[who], { cookie: fixture.cookies[who] })])) as typeof people
  })
  afterAll(async () => {
    await inbound?.close()
    await t?.close()
    await smtp?.close()
  })

  it('applies the missing migrations once, and its schema is a fresh database\'s', () => {
    const fresh = freshSchema()
    const applied = t.app.db.prepare('SELECT name FROM schema_migrations ORDER BY name').pluck().all()
    expect(applied).toEqual(fresh.migrations)
    expect(oldMigrations.length).toBeLessThan(fresh.migrations.length)
    expect(schemaOf(t.app.db)).toEqual(fresh.schema)
    expect(t.app.db.pragma('foreign_key_check')).toEqual([])
    expect(t.app.db.pragma('integrity_check', { simple: true })).toBe('ok')
  })

  it('still signs in the people of the old sessions, and the API tokens work or are refused cleanly', async () => {
    for (const who of ['gm', 'ann', 'bob', 'cid'] as const) {
      const me = await people[who].call('GET', '/api/v1/me')
      expect(me.status, who).toBe(200)
      expect(me.json.email).toBe(fixture.emails[who])
    }
    const bearer = (token: string) => client(t.app, 'bot', { authorization: `Bearer ${token}` })
    const ann = await bearer(fixture.apiTokens.annRunning).call('GET', `/api/v1/games/${fixture.games.running}/turns/2`)
    expect(ann.status).toBe(200)
    expect(ann.json.me.submission.cards).toEqual(fixture.ann2Submitted.submission.cards)
    const revoked = await bearer(fixture.apiTokens.bobRunningRevoked).call('GET', `/api/v1/games/${fixture.games.running}`)
    expect(revoked.status).toBe(401)
  })

  it('renders every page a GM, a player and a spectator had, and the pictures they show', async () => {
    const { games } = fixture
    const pages: [Client | null, string][] = [
      [people.gm, '/'], [people.ann, '/'], [people.cid, '/'], [people.bob, '/settings/mail'],
      [null, `/watch/${fixture.publicTokens.running}`], [null, `/watch/${fixture.publicTokens.finished}`],
      [null, `/watch/${fixture.publicTokens.finished}/turns/1`], [null, `/watch/${fixture.publicTokens.finished}/turns/2`],
      [people.gm, `/games/${games.setup}`], [people.gm, `/games/${games.setup}/gm`], [people.ann, `/games/${games.setup}`],
      [people.gm, `/games/${games.corrected}/turns/2/withdrawn/1`], [people.ann, `/games/${games.corrected}/turns/2/withdrawn/1`],
      [people.ann, `/games/${games.running}/turns/2/submit`], [people.cid, `/games/${games.running}/turns/2/submit`],
      [people.gm, `/games/${games.finished}/standings`], [people.bob, `/games/${games.finished}/standings`],
    ]
    for (const game of ['running', 'review', 'corrected', 'paused', 'finished'] as const) {
      const view = (await people.gm.call('GET', `/api/v1/games/${games[game]}`)).json
      const turns = view.currentTurn?.number ?? 0
      pages.push([people.gm, `/games/${games[game]}`], [people.gm, `/games/${games[game]}/gm`], [people.ann, `/games/${games[game]}`], [people.bob, `/games/${games[game]}`])
      for (let n = 1; n <= turns; n++) pages.push([people.gm, `/games/${games[game]}/turns/${n}`], [people.cid, `/games/${games[game]}/turns/${n}`])
    }
    for (const game of ['running', 'corrected', 'finished'] as const) {
      for (const who of [people.gm, people.bob]) {
        pages.push([who, `/api/v1/games/${games[game]}/history`], [who, `/api/v1/games/${games[game]}/messages`], [who, `/api/v1/games/${games[game]}/standings`])
      }
    }
    pages.push([people.gm, `/api/v1/games/${games.corrected}/turns/2/withdrawn/1`], [people.gm, `/api/v1/games/${games.running}/turns/2/submissions`])
    pages.push([people.cid, `/games/${games.practice}`], [people.cid, `/games/${games.practice}/turns/1`], [people.cid, `/games/${games.practice}/turns/2`])
    const pictures: [Client | null, string][] = []
    for (const [who, asked] of pages) {
      let url = asked
      let res = await t.app.inject({ method: 'GET', url, headers: who?.headers ?? {} })
      // A player's page of the open turn is its program form.
      if (res.statusCode === 303 && /\/submit$/.test(String(res.headers.location))) {
        url = String(res.headers.location)
        res = await t.app.inject({ method: 'GET', url, headers: who?.headers ?? {} })
      }
      expect(res.statusCode, `${who?.email ?? 'spectator'} ${url}: ${res.body.slice(0, 300)}`).toBe(200)
      for (const picture of picturesIn(res.body)) pictures.push([who, picture])
    }
    // The message the GM hid stays hidden from the players.
    const messages = await people.bob.call('GET', `/api/v1/games/${games.running}/messages`)
    expect(messages.text).toContain('Good luck, all!')
    expect(messages.text).not.toContain('something rude')
    expect(pictures.length).toBeGreaterThan(10)
    for (const [who, url] of pictures) {
      const res = await t.app.inject({ method: 'GET', url, headers: who?.headers ?? {} })
      expect(res.statusCode, `${who?.email ?? 'spectator'} ${url}: ${res.body.slice(0, 300)}`).toBe(200)
    }
  })

  it('keeps the programs of the open turn secret from the other players and the spectators', async () => {
    const cards = fixture.ann2Submitted.submission.cards
    expect(cards.length).toBeGreaterThan(0)
    const program = cards.join(',')
    const spied = [
      await people.bob.call('GET', `/api/v1/games/${fixture.games.running}/turns/2`),
      await people.bob.call('GET', `/api/v1/games/${fixture.games.running}/turns/2/submissions`),
      await client(t.app, 'x').call('GET', `/api/v1/public/${fixture.publicTokens.running}`),
      await people.bob.call('GET', `/games/${fixture.games.running}`),
      await people.bob.call('GET', `/games/${fixture.games.running}/turns/2/submit`),
      await client(t.app, 'x').call('GET', `/watch/${fixture.publicTokens.running}`),
    ]
    // The GM who does not play sees every program (docs/security.md); nobody else may.
    for (const res of spied) {
      expect(res.status, res.text.slice(0, 200)).toBe(200)
      expect(res.text.replace(/"/g, '').replace(/\s/g, '')).not.toContain(program)
      for (const card of cards) expect(res.text).not.toContain(card)
    }
    const mine = await people.ann.call('GET', `/api/v1/games/${fixture.games.running}/turns/2`)
    expect(mine.json.me.submission.cards).toEqual(cards)
  })

  it('tells the finished game as the old release did', async () => {
    const { finished } = fixture
    const game = (await people.ann.call('GET', `/api/v1/games/${fixture.games.finished}`)).json
    expect(game.status).toBe(finished.game.status)
    expect(game.robots).toEqual(finished.game.robots)
    expect(game.winners).toEqual(finished.game.winners)
    const standings = (await people.ann.call('GET', `/api/v1/games/${fixture.games.finished}/standings`)).json
    expect(standings).toEqual(finished.standings)
    for (const [n, before] of [[1, finished.turn1], [2, finished.turn2]] as const) {
      const turn = (await people.ann.call('GET', `/api/v1/games/${fixture.games.finished}/turns/${n}`)).json
      expect(turn.result.robots, `turn ${n}`).toEqual(before.result.robots)
      expect(turn.result.events, `turn ${n}`).toEqual(before.result.events)
      expect(turn.programs, `turn ${n}`).toEqual(before.programs)
    }
  })

  it('withdraws the old release\'s unsent mail of a turn the GM rolls back after the upgrade', async () => {
    // The server stopped with the hands of turn 2 of the unsent game queued (and, in 040, held
    // for Bob's digest); the GM rolls turn 1 back: turn 2 no longer exists, its hands must not go.
    const gameId = fixture.games.unsent
    const rolled = await people.gm.call('POST', `/api/v1/games/${gameId}/turns/1/rollback`, { reason: 'wrong board' })
    expect(rolled.status, rolled.text).toBe(200)
    const unsentOfTurn = t.app.db.prepare(`SELECT kind, recipient FROM outbox WHERE game_id = ? AND kind IN ('hand', 'results') AND status = 'pending'
      UNION ALL SELECT kind, recipient FROM mail_digest WHERE game_id = ? AND kind IN ('hand', 'results')`).all(gameId, gameId)
    expect(unsentOfTurn).toEqual([])
  })

  it('plays on: the last program closes the turn, the GM resolves and publishes, the next hands go out by mail', async () => {
    const { games } = fixture
    // The running game: Cid's program was the one missing. He replies to the turn mail the old
    // release sent him; the turn closes and is published at once.
    const cards = await firstCards(people.cid, games.running, 2)
    await sendToListener(inbound.port, { from: fixture.emails.cid, to: fixture.cidReplyTo, subject: 'Re: turn 2', text: cards.join('\n') })
    expect((await people.cid.call('GET', `/api/v1/games/${games.running}/turns/2`)).json.me.submission.cards).toEqual(cards)
    await t.app.runDueWork()
    const running = (await people.ann.call('GET', `/api/v1/games/${games.running}`)).json
    expect(running.currentTurn.number).toBe(3)
    expect((await people.ann.call('GET', `/api/v1/games/${games.running}/turns/3`)).json.me.hand.length).toBeGreaterThan(0)

    // The game in review: the GM re-resolves the draft and publishes it; turn 2 is dealt.
    expect((await people.gm.call('POST', `/api/v1/games/${games.review}/turns/1/resolve`, { reason: 'after the upgrade' })).status).toBe(200)
    expect((await people.gm.call('POST', `/api/v1/games/${games.review}/turns/1/publish`, {})).status).toBe(200)
    // Then a whole turn of it after the upgrade: programs, close, draft, publish.
    for (const who of [people.ann, people.bob, people.cid]) {
      const res = await who.call('POST', `/api/v1/games/${games.review}/turns/2/submission`, { cards: await firstCards(who, games.review, 2) })
      expect(res.status, res.text).toBe(201)
    }
    await t.app.runDueWork()
    expect((await people.gm.call('GET', `/api/v1/games/${games.review}/turns/2`)).json.status).toBe('draft')
    expect((await people.gm.call('POST', `/api/v1/games/${games.review}/turns/2/publish`, {})).status).toBe(200)

    // The paused game resumes, and the GM closes its turn by moving the deadline to now: the
    // missing programs are filled (R9) and turn 3 is dealt.
    expect((await people.gm.call('POST', `/api/v1/games/${games.paused}/resume`, { reason: 'back' })).status).toBe(200)
    const closeNow = await people.gm.call('POST', `/api/v1/games/${games.paused}/deadline`, { deadline: new Date(t.clock.now + 60_000).toISOString(), reason: 'close it' })
    expect(closeNow.status, closeNow.text).toBe(200)
    t.clock.now += 120_000
    await t.app.runDueWork()
    expect((await people.bob.call('GET', `/api/v1/games/${games.paused}`)).json.currentTurn.number).toBe(3)

    // The practice game goes on by itself once its player is in.
    const practice = await people.cid.call('POST', `/api/v1/games/${games.practice}/turns/2/submission`, { cards: await firstCards(people.cid, games.practice, 2) })
    expect(practice.status, practice.text).toBe(201)

    // The mail: what was queued goes, with the new hands; what failed stays failed; Bob's held
    // invitation reaches him in his digest.
    await t.app.runDueWork()
    await t.app.mailer.deliver()
    const to = (email: string) => smtp.received.filter((m) => m.to.includes(email))
    expect(to('eve@example.org').map((m) => m.subject).join()).toMatch(/invit/i)
    for (const email of [fixture.emails.ann, fixture.emails.cid]) {
      expect(to(email).some((m) => m.subject.includes('Running game') && /turn 3/i.test(m.subject)), `${email}: ${to(email).map((m) => m.subject).join(' | ')}`).toBe(true)
    }
    // A day on, Bob's digest is due (the 040 release counts his day from when he chose it).
    t.clock.now += 24 * HOUR
    await t.app.runDueWork()
    await t.app.mailer.deliver()
    expect(to(fixture.emails.bob).some((m) => /digest/i.test(m.subject) && m.text.includes('Setup game'))).toBe(true)
    // Nobody got the hand of the unsent game's turn 2, which the rollback voided; but a digest the
    // 030 release had already made whole goes as it was (before 043 a digest kept no parts to
    // make it again from; the rollback mail tells that such a hand is void).
    const voidHand = 'Turn 2 of "Unsent game"'
    for (const email of [fixture.emails.ann, fixture.emails.cid, fixture.emails.gm]) expect(to(email).filter((m) => m.text.includes(voidHand))).toEqual([])
    expect(to(fixture.emails.bob).filter((m) => m.text.includes(voidHand))).toHaveLength(digestsMadeBefore.filter((body) => body.includes(voidHand)).length)
    expect(to(REFUSED)).toEqual([])
    const outbox = t.app.db.prepare('SELECT status, count(*) AS n FROM outbox GROUP BY status').all() as { status: string; n: number }[]
    expect(outbox.find((r) => r.status === 'failed')?.n).toBe(1)
    expect(outbox.filter((r) => r.status !== 'sent' && r.status !== 'failed')).toEqual([])
  })
})
