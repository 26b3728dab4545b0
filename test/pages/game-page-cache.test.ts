// The game page is kept per viewer in memory (pages/game-page-cache.ts) and served from there
// while nothing it shows has changed. Hostile: whoever fills the cache first, nobody may get
// another viewer's page (their name, e-mail, CSRF token, private messages, the line of the race
// and the history marked as theirs, what waits for them, the GM's controls), a GM who plays must
// not see a stale "my turn" once locked, and no copy may outlive any change the page shows
// (submission, message, settings, deadline, clock, pause, rename, close, publication, rollback,
// correction, seat change, game end, a write by another connection or by raw SQL in this one).
import Database from '../../src/server/plugins/sqlite.js'
import { gunzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cardLabel } from '../../src/render/cards.js'
import { gamePageCache } from '../../src/server/pages/game-page-cache.js'
import { dealtState } from '../../src/server/services/deal.js'
import { PLAYERS, setUpGame, signIn, testApp, HOUR, type Client, type TestApp } from '../server/helpers.js'
import { browser, csrfOf, type Browser } from './helpers.js'

let t: TestApp
/** Two players of a second game. */
const OTHERS = [PLAYERS[2]!, { email: 'dee@example.org', name: 'Dee', colour: 'yellow' }]
beforeEach(async () => { t = await testApp() })
afterEach(async () => { await t.close() })

const handOf = (gameId: string, player: string) =>
  (dealtState(t.app.services.turns.current(gameId)!).hands[player] ?? []).map((c) => `${c.kind}:${c.priority}`)
const program = (gameId: string, player: string, from = 0) =>
  Object.fromEntries(handOf(gameId, player).slice(from, from + 5).map((card, i) => [`r${i + 1}`, card]))

/** A 2-player game (GM not playing, table talk on) with turn 1 published and turn 2 open. */
async function runningGame() {
  const { gm: gmClient, gameId, players } = await setUpGame(t.app, PLAYERS.slice(0, 2), { reviewWindowHours: 24, tableTalk: true })
  await players[0]!.call('PATCH', '/api/v1/me', { name: 'Ann <b>"A"</b> & co' })
  const gm = browser(t.app, gmClient)
  const [ann, bob] = players.map((p: Client) => browser(t.app, p)) as [Browser, Browser]
  const page = `/games/${gameId}`
  expect((await gm.submit(page, `${page}/start`, {})).status).toBe(303)
  await submitTurn(gameId, 1, ann, bob)
  expect((await gm.submit(`${page}/gm`, `${page}/gm/close`, { reason: 'test' })).location).toContain('done=closed')
  expect((await gm.submit(`${page}/gm`, `${page}/gm/publish`, { reason: '' })).location).toContain('done=published')
  const message = async (from: Browser, to: string, body: string) =>
    expect((await from.submit(page, `${page}/messages`, { to, body, back: page })).status).toBe(303)
  const gmPost = async (action: string, fields: Record<string, string>) => (await gm.submit(`${page}/gm`, `${page}/gm/${action}`, fields)).location ?? ''
  return { gameId, page, gm, ann, bob, gmClient, players, message, gmPost }
}

async function submitTurn(gameId: string, turn: number, ...who: Browser[]) {
  const submit = `/games/${gameId}/turns/${turn}/submit`
  for (const [i, b] of who.entries()) expect((await b.submit(submit, submit, program(gameId, `P${i + 1}`))).status).toBe(303)
}

const whoBlock = (html: string) => /<li class="who">([\s\S]*?)<\/li>/.exec(html)?.[1] ?? null
/** The message bodies the page shows (but those the first test posts from kept pages). */
const messagesOn = (html: string) => [...html.matchAll(/<p class="message-body">([^<]*)<\/p>/g)].map((m) => m[1]!).filter((m) => !m.startsWith('from bob')).sort()
/** The story lines marked as the viewer's own, and whether the race chart says which line is theirs. */
const mine = (html: string) => ({
  lines: [...new Set([...html.matchAll(/<li data-player="(P\d)" class=mine>/g)].map((m) => m[1]))],
  thickLine: html.includes('your line is the thick one'),
})
const waiting = (html: string) => /<p class="waiting[^"]*">([^<]*)<\/p>/.exec(html)?.[1] ?? null
const submittedOf = (html: string, player: string) =>
  new RegExp(`<tr data-player="${player}">[\\s\\S]*?<td class="submitted">([\\s\\S]*?)</td>`).exec(html)?.[1]?.replace(/<[^>]+>/g, '') ?? null
const countdown = (html: string) => /<span class="time-left countdown" data-deadline="([^"]+)">([^<]*)<\/span>/.exec(html)?.slice(1) ?? null
const statusBadge = (html: string) => /<span class="badge status-(\w+)">/.exec(html)?.[1] ?? null
const historyTurns = (html: string) => [...html.matchAll(/<li data-turn="(\d+)">/g)].map((m) => Number(m[1]))
/** The page but its ?done= confirmation and its CSRF token. */
const withoutDone = (html: string) => html.replace(/<div class="alert ok" role="status" id="done">[\s\S]*?<\/div>/, '').replaceAll(csrfOf(html), 'TOKEN')
const tokens = (html: string) => [...new Set([...html.matchAll(/name="_csrf" value="([^"]+)"/g)].map((m) => m[1]))]

describe('the game page cache', () => {
  it('gives Ann, Bob and the GM each their own page, whoever fills it first; outsiders get nothing', async () => {
    const g = await runningGame()
    const threads: [Browser, string, string][] = [[g.ann, 'gm', 'ann-to-gm-only'], [g.gm, 'P2', 'gm-to-bob-only'], [g.bob, 'all', 'bob-to-everyone'], [g.bob, 'P1', 'bob-to-ann-only']]
    for (const [from, to, body] of threads) await g.message(from, to, body)
    const eve = browser(t.app, await signIn(t.app, 'eve@example.org', 'Eve Outsider'))
    const viewers = { ann: g.ann, bob: g.bob, gm: g.gm }
    const cache = gamePageCache(t.app.services)
    for (const first of Object.keys(viewers) as (keyof typeof viewers)[]) {
      cache.clear()
      expect((await viewers[first].get(g.page)).status).toBe(200)
      expect(cache.size).toBe(1)
      t.clock.now += 61_000
      const hitsBefore = cache.stats.hits
      const pages = Object.fromEntries(await Promise.all(Object.entries(viewers).map(async ([who, b]) => [who, (await b.get(g.page)).body] as const)))
      expect(cache.size).toBe(3)
      expect(cache.stats.hits).toBe(hitsBefore + 1) // the first viewer's page came from memory

      expect(whoBlock(pages.ann!)).toContain('title="ann@example.org">Ann &lt;b&gt;&#34;A&#34;&lt;/b&gt; &amp; co</span>')
      expect(whoBlock(pages.bob!)).toContain('title="bob@example.org">bob</span>')
      expect(whoBlock(pages.gm!)).toContain('title="gm@example.org">Gemma</span>')
      expect(messagesOn(pages.ann!)).toEqual(['ann-to-gm-only', 'bob-to-ann-only', 'bob-to-everyone'])
      expect(messagesOn(pages.bob!)).toEqual(['bob-to-ann-only', 'bob-to-everyone', 'gm-to-bob-only'])
      expect(messagesOn(pages.gm!)).toEqual(['ann-to-gm-only', 'bob-to-ann-only', 'bob-to-everyone', 'gm-to-bob-only'])
      expect(mine(pages.ann!), `filled by ${first}`).toEqual({ lines: ['P1'], thickLine: true })
      expect(mine(pages.bob!), `filled by ${first}`).toEqual({ lines: ['P2'], thickLine: true })
      expect(mine(pages.gm!), `filled by ${first}`).toEqual({ lines: [], thickLine: false })
      expect(waiting(pages.ann!)).toMatch(/^your program for turn 2 is due in /)
      expect(waiting(pages.bob!)).toMatch(/^your program for turn 2 is due in /)
      expect(waiting(pages.gm!)).toMatch(/^turn 2: 0 of 2 programs in; closes in /)
      for (const who of ['ann', 'bob']) {
        expect(pages[who]).toContain('>My turn 2</a>')
        expect(pages[who]).not.toContain(`href="${g.page}/gm"`)
        expect(pages[who]).toContain('id="withdraw-heading"')
      }
      expect(pages.gm).not.toContain('>My turn 2</a>')
      expect(pages.gm).toContain(`href="${g.page}/gm"`)
      expect(pages.gm).not.toContain('id="withdraw-heading"')
      for (const [who, page] of Object.entries(pages)) {
        for (const other of ['ann@example.org', 'bob@example.org', 'gm@example.org']) {
          if (!other.startsWith(who)) expect(page, `${who} sees ${other} (cache filled by ${first})`).not.toContain(other)
        }
        expect(page).not.toMatch(/bwslot/)
        expect(page).toContain(`data-now="${t.clock.now}"`) // the time of this request, not of the rendering
      }
      // Each CSRF token is the viewer's own, everywhere on their page: Ann's does not sign Bob out.
      const own = { ann: tokens(pages.ann!), bob: tokens(pages.bob!), gm: tokens(pages.gm!) }
      for (const list of Object.values(own)) expect(list).toHaveLength(1)
      expect(new Set(Object.values(own).flat()).size).toBe(3)
      expect((await g.bob.post('/sign-out', { _csrf: own.ann[0]! })).status).toBe(403)
      expect((await g.bob.post(`${g.page}/messages`, { _csrf: own.bob[0]!, to: 'all', body: `from bob's kept page ${first}`, back: g.page })).status).toBe(303)
    }
    // Someone from outside the game, signed in or not, gets nothing of the members' pages.
    expect(cache.size).toBeGreaterThan(0)
    const outsider = await eve.get(g.page)
    expect(outsider.status).toBe(404)
    expect(outsider.body).not.toContain('bob-to-everyone')
    const visitor = await browser(t.app).get(g.page)
    expect(visitor.status).toBe(303)
    expect(visitor.location).toContain('/sign-in')
    // An API token opens only its own game, also for a page that is kept.
    const annId = t.app.services.users.byEmail('ann@example.org')!.id
    const other = await setUpGame(t.app, OTHERS)
    const token = t.app.services.users.createApiToken(annId, other.gameId, t.clock.now)
    const byToken = await t.app.inject({ url: g.page, headers: { authorization: `Bearer ${token}` } })
    expect(byToken.statusCode).not.toBe(200)
    expect(byToken.body).not.toContain('bob-to-everyone')
  })

  it('is the page the route renders, gzipped or not, with the time of each request', async () => {
    const g = await runningGame()
    const cache = gamePageCache(t.app.services)
    const first = await g.ann.get(g.page)
    t.clock.now += 3 * HOUR + 61_000
    const kept = await g.ann.get(g.page)
    expect(cache.stats.hits).toBeGreaterThan(0)
    // ?done= pages are rendered fresh each time (they carry a confirmation): the same page but for it.
    const fresh = await g.ann.get(`${g.page}?done=joined`)
    expect(withoutDone(kept.body)).toBe(withoutDone(fresh.body))
    expect(countdown(kept.body)![1]).not.toBe(countdown(first.body)![1]) // "in 4 days 21 hours", three hours less than at first
    expect(waiting(kept.body)).not.toBe(waiting(first.body))
    const zipped = await g.ann.get(g.page, { 'accept-encoding': 'gzip, deflate, br, zstd' })
    expect(zipped.headers['content-encoding']).toBe('gzip')
    expect(zipped.headers['cache-control']).toBe('no-store')
    const text = gunzipSync(zipped.raw).toString('utf8') // checks the CRC and the length too
    expect(text.replaceAll(csrfOf(text), 'TOKEN')).toBe(kept.body.replaceAll(csrfOf(kept.body), 'TOKEN'))
    expect((await g.ann.get(g.page, { 'accept-encoding': 'gzip;q=0, identity' })).headers['content-encoding']).toBeUndefined()
  })

  it('changes at once with everything it shows', async () => {
    const g = await runningGame()
    const { ann, bob, page } = g
    const views = async () => ({ ann: (await ann.get(page)).body, bob: (await bob.get(page)).body })
    let before: { ann: string; bob: string }
    const step = async (what: string, change: () => Promise<unknown>, check: (now: { ann: string; bob: string }, was: { ann: string; bob: string }) => void | Promise<void>) => {
      before = await views()
      await views() // served from memory now
      await change()
      const now = await views()
      // The kept page is the page the route renders fresh (a ?done= page is never kept).
      expect(withoutDone(now.bob), what).toBe(withoutDone((await bob.get(`${page}?done=joined`)).body))
      await check(now, before)
      expect(now.ann.replaceAll(csrfOf(now.ann), ''), what).not.toBe(before.ann.replaceAll(csrfOf(before.ann), ''))
    }
    await step('Bob submits', async () => {
      const submit = `/games/${g.gameId}/turns/2/submit`
      expect((await bob.submit(submit, submit, program(g.gameId, 'P2'))).status).toBe(303)
    }, (now) => {
      expect(submittedOf(now.ann, 'P2')).toBe('✔ in')
      expect(submittedOf(now.ann, 'P1')).toBe('not yet')
      expect(waiting(now.bob)).toMatch(/^turn 2: 1 of 2 programs in/)
    })
    await step('a message', () => g.message(bob, 'all', 'hello table'), (now) => expect(messagesOn(now.ann)).toContain('hello table'))
    await step('a hidden message', async () => {
      const id = t.app.services.db.prepare('SELECT id FROM messages WHERE body = ?').pluck().get('hello table')
      expect((await g.gm.submit(`${page}`, `${page}/messages/${id}/hide`, { reason: 'rude' })).status).toBe(303)
    }, (now) => expect(messagesOn(now.ann)).not.toContain('hello table'))
    await step('the GM settings', () => g.gmPost('settings', { goneRobot: 'leave', reason: 'club rule' }),
      (now) => expect(now.ann).toContain('Their robot leaves the board at the next deal'))
    await step('the deadline', () => g.gmPost('extend', { hours: '24', reason: 'holiday' }), (now, was) => {
      expect(countdown(now.ann)![0]).not.toBe(countdown(was.ann)![0])
      expect(countdown(now.ann)![1]).toBe('in 6 days') // was exactly 5 days (the clock stood still)
    })
    await step('the clock alone', async () => { t.clock.now += 2 * HOUR }, (now, was) => {
      expect(countdown(now.ann)![0]).toBe(countdown(was.ann)![0])
      expect(countdown(now.ann)![1]).not.toBe(countdown(was.ann)![1])
      expect(waiting(now.ann)).not.toBe(waiting(was.ann))
    })
    await step('a pause', () => g.gmPost('pause', { reason: 'break' }), (now) => {
      expect(statusBadge(now.ann)).toBe('paused')
      expect(now.ann).toContain('the deadline waits until the GM resumes it')
    })
    await step('resuming', () => g.gmPost('resume', { reason: '' }), (now) => expect(statusBadge(now.bob)).toBe('running'))
    await step('renaming the GM', () => g.gmClient.call('PATCH', '/api/v1/me', { name: 'Gemma Two' }), (now) => expect(now.ann).toContain('GM Gemma Two'))
    await step('Ann renaming herself', () => g.players[0]!.call('PATCH', '/api/v1/me', { name: 'Annie' }),
      (now) => expect(whoBlock(now.ann)).toContain('>Annie</span>'))
    await step('closing the turn', async () => {
      const submit = `/games/${g.gameId}/turns/2/submit`
      expect((await ann.submit(submit, submit, program(g.gameId, 'P1'))).status).toBe(303)
      expect(await g.gmPost('close', { reason: 'all in' })).toContain('done=closed')
    }, (now) => {
      expect(now.ann).toContain('under GM review')
      expect(now.ann).not.toContain('>My turn 2</a>')
    })
    await step('publishing', () => g.gmPost('publish', { reason: '' }), (now) => {
      expect(historyTurns(now.ann)).toEqual([2, 1])
      expect(now.bob).toContain('>My turn 3</a>')
    })
    // A stale tab after a rollback: turn 2 is under review again, its story gone from the history.
    await step('a rollback', async () => expect(await g.gmPost('rollback', { confirm: 'on', reason: 'Bob mailed his real program' })).toContain('done=rolled-back'), (now) => {
      expect(historyTurns(now.ann)).toEqual([1])
      expect(historyTurns(now.bob)).toEqual([1])
      expect(now.ann).toContain('under GM review')
      expect(now.ann).toContain('/withdrawn/1')
      expect(now.bob).not.toContain('>My turn 3</a>')
    })
    await step('a correction and publication', async () => {
      const corrected = Object.values(program(g.gameId, 'P2', 4)).join(' ')
      expect(await g.gmPost('correct', { player: 'P2', cards: corrected, reason: 'as Bob mailed it' })).toContain('done=corrected')
      expect(await g.gmPost('publish', { reason: '' })).toContain('done=published')
    }, (now) => expect(historyTurns(now.ann)).toEqual([2, 1]))
    await step('a seat opened', () => g.gmPost('open-seat', { email: 'newcomer@example.org', reason: 'one more' }),
      (now) => expect(now.ann).toContain('<tr data-player="P3">'))
    await step('the game ends', () => g.gmPost('abandon', { confirm: 'on', reason: 'the club closes' }), (now) => {
      expect(statusBadge(now.ann)).toBe('abandoned')
      expect(now.ann).not.toContain('>My turn 3</a>')
    })
  })

  it('notices a write made by raw SQL in this process or by another connection, without being told', async () => {
    const g = await runningGame()
    const db = t.app.services.db
    expect((await g.ann.get(g.page)).body).toContain('<h1>Test game</h1>')
    db.prepare('UPDATE games SET name = ? WHERE id = ?').run('Renamed here', g.gameId)
    expect((await g.ann.get(g.page)).body).toContain('<h1>Renamed here</h1>')
    expect((await g.bob.get(g.page)).body).toContain('<h1>Renamed here</h1>')
    const other = new Database(db.name)
    try {
      other.prepare('UPDATE games SET name = ? WHERE id = ?').run('Renamed elsewhere', g.gameId)
    } finally {
      other.close()
    }
    expect((await g.ann.get(g.page)).body).toContain('<h1>Renamed elsewhere</h1>')
    // A write to another game leaves this game's pages kept.
    const second = await setUpGame(t.app, OTHERS) // new people: every page is rendered again (users move every version)
    await g.ann.get(g.page)
    const hits = gamePageCache(t.app.services).stats.hits
    db.prepare('UPDATE games SET name = ? WHERE id = ?').run('Other game', second.gameId)
    await g.ann.get(g.page)
    expect(gamePageCache(t.app.services).stats.hits).toBe(hits + 1)
  })

  it('shows a GM who plays their own turn only, and drops "my turn" at once when their program is locked', async () => {
    const { gm: gmClient, gameId, players } = await setUpGame(t.app, PLAYERS.slice(0, 2), { gmPlays: true, gmColour: 'gold', reviewWindowHours: 24 })
    const gm = browser(t.app, gmClient)
    const [ann, bob] = players.map((p) => browser(t.app, p)) as [Browser, Browser]
    const page = `/games/${gameId}`
    expect((await gm.submit(page, `${page}/start`, {})).status).toBe(303)
    const hands = { gm: handOf(gameId, 'P1'), ann: handOf(gameId, 'P2'), bob: handOf(gameId, 'P3') }
    const secret = (body: string, cards: string[]) => { for (const card of cards) { expect(body).not.toContain(card); expect(body).not.toContain(cardLabel(card)) } }
    const submit = `/games/${gameId}/turns/1/submit`
    expect((await bob.submit(submit, submit, program(gameId, 'P3'))).status).toBe(303)
    // Everyone's page kept, the GM's first.
    const first = { gm: (await gm.get(page)).body, ann: (await ann.get(page)).body, bob: (await bob.get(page)).body }
    const kept = { gm: (await gm.get(page)).body, ann: (await ann.get(page)).body, bob: (await bob.get(page)).body }
    expect(gamePageCache(t.app.services).stats.hits).toBeGreaterThanOrEqual(3)
    for (const view of [first, kept]) {
      expect(view.gm).toContain('>My turn 1</a>')
      expect(waiting(view.gm)).toMatch(/^your program for turn 1 is due/)
      expect(view.gm).toContain(`href="${page}/gm"`)
      expect(view.ann).not.toContain(`href="${page}/gm"`)
      expect(submittedOf(view.ann, 'P3')).toBe('✔ in')
      secret(view.gm, [...hands.ann, ...hands.bob])
      secret(view.ann, [...hands.gm, ...hands.bob])
      secret(view.bob, [...hands.gm, ...hands.ann])
    }
    // The GM's program goes in and is locked: the GM's kept page changes at once, and still shows no one else's cards.
    expect((await gm.submit(submit, submit, program(gameId, 'P1'))).status).toBe(303)
    expect(submittedOf((await ann.get(page)).body, 'P1')).toBe('✔ in')
    expect((await gm.get(page)).body).toContain('>My turn 1</a>') // in, not locked: still theirs to change
    expect((await gm.submit(`${page}/gm`, `${page}/gm/lock`, { confirm: 'on', reason: '' })).location).toContain('done=locked')
    const locked = (await gm.get(page)).body
    expect(locked).not.toContain('>My turn 1</a>')
    secret(locked, [...hands.ann, ...hands.bob])
    secret((await ann.get(page)).body, [...hands.gm, ...hands.bob])
  })
})
