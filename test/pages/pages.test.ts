// The pages through app.inject: security headers, CSRF, escaping, the secrecy rules as the pages
// show them, picture caching, sign-in with a return path, and form errors that keep the input.
import { cardLabel } from '../../src/render/cards.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PNG_SIGNATURE } from '../../src/render/png.js'
import { dealtState } from '../../src/server/services/deal.js'
import { lastMailTo, linksIn, PLAYERS, setUpGame, signIn, testApp, type TestApp } from '../server/helpers.js'
import { browser, csrfOf } from './helpers.js'

/** A secret card appears on a page neither as its code ("FWD2:700") nor in words ("Move 2 (700)"). */
function hidden(body: string, card: string): void {
  expect(body).not.toContain(card)
  expect(body).not.toContain(cardLabel(card))
}

let t: TestApp
beforeEach(async () => { t = await testApp() })
afterEach(async () => { await t.close() })

function handOf(gameId: string, player: string): string[] {
  const turn = t.app.services.turns.current(gameId)!
  return (dealtState(turn).hands[player] ?? []).map((c) => `${c.kind}:${c.priority}`)
}

/** Fills the registers r1..r5 with the first five cards of a hand. */
const program = (hand: string[]) => Object.fromEntries(hand.slice(0, 5).map((card, i) => [`r${i + 1}`, card]))

describe('the pages', () => {
  it('send security headers and refuse a form without its CSRF token', async () => {
    const home = await t.app.inject({ url: '/' })
    expect(home.statusCode).toBe(200)
    expect(home.headers['content-type']).toMatch(/text\/html/)
    expect(home.headers['content-security-policy']).toMatch(/script-src 'self'/)
    expect(home.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/)
    expect(home.headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/) // BASE_URL is http here
    expect(home.headers['x-frame-options']).toBe('DENY')
    expect(home.headers['x-content-type-options']).toBe('nosniff')
    expect(home.headers['referrer-policy']).toBe('no-referrer')

    const gm = browser(t.app, await signIn(t.app, 'gm@example.org', 'Gemma'))
    const forged = await gm.post('/games/new', { name: 'Forged', boardChoice: 'training-floor', seats: '2', turnLengthHours: '24', reviewWindowHours: '0' })
    expect(forged.status).toBe(403)
    expect(forged.body).toContain('This form was out of date')
    expect(t.app.services.games.forUser(t.app.services.users.byEmail('gm@example.org')!.id)).toHaveLength(0)
    // Another person's token does not work either: it is tied to the CSRF cookie of the browser.
    const other = browser(t.app, await signIn(t.app, 'eve@example.org'))
    const token = csrfOf((await other.get('/games/new')).body)
    expect((await gm.post('/games/new', { _csrf: token, name: 'Forged', boardChoice: 'training-floor', seats: '2', turnLengthHours: '24', reviewWindowHours: '0' })).status).toBe(403)

    const made = await gm.submit('/games/new', '/games/new', { name: 'Real', boardChoice: 'training-floor', seats: '2', turnLengthHours: '24', reviewWindowHours: '0', action: 'create' })
    expect(made.status).toBe(303)
    expect(made.location).toMatch(/^\/games\/[A-Za-z0-9_-]+\?done=created$/)
  })

  it('escape every name people type', async () => {
    const evil = [{ email: 'ann@example.org', name: '<script>alert(1)</script>', colour: 'red' }, { ...PLAYERS[1]! }]
    const { gm, gameId } = await setUpGame(t.app, evil, { name: '<img src=x onerror=alert(2)>' })
    const page = await browser(t.app, gm).get(`/games/${gameId}`)
    expect(page.status).toBe(200)
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(page.body).toContain('&lt;img src=x onerror=alert(2)&gt;')
    expect(page.body).not.toContain('<script>alert(1)')
    expect(page.body).not.toContain('<img src=x')
    const picture = await browser(t.app, gm).get(`/games/${gameId}/pictures/board.svg`)
    expect(picture.body).not.toContain('<script>')
  })

  it('keep each hand and program secret until the turn is published', async () => {
    const { gm: gmClient, gameId, players } = await setUpGame(t.app, PLAYERS.slice(0, 2), { gmPlays: true, gmColour: 'gold', reviewWindowHours: 24 })
    const gm = browser(t.app, gmClient)
    const [ann, bob] = players.map((p) => browser(t.app, p)) as [ReturnType<typeof browser>, ReturnType<typeof browser>]
    expect((await gm.submit(`/games/${gameId}`, `/games/${gameId}/start`, {})).status).toBe(303)
    const hands = { gm: handOf(gameId, 'P1'), ann: handOf(gameId, 'P2'), bob: handOf(gameId, 'P3') }
    const submit = `/games/${gameId}/turns/1/submit`

    // A player sees their own hand, nobody else's.
    const annTurn = await ann.get(submit)
    for (const card of hands.ann) expect(annTurn.body).toContain(`value="${card}"`)
    for (const card of [...hands.bob, ...hands.gm]) hidden(annTurn.body, card)

    // Bob's program goes in; Ann sees only that it is in.
    expect((await bob.submit(submit, submit, program(hands.bob))).location).toBe(`${submit}?stored=1#stored`)
    const annGame = await ann.get(`/games/${gameId}`)
    expect(annGame.body).toMatch(/data-player="P3"[\s\S]*?✔ in/)
    for (const card of hands.bob) hidden(annGame.body, card)

    // The GM plays: the others' programs show once the GM's own is locked.
    const before = await gm.get(`/games/${gameId}/gm`)
    expect(before.body).toContain('Lock my program')
    for (const card of hands.bob) hidden(before.body, card)
    await gm.submit(submit, submit, program(hands.gm))
    for (const card of hands.bob) hidden((await gm.get(`/games/${gameId}/gm`)).body, card)
    expect((await gm.submit(`/games/${gameId}/gm`, `/games/${gameId}/gm/lock`, { confirm: 'on', reason: '' })).location).toContain('done=locked')
    const after = await gm.get(`/games/${gameId}/gm`)
    for (const card of hands.bob.slice(0, 5)) expect(after.body).toContain(cardLabel(card))

    // Closed into a draft: the GM sees it, players and spectators do not.
    expect((await gm.submit(`/games/${gameId}/gm`, `/games/${gameId}/gm/close`, { reason: 'test' })).location).toContain('done=closed')
    const publicToken = t.app.services.games.byId(gameId)!.public_token
    const annDraft = await ann.get(`/games/${gameId}/turns/1`)
    expect(annDraft.body).toContain('with the GM for review')
    for (const card of hands.bob) hidden(annDraft.body, card)
    expect((await ann.get(`/games/${gameId}/turns/1/pictures/before-1.svg`)).status).toBe(404)
    expect((await browser(t.app).get(`/watch/${publicToken}/turns/1`)).status).toBe(404)
    expect((await browser(t.app).get(`/watch/${publicToken}/turns/1/pictures/before-1.svg`)).status).toBe(404)
    const draftPicture = await gm.get(`/games/${gameId}/turns/1/pictures/before-1.svg`)
    expect(draftPicture.status).toBe(200)
    expect(draftPicture.headers['cache-control']).toBe('private, no-cache')
    expect((await gm.get(`/games/${gameId}/turns/1`)).body).toContain('draft — not published')

    // Someone from outside the game sees nothing of it.
    const eve = browser(t.app, await signIn(t.app, 'eve@example.org'))
    expect((await eve.get(`/games/${gameId}`)).status).toBe(404)
    expect((await eve.get(`/games/${gameId}/turns/1/pictures/before-1.svg`)).status).toBe(404)

    // Published: everyone, spectators included, reads the report.
    expect((await gm.submit(`/games/${gameId}/gm`, `/games/${gameId}/gm/publish`, { reason: '' })).location).toContain('done=published')
    const report = await browser(t.app).get(`/watch/${publicToken}/turns/1`)
    expect(report.status).toBe(200)
    expect(report.body).toContain('data-table="Stage 1"')
    expect(report.body).toContain(cardLabel(hands.bob[0]!)) // cards in words on pages: "Move 2 (700)"
    // Pictures at the URLs the pages link (versioned: a rollback or correction gives new ones) are kept for good.
    const afterOne = /<img src="([^"]+\/after-1\.svg)"/.exec(report.body)![1]!
    const picture = await browser(t.app).get(afterOne)
    expect(picture.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(picture.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const again = await browser(t.app).get(afterOne, { 'if-none-match': picture.headers.etag as string })
    expect(again.status).toBe(304)
    const annEnd = /<img src="([^"]+\/end\.svg)"/.exec((await ann.get(`/games/${gameId}/turns/1`)).body)![1]!
    const png = await ann.get(annEnd.replace(/\.svg$/, '.png'))
    expect(png.headers['content-type']).toBe('image/png')
    expect(png.headers['cache-control']).toBe('private, max-age=31536000, immutable')
    // Without the version the same picture may change under its URL: asked again every time.
    expect((await ann.get(`/games/${gameId}/turns/1/pictures/end.png`)).headers['cache-control']).toBe('private, no-cache')
    expect(png.raw.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
    // The next turn's hands stay secret from the spectators.
    const watch = await browser(t.app).get(`/watch/${publicToken}`)
    for (const card of handOf(gameId, 'P2')) hidden(watch.body, card)
  })

  it('keep what a player entered next to a specific error', async () => {
    const { gm: gmClient, gameId, players } = await setUpGame(t.app, PLAYERS.slice(0, 2))
    await browser(t.app, gmClient).submit(`/games/${gameId}`, `/games/${gameId}/start`, {})
    const ann = browser(t.app, players[0]!)
    const mine = handOf(gameId, 'P1')
    const notMine = handOf(gameId, 'P2')[0]!
    const submit = `/games/${gameId}/turns/1/submit`
    const res = await ann.submit(submit, submit, { ...program(mine), r3: notMine, sacrificeAt: '4', doubleWrench: 'option' })
    expect(res.status).toBe(400)
    // Said about the register, in words (issue 13), not as the service's "card 3 (FWD2:680)".
    expect(res.body).toContain(`Register 3: ${cardLabel(notMine)} is not in your hand.`)
    expect(res.body).toContain(`<option value="${mine[0]}" selected>`)
    expect(res.body).toMatch(/<option value="4" selected>4 HP/)
    expect(res.body).toMatch(/id="dw-option" name="doubleWrench" value="option" checked/)
    expect(t.app.services.turns.latestSubmissions(t.app.services.turns.current(gameId)!.id)).toHaveLength(0)
  })

  it('come back to the page asked for after signing in by the mailed link', async () => {
    const anon = browser(t.app)
    const asked = await anon.get('/games/new')
    expect(asked.status).toBe(303)
    expect(asked.location).toBe('/sign-in?next=%2Fgames%2Fnew')
    const form = await anon.get(asked.location!)
    expect(form.body).toContain('name="next" value="/games/new"')
    const sent = await anon.post('/sign-in', { _csrf: csrfOf(form.body), email: 'new@example.org', next: '/games/new' })
    expect(sent.body).toContain('A sign-in link is on its way to <strong>new@example.org</strong>')
    const link = linksIn(lastMailTo(t.app, 'new@example.org', 'sign-in')!.body)[0]!
    const landed = await anon.submit(link.replace('http://botwars.test', ''), '/auth/link', { token: link.split('token=')[1]! })
    expect(landed.status).toBe(303)
    expect(landed.location).toBe('/games/new')
    expect((await anon.get('/games/new')).status).toBe(200)
    // A link used twice explains itself; an outside address is never a return path.
    const used = await browser(t.app).get(link.replace('http://botwars.test', ''))
    expect(used.status).toBe(400)
    expect(used.body).toContain('This sign-in link does not work')
    const sneaky = await browser(t.app).get('/sign-in?next=//evil.example/x')
    expect(sneaky.body).toContain('name="next" value=""')
  })

  it('list every symbol on the legend page and serve the gallery pictures', async () => {
    const legend = await t.app.inject({ url: '/legend' })
    const { legendEntries } = await import('../../src/render/legend.js')
    for (const entry of legendEntries()) expect(legend.body).toContain(`data-type="${entry.type}"`)
    const gallery = await t.app.inject({ url: '/boards/training-floor.svg' })
    expect(gallery.statusCode).toBe(200)
    expect(gallery.body).toMatch(/^<svg /)
    expect((await t.app.inject({ url: '/boards/..%2Fpackage.svg' })).statusCode).toBe(404)
  })

  it('preview an uploaded board before creating the game on it', async () => {
    const gm = browser(t.app, await signIn(t.app, 'gm@example.org', 'Gemma'))
    const board = { name: 'Tiny <Arena>', rows: 4, cols: 5, start: { at: 'r1c1', facing: 'N' }, elements: [{ type: 'flag', at: 'r4c5', number: 1 }, { type: 'pit', at: 'r2c3' }] }
    const fields = { name: 'Upload test', boardChoice: 'upload', boardFile: JSON.stringify(board), seats: '2', turnLengthHours: '24', reviewWindowHours: '0' }
    const preview = await gm.submit('/games/new', '/games/new', { ...fields, action: 'preview' })
    expect(preview.status).toBe(200)
    expect(preview.body).toContain('Preview of your board')
    expect(preview.body).toMatch(/<svg [^>]*class="board"[^>]*data-rows="4" data-cols="5"/)
    expect(preview.body).toContain('Tiny &lt;Arena&gt;')
    expect(preview.body).toContain('value="Upload test"') // the form keeps everything for the real submit
    const broken = await gm.submit('/games/new', '/games/new', { ...fields, boardFile: '{"rows": 4', action: 'preview' })
    expect(broken.status).toBe(400)
    expect(broken.body).toContain('The board file is not valid JSON.')
    expect(broken.body).toContain('{&#34;rows&#34;: 4</textarea>')
    const made = await gm.submit('/games/new', '/games/new', { ...fields, action: 'create' })
    expect(made.status).toBe(303)
    const game = t.app.services.games.byId(made.location!.split('/games/')[1]!.split('?')[0]!)!
    expect(game.board_name).toBe('Tiny <Arena>')
  })

  it('let the GM extend, pause, resume and replace from the console, each logged with its reason', async () => {
    const { gm: gmClient, gameId } = await setUpGame(t.app, PLAYERS.slice(0, 2))
    const gm = browser(t.app, gmClient)
    const console_ = `/games/${gameId}/gm`
    await gm.submit(`/games/${gameId}`, `/games/${gameId}/start`, {})
    const deadline = t.app.services.turns.current(gameId)!.deadline
    const bad = await gm.submit(console_, `${console_}/extend`, { hours: 'soon', reason: 'holiday' })
    expect(bad.status).toBe(400)
    expect(bad.body).toContain('Enter a number of hours between 0 and 1440.')
    expect(bad.body).toContain('value="soon"')
    expect((await gm.submit(console_, `${console_}/extend`, { hours: '48', reason: 'holiday' })).location).toContain('done=extended')
    expect(t.app.services.turns.current(gameId)!.deadline).toBe(deadline + 48 * 3600_000)
    expect((await gm.submit(console_, `${console_}/pause`, { reason: 'GM away' })).location).toContain('done=paused')
    expect((await gm.get(console_)).body).toContain('Resume the game')
    expect((await gm.submit(console_, `${console_}/resume`, { reason: 'back' })).location).toContain('done=resumed')
    expect((await gm.submit(console_, `${console_}/replace`, { seat: '2', email: 'dee@example.org', reason: 'Bob moved away' })).location).toContain('done=replaced')
    expect(lastMailTo(t.app, 'dee@example.org', 'invitation')).toBeDefined()
    const refused = await gm.submit(console_, `${console_}/abandon`, { reason: 'enough' })
    expect(refused.body).toContain('Tick the box to confirm that the game ends now.')
    const log = (await gm.get(console_)).body
    for (const line of ['holiday', 'GM away', 'back', 'Bob moved away']) expect(log).toContain(line)
    // Players cannot use the console.
    const ann = browser(t.app, await signIn(t.app, PLAYERS[0]!.email))
    expect((await ann.get(console_)).status).toBe(403)
    expect((await ann.submit(`/games/${gameId}`, `${console_}/pause`, { reason: 'mine now' })).status).toBe(403)
  })

  it('show a rebooting robot that it plays no cards, and store its program without any (R33)', async () => {
    const { gm, gameId, players } = await setUpGame(t.app, PLAYERS.slice(0, 2))
    await browser(t.app, gm).submit(`/games/${gameId}`, `/games/${gameId}/start`, {})
    const [ann, bob] = players.map((p) => browser(t.app, p)) as [ReturnType<typeof browser>, ReturnType<typeof browser>]
    const turn1 = `/games/${gameId}/turns/1/submit`
    await ann.submit(turn1, turn1, { ...program(handOf(gameId, 'P1')), rebootNext: 'on' })
    await bob.submit(turn1, turn1, program(handOf(gameId, 'P2')))
    t.app.runDueWork() // every program is in: the turn closes at once
    expect((await browser(t.app, gm).submit(`/games/${gameId}/gm`, `/games/${gameId}/gm/publish`, {})).location).toContain('done=published')
    const turn2 = `/games/${gameId}/turns/2/submit`
    const page = await ann.get(turn2)
    expect(page.body).toContain('Your robot is rebooting this turn')
    expect(page.body).not.toContain('class="reg-select"')
    const stored = await ann.submit(turn2, turn2, { sacrificeAt: '6', doubleWrench: 'repair' })
    expect(stored.location).toBe(`${turn2}?stored=1#stored`)
    expect((await ann.get(stored.location!)).body).toContain('no cards (rebooting)')
  })
})
