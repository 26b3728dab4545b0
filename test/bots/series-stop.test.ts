// Stopping a series (issue 15 follow-up): a person runs at most 2 series at a time, and before this
// there was no way to stop one. Only the series' GM may stop it, from the JSON API or the series
// page: "after-game" lets the game in progress play out and starts no other; "now" abandons that
// game through the GM console's abandon (its game-over mail to the players) and stops at once.
// The refusals come first: a player of one of its games, another person, someone signed out and
// an API token are turned away and nothing changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_RUNNING_SERIES } from '../../src/server/services/bot-limits.js'
import { TOKEN_REFUSED } from '../../src/server/routes/define.js'
import { mailsOf } from '../gm/helpers.js'
import { browser } from '../pages/helpers.js'
import { formToken } from '../security/setup.js'
import { acceptInvitation, client, signIn, testApp, type Client, type TestApp } from '../server/helpers.js'

let t: TestApp
let gm: Client, ann: Client, eve: Client
beforeAll(async () => {
  t = await testApp()
  gm = await signIn(t.app, 'gm@example.org', 'Gemma')
  eve = await signIn(t.app, 'eve@example.org', 'Eve')
})
afterAll(async () => { await t.close() })

const CUP = { name: 'Cup', boards: ['training-floor', 'the-foundry'], seats: ['gm', 'greedy'], rounds: 1, turnLengthHours: 24 }

async function newSeries(by = gm, body: Record<string, unknown> = CUP): Promise<string> {
  const created = await by.call('POST', '/api/v1/series', body)
  expect(created.status, created.text).toBe(201)
  return created.json.id as string
}
const seriesOf = async (id: string) => (await gm.call('GET', `/api/v1/series/${id}`)).json
const currentGame = async (id: string) => (await seriesOf(id)).games.at(-1).gameId as string
const stop = (by: Client, id: string, body: Record<string, unknown>) => by.call('POST', `/api/v1/series/${id}/stop`, body)
/** The series' rows, its games' rows and the mail queued: equal before and after means nothing changed. */
const rowsOf = (id: string) => JSON.stringify([
  t.app.services.bots.series(id), t.app.services.bots.seriesGames(id).map((g) => [g.game_id, g.status]), t.app.services.outbox.all().length,
])

/** Ann takes a new seat the GM opens for her in the series' game in progress: a player of one of its games. */
async function annPlaysIn(gameId: string): Promise<Client> {
  const opened = await gm.call('POST', `/api/v1/games/${gameId}/seats`, { email: 'ann@example.org', reason: 'a guest' })
  expect(opened.status, opened.text).toBe(201)
  return acceptInvitation(t.app, { email: 'ann@example.org', name: 'Ann', colour: 'red' })
}

describe('who may stop a series', () => {
  let id: string
  let gameId: string
  beforeAll(async () => {
    id = await newSeries()
    gameId = await currentGame(id)
    ann = await annPlaysIn(gameId)
  })

  it('refuses a player of its game, another person, someone signed out and API tokens, and nothing changes', async () => {
    const before = rowsOf(id)
    const annToken = (await ann.call('POST', `/api/v1/games/${gameId}/api-token`)).json.token as string
    const gmToken = (await gm.call('POST', `/api/v1/games/${gameId}/api-token`)).json.token as string
    const tokenRows = rowsOf(id)
    for (const when of ['now', 'after-game']) {
      const body = { when, reason: 'mine now' }
      for (const who of [ann, eve]) {
        const res = await stop(who, id, body)
        expect([who.email, res.status, res.json?.message]).toEqual([who.email, 403, 'only the GM of this series can see it'])
      }
      expect((await stop(client(t.app, 'nobody'), id, body)).status).toBe(401)
      for (const token of [annToken, gmToken]) {
        const res = await stop(client(t.app, 'token', { authorization: `Bearer ${token}` }), id, body)
        expect([res.status, res.json?.message]).toEqual([403, TOKEN_REFUSED])
      }
      // The GM check comes first: an empty body tells an outsider nothing about what it should hold.
      expect((await stop(eve, id, {})).status).toBe(403)
    }
    expect(before).not.toBe('')
    expect(rowsOf(id)).toBe(tokenRows)
    expect((await seriesOf(id)).status).toBe('running')
  })

  it('answers 404 for a series that does not exist', async () => {
    const res = await stop(gm, 'no-such-series', { when: 'now', reason: 'r' })
    expect([res.status, res.json.message]).toEqual([404, 'no such series'])
  })

  it('refuses the series page\'s stop form to everyone but its GM', async () => {
    const before = rowsOf(id)
    for (const who of [ann, eve]) {
      const { token, cookie } = await formToken(t.app, who.headers.cookie!)
      const res = await t.app.inject({
        method: 'POST', url: `/series/${id}/stop`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: token, when: 'now', reason: 'mine', confirm: 'on' }).toString(),
      })
      expect([who.email, res.statusCode]).toEqual([who.email, 403])
    }
    // Signed out: sent to sign in, nothing stopped.
    const { token, cookie } = await formToken(t.app, '', '/sign-in')
    const anonymous = await t.app.inject({
      method: 'POST', url: `/series/${id}/stop`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: token, when: 'now', reason: 'mine', confirm: 'on' }).toString(),
    })
    expect([anonymous.statusCode, String(anonymous.headers.location)]).toEqual([303, expect.stringMatching(/^\/sign-in/)])
    expect(rowsOf(id)).toBe(before)
  })
})

describe('stopping a series', () => {
  it('"now" abandons the game in progress with the console\'s game-over mail, keeps the standings so far and starts nothing more', async () => {
    const id = await newSeries(gm, { ...CUP, seats: ['greedy', 'random'] })
    // Game 1 ends with placings (the GM's "end the game"); the clockwork starts game 2.
    const first = await currentGame(id)
    expect((await gm.call('POST', `/api/v1/games/${first}/end`, { reason: 'enough' })).status).toBe(200)
    expect(t.app.advanceSeries()).toBeGreaterThanOrEqual(1)
    const second = await currentGame(id)
    expect(second).not.toBe(first)
    const annHere = await annPlaysIn(second)

    const res = await stop(gm, id, { when: 'now', reason: 'the boards are being redrawn' })
    expect(res.status, res.text).toBe(200)
    expect(res.json.status).toBe('stopped')
    expect(res.json.stop).toMatchObject({ when: 'now', reason: 'the boards are being redrawn' })
    expect(res.json.endedAt).not.toBeNull()
    expect(res.json.games.map((g: { status: string }) => g.status)).toEqual(['finished', 'abandoned'])
    // The standings so far: game 1 counted, the abandoned game 2 not.
    expect(res.json.standings.map((s: { games: number }) => s.games)).toEqual([1, 1])
    // The abandon path's own mail, to the players of game 2 and the GM, with the reason.
    const mails = mailsOf(t.app, second, 'game-over')
    expect(mails.map((m) => m.recipient).sort()).toEqual(['ann@example.org', 'gm@example.org'])
    expect(mails.every((m) => m.body.includes('the boards are being redrawn'))).toBe(true)
    expect(t.app.services.games.byId(second)!.status).toBe('abandoned')
    expect((await annHere.call('GET', `/api/v1/games/${second}`)).json.status).toBe('abandoned')

    for (let tick = 0; tick < 3; tick++) t.app.advanceSeries()
    expect((await seriesOf(id)).games).toHaveLength(2)
    expect((await seriesOf(id)).status).toBe('stopped')
    // Stopped is stopped: a second stop is refused, saying why.
    const again = await stop(gm, id, { when: 'now', reason: 'again' })
    expect([again.status, again.json.message]).toEqual([409, 'the series is stopped'])
  })

  it('"after-game" lets the game in progress play out, then starts no other; "now" still ends it sooner', async () => {
    const id = await newSeries(gm, { ...CUP, seats: ['greedy', 'random'] })
    const first = await currentGame(id)
    const res = await stop(gm, id, { when: 'after-game', reason: 'one game is enough' })
    expect(res.status, res.text).toBe(200)
    expect(res.json.status).toBe('running')
    expect(res.json.stop).toMatchObject({ when: 'after-game', reason: 'one game is enough' })
    expect(t.app.services.games.byId(first)!.status).toBe('running')
    expect(mailsOf(t.app, first, 'game-over')).toHaveLength(0)
    const twice = await stop(gm, id, { when: 'after-game', reason: 'again' })
    expect([twice.status, twice.json.message]).toEqual([409, 'the series already stops after the game in progress'])

    // The game ends: the clockwork stops the series instead of starting game 2.
    expect((await gm.call('POST', `/api/v1/games/${first}/end`, { reason: 'done' })).status).toBe(200)
    expect(t.app.advanceSeries()).toBe(0)
    const stopped = await seriesOf(id)
    expect([stopped.status, stopped.games.length, stopped.endedAt !== null]).toEqual(['stopped', 1, true])
    expect(stopped.standings.map((s: { games: number }) => s.games)).toEqual([1, 1])

    // Asked after the game, then now: the game in progress is abandoned at once.
    const other = await newSeries(gm, { ...CUP, seats: ['greedy', 'random'] })
    const playing = await currentGame(other)
    expect((await stop(gm, other, { when: 'after-game', reason: 'later' })).status).toBe(200)
    const now = await stop(gm, other, { when: 'now', reason: 'sooner' })
    expect([now.status, now.json.status, now.json.stop.when]).toEqual([200, 'stopped', 'now'])
    expect(t.app.services.games.byId(playing)!.status).toBe('abandoned')
  })

  it('frees the place under the series limit: at once when stopped now, when its game ends when stopped after it', async () => {
    const olga = await signIn(t.app, 'olga@example.org', 'Olga')
    const small = { ...CUP, boards: ['training-floor'], seats: ['random', 'random'] }
    const ids: string[] = []
    for (let i = 0; i < MAX_RUNNING_SERIES; i++) ids.push(await newSeries(olga, small))
    expect((await olga.call('POST', '/api/v1/series', small)).status).toBe(429)

    // After the game: its game still plays, so the place is still taken.
    expect((await stop(olga, ids[0]!, { when: 'after-game', reason: 'r' })).status).toBe(200)
    expect((await olga.call('POST', '/api/v1/series', small)).status).toBe(429)
    // Now: freed at once.
    expect((await stop(olga, ids[1]!, { when: 'now', reason: 'r' })).status).toBe(200)
    ids.push(await newSeries(olga, small))
    expect((await olga.call('POST', '/api/v1/series', small)).status).toBe(429)
    // The first one's game ends: the clockwork stops it and its place is free.
    const playing = (await olga.call('GET', `/api/v1/series/${ids[0]}`)).json.games.at(-1).gameId
    expect((await olga.call('POST', `/api/v1/games/${playing}/end`, { reason: 'done' })).status).toBe(200)
    t.app.advanceSeries()
    expect((await olga.call('POST', '/api/v1/series', small)).status).toBe(201)
  })

  it('refuses a stop without a choice of when or without a reason, naming the field', async () => {
    const id = await newSeries(gm, { ...CUP, seats: ['random', 'random'] })
    const noWhen = await stop(gm, id, { reason: 'r' })
    expect([noWhen.status, noWhen.json.field]).toEqual([400, 'when'])
    const badWhen = await stop(gm, id, { when: 'tomorrow', reason: 'r' })
    expect([badWhen.status, badWhen.json.field]).toEqual([400, 'when'])
    const noReason = await stop(gm, id, { when: 'now', reason: '  ' })
    expect([noReason.status, noReason.json.field]).toEqual([400, 'reason'])
    expect((await seriesOf(id)).status).toBe('running')
    // Cleared for the GM's allowance.
    expect((await stop(gm, id, { when: 'now', reason: 'tidy up' })).status).toBe(200)
  })
})

describe('a series whose games are all played', () => {
  // Its last game has ended and the clockwork has not yet looked at it: it is finished, not stopped
  // (test/server/series-stop-race.test.ts lands the stop in the clockwork's own step).
  const PLAYED_OUT = 'the series has already played its last game: it ends as finished'

  it('refuses its GM\'s stop, from the API and the page alike, saying why; the clockwork then finishes it', async () => {
    const id = await newSeries(gm, { ...CUP, boards: ['training-floor'], seats: ['greedy', 'random'] })
    expect((await gm.call('POST', `/api/v1/games/${await currentGame(id)}/end`, { reason: 'played' })).status).toBe(200)
    const before = rowsOf(id)
    for (const when of ['now', 'after-game']) {
      const res = await stop(gm, id, { when, reason: 'enough' })
      expect([res.status, res.json.message]).toEqual([409, PLAYED_OUT])
    }
    const page = `/series/${id}`
    const refused = await browser(t.app, gm).submit(page, `${page}/stop`, { when: 'now', reason: 'enough', confirm: 'on' })
    expect(refused.status).toBe(400)
    expect(refused.body).toContain(PLAYED_OUT.replace(/^t/, 'T'))
    expect(rowsOf(id)).toBe(before)

    t.app.advanceSeries()
    const finished = await seriesOf(id)
    expect([finished.status, finished.stop, finished.endedAt !== null]).toEqual(['finished', null, true])
    expect((await stop(gm, id, { when: 'now', reason: 'again' })).json.message).toBe('the series is finished')
  })
})

describe('the series page\'s stop form', () => {
  it('asks for the tick, then stops the series and shows it stopped with its standings', async () => {
    const id = await newSeries(gm, { ...CUP, seats: ['greedy', 'random'] })
    const page = `/series/${id}`
    const b = browser(t.app, gm)
    const shown = await b.get(page)
    expect(shown.body).toContain(`action="/series/${id}/stop"`)
    const unticked = await b.submit(page, `${page}/stop`, { when: 'now', reason: 'no tick' })
    expect(unticked.status).toBe(400)
    expect(unticked.body).toContain('Tick the box to confirm')
    expect((await seriesOf(id)).status).toBe('running')

    const done = await b.submit(page, `${page}/stop`, { when: 'now', reason: 'from the page', confirm: 'on' })
    expect([done.status, done.location]).toEqual([303, `${page}?done=stopped#done`])
    const after = await b.get(`${page}?done=stopped`)
    expect(after.body).toContain('Stopped')
    expect(after.body).toContain('from the page')
    expect(after.body).not.toContain(`action="/series/${id}/stop"`)
    expect((await seriesOf(id)).status).toBe('stopped')
  })
})
