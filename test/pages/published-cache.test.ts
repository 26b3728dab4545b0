// The published turn's report is rendered once per seat and served to every member and spectator
// from memory (pages/published-turn.ts, services/published-pages.ts). Hostile: whoever fills the
// cache first, nobody may get another viewer's page (their name, e-mail, CSRF token, messages, the
// robot the report puts first and marks as theirs), a copy that outlived a rollback or a
// correction, a turn not yet published, or a 304 for someone else's ETag.
import Database from '../../src/server/plugins/sqlite.js'
import { gunzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { publishedPages, publishedPagesStore } from '../../src/server/services/published-pages.js'
import { invalidatePublishedTurn } from '../../src/server/services/published-turns.js'
import { forgetThreads } from '../../src/server/pages/message-threads.js'
import { dealtState } from '../../src/server/services/deal.js'
import { PLAYERS, setUpGame, signIn, testApp, type Client, type TestApp } from '../server/helpers.js'
import { browser, csrfOf, type Browser } from './helpers.js'

let t: TestApp
beforeEach(async () => { t = await testApp() })
afterEach(async () => { await t.close() })

const program = (gameId: string, player: string, from = 0) => {
  const hand = (dealtState(t.app.services.turns.current(gameId)!).hands[player] ?? []).map((c) => `${c.kind}:${c.priority}`)
  return Object.fromEntries(hand.slice(from, from + 5).map((card, i) => [`r${i + 1}`, card]))
}

/** A started 2-player game (GM not playing) whose turn 1 is published; turn 2 is open. */
async function publishedGame() {
  const { gm: gmClient, gameId, players } = await setUpGame(t.app, PLAYERS.slice(0, 2), { reviewWindowHours: 24, tableTalk: true })
  // Names people typed, to be escaped in the layout as on any page.
  await players[0]!.call('PATCH', '/api/v1/me', { name: 'Ann <b>"A"</b> & co' })
  await players[1]!.call('PATCH', '/api/v1/me', { name: "Bob O'Brian" })
  const gm = browser(t.app, gmClient)
  const [ann, bob] = players.map((p: Client) => browser(t.app, p)) as [Browser, Browser]
  expect((await gm.submit(`/games/${gameId}`, `/games/${gameId}/start`, {})).status).toBe(303)
  const submit = `/games/${gameId}/turns/1/submit`
  await ann.submit(submit, submit, program(gameId, 'P1'))
  await bob.submit(submit, submit, program(gameId, 'P2'))
  expect((await gm.submit(`/games/${gameId}/gm`, `/games/${gameId}/gm/close`, { reason: 'test' })).location).toContain('done=closed')
  expect((await gm.submit(`/games/${gameId}/gm`, `/games/${gameId}/gm/publish`, { reason: '' })).location).toContain('done=published')
  const publicToken = t.app.services.games.byId(gameId)!.public_token
  const message = async (from: Browser, to: string, body: string) =>
    expect((await from.submit(`/games/${gameId}`, `/games/${gameId}/messages`, { to, body, back: `/games/${gameId}` })).status).toBe(303)
  return { gameId, gm, ann, bob, publicToken, report: `/games/${gameId}/turns/1`, watch: `/watch/${publicToken}/turns/1`, message }
}

/** The layout's signed-in block: whose name and e-mail the page carries. */
const whoBlock = (html: string) => /<li class="who">([\s\S]*?)<\/li>/.exec(html)?.[1] ?? null
/** Whose robot the page treats as the viewer's: the story's lines marked "(you)" and the first column of the first table. */
const viewpoint = (html: string) => ({
  mine: [...new Set([...html.matchAll(/<li data-player="(P\d)" class=mine>/g)].map((m) => m[1]))],
  you: (html.match(/\(you\)/g) ?? []).length > 0,
  firstColumn: /<th scope="col" data-player="(P\d)">/.exec(html)?.[1] ?? null,
})
/** The message bodies the page shows. */
const messagesOn = (html: string) => [...html.matchAll(/<p class="message-body">([^<]*)<\/p>/g)].map((m) => m[1]).sort()

describe('the published turn page cache', () => {
  it('gives player A, player B, the GM, a spectator and a signed-out visitor each their own view, whoever fills it first', async () => {
    const g = await publishedGame()
    await g.message(g.ann, 'gm', 'ann-to-gm-only')
    await g.message(g.gm, 'P2', 'gm-to-bob-only')
    await g.message(g.bob, 'all', 'bob-to-everyone')
    await g.message(g.bob, 'P1', 'bob-to-ann-only')
    const eve = browser(t.app, await signIn(t.app, 'eve@example.org', 'Eve Outsider'))
    const viewers = { ann: g.ann, bob: g.bob, gm: g.gm, eve, visitor: browser(t.app) }
    const url = (who: string) => (who === 'eve' || who === 'visitor' ? g.watch : g.report)
    for (const first of Object.keys(viewers) as (keyof typeof viewers)[]) {
      publishedPages(t.app.services).clear()
      const firstPage = await viewers[first].get(url(first))
      expect(firstPage.status).toBe(200)
      expect(publishedPages(t.app.services).size).toBe(1)
      t.clock.now += 61_000
      const pages = Object.fromEntries(await Promise.all(Object.entries(viewers).map(async ([who, b]) => [who, await b.get(url(who))] as const)))
      // One page per seat and per kind of visitor: Ann's, Bob's, the GM's (no seat), the public link's signed in and signed out.
      expect(publishedPages(t.app.services).size).toBe(5)

      expect(whoBlock(pages.ann!.body)).toContain('title="ann@example.org">Ann &lt;b&gt;&#34;A&#34;&lt;/b&gt; &amp; co</span>')
      expect(whoBlock(pages.bob!.body)).toContain('title="bob@example.org">Bob O&#39;Brian</span>')
      expect(whoBlock(pages.gm!.body)).toContain('title="gm@example.org">Gemma</span>')
      expect(whoBlock(pages.eve!.body)).toContain('title="eve@example.org">Eve Outsider</span>')
      expect(whoBlock(pages.visitor!.body)).toBeNull()
      expect(pages.visitor!.body).toContain('href="/sign-in"')
      // Issue 13: the viewer's own robot first and marked, only on their own page.
      expect(viewpoint(pages.ann!.body), `filled by ${first}`).toEqual({ mine: ['P1'], you: true, firstColumn: 'P1' })
      expect(viewpoint(pages.bob!.body), `filled by ${first}`).toEqual({ mine: ['P2'], you: true, firstColumn: 'P2' })
      for (const who of ['gm', 'eve', 'visitor']) expect(viewpoint(pages[who]!.body), `${who}, filled by ${first}`).toEqual({ mine: [], you: false, firstColumn: 'P1' })
      // Issue 12: each member's own messages; none on the public link.
      expect(messagesOn(pages.ann!.body)).toEqual(['ann-to-gm-only', 'bob-to-ann-only', 'bob-to-everyone'])
      expect(messagesOn(pages.bob!.body)).toEqual(['bob-to-ann-only', 'bob-to-everyone', 'gm-to-bob-only'])
      expect(messagesOn(pages.gm!.body)).toEqual(['ann-to-gm-only', 'bob-to-ann-only', 'bob-to-everyone', 'gm-to-bob-only'])
      for (const who of ['eve', 'visitor']) expect(pages[who]!.body).not.toContain('id="messages"')
      for (const [who, page] of Object.entries(pages)) {
        for (const other of ['ann@example.org', 'bob@example.org', 'gm@example.org', 'eve@example.org']) {
          if (!other.startsWith(who)) expect(page.body, `${who} sees ${other} (cache filled by ${first})`).not.toContain(other)
        }
        expect(page.body).not.toMatch(/bwslot/)
        expect(page.body).toContain(`data-now="${t.clock.now}"`) // the time of this request, not of the rendering
        expect(page.body).not.toContain('/gm"') // the GM console is linked from the GM's own pages only
        expect(page.headers['cache-control']).toBe('private, no-cache')
      }
      // Each CSRF token is the viewer's own: Ann's does not sign Bob out, and Bob's message form works for Bob.
      const tokens = ['ann', 'bob', 'gm', 'eve'].map((who) => csrfOf(pages[who]!.body))
      expect(new Set(tokens).size).toBe(4)
      expect((await g.bob.post('/sign-out', { _csrf: csrfOf(pages.ann!.body) })).status).toBe(403)
      expect(pages.bob!.body.match(/name="_csrf" value="([^"]+)"/g)!.every((field) => field.includes(tokens[1]!))).toBe(true)
    }
    // Someone from outside the game gets nothing of the members' page, even with it in the cache.
    expect((await eve.get(g.report)).status).toBe(404)
    expect((await browser(t.app).get(g.report)).status).toBe(303) // to the sign-in page
  })

  it('remembers a form token per form cookie and session (kept-form-tokens.ts), and gives it to no other session or cookie', async () => {
    const g = await publishedGame()
    const first = csrfOf((await g.ann.get(g.report)).body)
    // The same browser, same session: the token is remembered, on the report and on the game page, and it works.
    expect(csrfOf((await g.ann.get(g.report)).body)).toBe(first)
    expect(csrfOf((await g.ann.get(`/games/${g.gameId}`)).body)).toBe(first)
    // Bob holding Ann's form cookie (stolen, or a shared computer) gets a token of his own, and Ann's does not work for him.
    const bobWithAnnsCookie = browser(t.app)
    bobWithAnnsCookie.jar.set('botwars_session', g.bob.jar.get('botwars_session')!)
    bobWithAnnsCookie.jar.set('botwars_csrf', g.ann.jar.get('botwars_csrf')!)
    const bobsToken = csrfOf((await bobWithAnnsCookie.get(g.report)).body)
    expect(bobsToken).not.toBe(first)
    expect((await bobWithAnnsCookie.post('/sign-out', { _csrf: first })).status).toBe(403)
    // Ann signed in again (a new session, the same form cookie): a new token; the old one is refused with the new session.
    const again = await signIn(t.app, 'ann@example.org')
    const annAgain = browser(t.app, again)
    annAgain.jar.set('botwars_csrf', g.ann.jar.get('botwars_csrf')!)
    const second = csrfOf((await annAgain.get(g.report)).body)
    expect(second).not.toBe(first)
    expect((await annAgain.post('/sign-out', { _csrf: first })).status).toBe(403)
    // A form cookie whose signature fails is not remembered: a new secret is set, with a token for it.
    const forged = browser(t.app, again)
    forged.jar.set('botwars_csrf', `${g.ann.jar.get('botwars_csrf')!.split('.')[0]}.forged`)
    const forgedView = await forged.get(g.report)
    expect(forged.jar.get('botwars_csrf')).not.toContain('forged')
    expect(csrfOf(forgedView.body)).not.toBe(second)
    expect((await forged.post('/sign-out', { _csrf: csrfOf(forgedView.body) })).status).toBe(303)
    // And the remembered token still does what a fresh one does.
    expect((await g.ann.post('/sign-out', { _csrf: first })).status).toBe(303)
  })

  it('sends the same page gzipped to a browser that takes gzip, a valid stream with the viewer\'s own parts', async () => {
    const g = await publishedGame()
    const plain = await g.ann.get(g.report)
    const zipped = await g.ann.get(g.report, { 'accept-encoding': 'gzip, deflate, br, zstd' })
    expect(zipped.headers['content-encoding']).toBe('gzip')
    expect(zipped.headers.vary).toContain('accept-encoding')
    expect(zipped.raw.length).toBeLessThan(plain.raw.length / 3)
    const text = gunzipSync(zipped.raw).toString('utf8') // checks the CRC and the length too
    expect(whoBlock(text)).toContain('title="ann@example.org">Ann &lt;b&gt;&#34;A&#34;&lt;/b&gt; &amp; co</span>')
    expect(text.replaceAll(csrfOf(text), 'TOKEN')).toBe(plain.body.replaceAll(csrfOf(plain.body), 'TOKEN'))
    expect(zipped.headers.etag).not.toBe(plain.headers.etag)
    expect((await g.ann.get(g.report, { 'accept-encoding': 'gzip;q=0, identity' })).headers['content-encoding']).toBeUndefined()
    const spectator = await browser(t.app).get(`/watch/${g.publicToken}/turns/1`, { 'accept-encoding': 'gzip' })
    expect(gunzipSync(spectator.raw).toString('utf8')).toContain('href="/sign-in"')
  })

  it('answers 304 only to the viewer whose copy it is', async () => {
    const g = await publishedGame()
    const first = await g.ann.get(g.report)
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^W\/"[^"]+"$/) // weak: every copy has its own CSRF token and clock
    expect((await g.ann.get(g.report, { 'if-none-match': etag })).status).toBe(304)
    const bobsTry = await g.bob.get(g.report, { 'if-none-match': etag })
    expect(bobsTry.status).toBe(200)
    expect(whoBlock(bobsTry.body)).toContain('bob@example.org')
    expect(bobsTry.headers.etag).not.toBe(etag)
    expect((await browser(t.app).get(g.watch, { 'if-none-match': etag })).status).toBe(200)
    // The GM (no seat) and a spectator share nobody's robot, not each other's ETag.
    const gmEtag = (await g.gm.get(g.report)).headers.etag as string
    expect((await browser(t.app).get(g.watch, { 'if-none-match': gmEtag })).status).toBe(200)
    // A new message for Ann is a new page for Ann, not for a spectator.
    const visitor = browser(t.app)
    const watchEtag = (await visitor.get(g.watch)).headers.etag as string
    await g.message(g.bob, 'P1', 'news for ann')
    const again = await g.ann.get(g.report, { 'if-none-match': etag })
    expect(again.status).toBe(200)
    expect(messagesOn(again.body)).toEqual(['news for ann'])
    expect((await visitor.get(g.watch, { 'if-none-match': watchEtag })).status).toBe(304)
    expect((await g.ann.get(g.report, { 'if-none-match': again.headers.etag as string })).status).toBe(304)
  })

  it('shows a rename at once, in the page and in its ETag, whether this server or another process made it', async () => {
    // What is worked out per viewer (their escaped name and address, their ETag) is kept on the
    // session's user row (pages/viewer-bytes.ts, published-turn.ts): a new row must mean new bytes.
    const g = await publishedGame()
    const before = await g.ann.get(g.report)
    expect(whoBlock(before.body)).toContain('Ann &lt;b&gt;')
    const annId = t.app.services.users.byEmail('ann@example.org')!.id
    t.app.services.users.rename(annId, 'Annie <i>')
    const renamed = await g.ann.get(g.report, { 'if-none-match': before.headers.etag as string })
    expect(renamed.status).toBe(200)
    expect(whoBlock(renamed.body)).toContain('Annie &lt;i&gt;')
    expect(renamed.headers.etag).not.toBe(before.headers.etag)
    expect(whoBlock((await g.bob.get(g.report)).body)).not.toContain('Annie')
    const other = new Database(t.app.services.db.name)
    try {
      other.prepare('UPDATE users SET name = ?, email = ? WHERE id = ?').run('Ann from the shell', 'ann2@example.org', annId)
    } finally {
      other.close()
    }
    const again = await g.ann.get(g.report, { 'if-none-match': renamed.headers.etag as string })
    expect(again.status).toBe(200)
    expect(whoBlock(again.body)).toContain('Ann from the shell')
    expect(whoBlock(again.body)).toContain('ann2@example.org')
    expect(whoBlock((await g.ann.get(`/games/${g.gameId}`)).body)).toContain('Ann from the shell')
  })

  it('never shows a draft or an open turn from the cache, and links the next turn once it is published', async () => {
    const g = await publishedGame()
    expect((await g.ann.get(g.report)).body).not.toContain('rel="next"')
    const submit = `/games/${g.gameId}/turns/2/submit`
    await g.ann.submit(submit, submit, program(g.gameId, 'P1'))
    await g.bob.submit(submit, submit, program(g.gameId, 'P2'))
    await g.gm.submit(`/games/${g.gameId}/gm`, `/games/${g.gameId}/gm/close`, { reason: 'test' })
    expect((await g.ann.get(`/games/${g.gameId}/turns/2`)).body).toContain('with the GM for review')
    expect((await browser(t.app).get(`/watch/${g.publicToken}/turns/2`)).status).toBe(404)
    const draft = await g.gm.get(`/games/${g.gameId}/turns/2`)
    expect(draft.headers['cache-control']).toBe('no-store')
    expect(draft.body).toContain('draft — not published')
    expect(publishedPages(t.app.services).size).toBe(1) // Ann's page of turn 1 only: the draft was not kept
    expect((await g.ann.get(`/games/${g.gameId}/turns/2`)).body).not.toContain('draft — not published')
    await g.gm.submit(`/games/${g.gameId}/gm`, `/games/${g.gameId}/gm/publish`, { reason: '' })
    expect((await g.ann.get(g.report)).body).toContain(`href="/games/${g.gameId}/turns/2">Turn 2 →`)
    expect((await browser(t.app).get(`/watch/${g.publicToken}/turns/1`)).body).toContain(`href="/watch/${g.publicToken}/turns/2">Turn 2 →`)
  })

  it('drops a turn\'s pages when it is rolled back, and shows the corrected turn once it is published again', async () => {
    const g = await publishedGame()
    const programRow = (html: string, player: string) => new RegExp(`<section id="programs"[\\s\\S]*?<tr data-player="${player}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? null
    const before = { ann: await g.ann.get(g.report), bob: await g.bob.get(g.report), watch: await browser(t.app).get(g.watch) }
    const bobsProgram = programRow(before.ann.body, 'P2')
    expect(bobsProgram).not.toBeNull()
    expect(publishedPages(t.app.services).size).toBe(3)

    const rolled = await g.gm.submit(`/games/${g.gameId}/gm`, `/games/${g.gameId}/gm/rollback`, { confirm: 'on', reason: 'Bob mailed his real program' })
    expect(rolled.location).toContain('done=rolled-back')
    expect(publishedPages(t.app.services).size).toBe(0) // services/rollback.ts → invalidatePublishedTurn
    // Back in review: nobody but the GM sees the turn's result, and nothing is served from memory.
    const annNow = await g.ann.get(g.report)
    expect(annNow.status).toBe(200)
    expect(annNow.body).not.toContain('id="programs"')
    expect(annNow.headers['cache-control']).toBe('no-store')
    expect((await browser(t.app).get(g.watch)).status).toBe(404)
    expect((await g.bob.get(g.report, { 'if-none-match': before.bob.headers.etag as string })).status).not.toBe(304)
    // The withdrawn version stays readable, marked withdrawn.
    const withdrawn = await g.ann.get(`/games/${g.gameId}/turns/1/withdrawn/1`)
    expect(withdrawn.status).toBe(200)
    expect(withdrawn.body).toMatch(/withdrawn/i)
    expect(withdrawn.body).toContain('Bob mailed his real program')

    // The GM corrects Bob's program in the draft and publishes again.
    const corrected = Object.values(program(g.gameId, 'P2', 4)).join(' ')
    const done = await g.gm.submit(`/games/${g.gameId}/gm`, `/games/${g.gameId}/gm/correct`, { player: 'P2', cards: corrected, reason: 'as Bob mailed it' })
    expect(done.location).toContain('done=corrected')
    expect(publishedPages(t.app.services).size).toBe(0)
    expect((await g.gm.submit(`/games/${g.gameId}/gm`, `/games/${g.gameId}/gm/publish`, { reason: '' })).location).toContain('done=published')
    for (const page of [await g.ann.get(g.report), await g.bob.get(g.report, { 'if-none-match': before.bob.headers.etag as string }), await browser(t.app).get(g.watch)]) {
      expect(page.status).toBe(200)
      expect(programRow(page.body, 'P2')).not.toBe(bobsProgram)
      expect(page.body).toContain('as Bob mailed it') // the corrections section
    }
    expect(publishedPages(t.app.services).size).toBe(3)
    const still = await g.bob.get(`/games/${g.gameId}/turns/1/withdrawn/1`)
    expect(still.status).toBe(200)
    expect(still.body).toContain('Bob mailed his real program')
  })

  it('forgets a turn changed by a correction once invalidatePublishedTurn is called, and any other connection\'s write at once', async () => {
    const g = await publishedGame()
    const db = t.app.services.db
    const rewrite = (conn: { prepare: typeof db.prepare }, from: string, to: string) =>
      conn.prepare('UPDATE turns SET result_json = replace(result_json, ?, ?) WHERE game_id = ? AND number = 1').run(from, to, g.gameId)
    expect((await g.bob.get(g.report)).body).not.toContain('Game over')
    expect((await browser(t.app).get(`/watch/${g.publicToken}/turns/1`)).body).not.toContain('Game over')
    // This process's write (as a GM correction would make it), then the call every such write makes.
    rewrite(db, '"gameOver":false,"winners":[]', '"gameOver":true,"winners":["P1"]')
    invalidatePublishedTurn(g.gameId, 1)
    expect((await g.bob.get(g.report)).body).toContain('Game over: Ann won.')
    expect((await browser(t.app).get(`/watch/${g.publicToken}/turns/1`)).body).toContain('Game over: Ann won.')
    // Another connection (a second server process, the sqlite3 shell): noticed without any call.
    const other = new Database(db.name)
    try {
      rewrite(other, '"winners":["P1"]', '"winners":["P2"]')
    } finally {
      other.close()
    }
    expect((await g.ann.get(g.report)).body).toContain('Game over: Bob won.')
  })

  it('with a GM who plays: the GM\'s page is their seat\'s and holds every thread; a hidden message and a player who left are seen at once', async () => {
    const { gm: gmClient, gameId, players } = await setUpGame(t.app, PLAYERS, { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow', reviewWindowHours: 24 })
    const gm = browser(t.app, gmClient)
    const [ann, bob, cid] = players.map((p: Client) => browser(t.app, p)) as [Browser, Browser, Browser]
    expect((await gm.submit(`/games/${gameId}`, `/games/${gameId}/start`, {})).status).toBe(303)
    const ctx = t.app.services
    const seatOf = (email: string) => ctx.games.seats(gameId).find((s) => s.user_id === ctx.users.byEmail(email)!.id)!.player_id
    const seat = { gm: seatOf('gm@example.org'), ann: seatOf('ann@example.org'), bob: seatOf('bob@example.org'), cid: seatOf('cid@example.org') }
    const submit = `/games/${gameId}/turns/1/submit`
    for (const [who, b] of [['gm', gm], ['ann', ann], ['bob', bob], ['cid', cid]] as const) await b.submit(submit, submit, program(gameId, seat[who]))
    expect((await gm.submit(`/games/${gameId}/gm`, `/games/${gameId}/gm/lock`, { confirm: 'on', reason: '' })).location).toContain('done=locked')
    expect((await gm.submit(`/games/${gameId}/gm`, `/games/${gameId}/gm/close`, { reason: 'test' })).location).toContain('done=closed')
    expect((await gm.submit(`/games/${gameId}/gm`, `/games/${gameId}/gm/publish`, { reason: '' })).location).toContain('done=published')
    const say = async (from: Browser, to: string, body: string) =>
      expect((await from.submit(`/games/${gameId}`, `/games/${gameId}/messages`, { to, body, back: `/games/${gameId}` })).status).toBe(303)
    await say(ann, 'gm', 'ann-to-gm')
    await say(gm, seat.bob, 'gm-to-bob')
    await say(cid, 'all', 'cid-to-all')
    const report = `/games/${gameId}/turns/1`
    const targets = (html: string) => [...html.matchAll(/<option value="([^"]+)"/g)].map((x) => x[1])
    for (const first of ['gm', 'ann', 'bob'] as const) {
      publishedPages(ctx).clear()
      forgetThreads(ctx.db)
      await { gm, ann, bob }[first].get(report)
      const pages = { gm: await gm.get(report), ann: await ann.get(report), bob: await bob.get(report) }
      expect(viewpoint(pages.gm.body), `filled by ${first}`).toEqual({ mine: [seat.gm], you: true, firstColumn: seat.gm })
      expect(viewpoint(pages.ann.body).firstColumn).toBe(seat.ann)
      expect(messagesOn(pages.gm.body)).toEqual(['ann-to-gm', 'cid-to-all', 'gm-to-bob'])
      expect(messagesOn(pages.ann.body)).toEqual(['ann-to-gm', 'cid-to-all'])
      expect(messagesOn(pages.bob.body)).toEqual(['cid-to-all', 'gm-to-bob'])
      expect(pages.gm.body).toContain('/hide"')
      for (const who of ['ann', 'bob'] as const) expect(pages[who].body).not.toContain('/hide"')
    }
    // The GM hides Cid's message: gone from the players' kept pages, shown to the GM with the reason.
    const annBefore = await ann.get(report)
    const cidMessage = ctx.messages.forGame(gameId).find((m) => m.body === 'cid-to-all')!.id
    expect((await gm.submit(report, `/games/${gameId}/messages/${cidMessage}/hide`, { reason: 'off topic' })).status).toBe(303)
    const annAfter = await ann.get(report, { 'if-none-match': annBefore.headers.etag as string })
    expect(annAfter.status).toBe(200)
    expect(messagesOn(annAfter.body)).toEqual(['ann-to-gm'])
    expect((await gm.get(report)).body).toContain('hidden: off topic')
    // Cid leaves: the others' message forms no longer offer Cid (the table's shape is part of the thread's key).
    expect(targets((await gm.get(report)).body)).toContain(seat.cid)
    const cidsView = await cid.get(report) // Cid's facts (a member, in their seat) are now remembered too
    expect(viewpoint(cidsView.body).firstColumn).toBe(seat.cid)
    expect((await cid.submit(`/games/${gameId}`, `/games/${gameId}/withdraw`, { confirm: 'on', reason: 'bye' })).status).toBe(303)
    expect(targets((await gm.get(report)).body)).not.toContain(seat.cid)
    // Cid is no member now: the members' report is not theirs to read.
    expect((await cid.get(report)).status).toBe(404)
  })

  it('keeps at most its byte and page bounds, dropping the least recently used first', () => {
    const db = new Database(':memory:')
    const store = publishedPagesStore(db, 1000, 3)
    const page = (n: number) => ({ fingerprint: 'f', hash: 'h', bytes: n })
    store.set('g/1/a', page(400))
    store.set('g/2/a', page(400))
    expect(store.get('g/1/a', 'f')).toBeDefined() // g/1 is now the most recently used
    store.set('g/3/a', page(400))
    expect(store.bytes).toBeLessThanOrEqual(1000)
    expect(store.get('g/2/a', 'f')).toBeUndefined()
    expect(store.get('g/1/a', 'f')).toBeDefined()
    store.set('g/4/a', page(100))
    store.set('g/5/a', page(100))
    expect(store.size).toBeLessThanOrEqual(3)
    expect(store.get('g/1/a', 'other facts')).toBeUndefined() // rendered from other facts: gone
    store.set('big', page(5000))
    expect(store.get('big', 'f')).toBeUndefined()
    db.close()
  })
})
