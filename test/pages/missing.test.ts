// Pages and pictures that name what does not exist: a board, a picture, a turn, a stage, a robot,
// a game to join. Each answers the 404 page saying what is missing, never a 500 from reading what
// is not there. A sweep that let each `throw notFound` of src/server/pages fall through found these
// unneeded by any test (docs/performance.md, "Issue 17, 2026-11-27, night").
import { afterAll, beforeAll, expect, it } from 'vitest'
import { playTurn, startedGame } from '../gm/helpers.js'
import { acceptInvitation, PLAYERS, signIn, testApp, type Client, type TestApp } from '../server/helpers.js'
import { browser } from './helpers.js'

let t: TestApp
let gm: Client, ann: Client, dee: Client
let gameId: string, publicToken: string

beforeAll(async () => {
  t = await testApp()
  const started = await startedGame(t.app, {}, PLAYERS.slice(0, 2))
  ;({ gm, gameId } = started)
  ann = started.players[0]!
  publicToken = (await gm.call('GET', `/api/v1/games/${gameId}`)).json.publicToken
  await playTurn(t.app, t.clock, gm, gameId) // turn 1 published, turn 2 open
  // Dee takes a seat opened mid-game: her robot enters at the next deal, so turn 2 has none of hers.
  expect((await gm.call('POST', `/api/v1/games/${gameId}/seats`, { email: 'dee@example.org', reason: 'one more' })).status).toBe(201)
  dee = await acceptInvitation(t.app, { email: 'dee@example.org', name: 'Dee', colour: 'teal' })
})
afterAll(async () => { await t.close() })

/** Whether the 404 page says `message` (it writes it as a sentence: "No such board."). */
const says = (html: string, message: string) => html.includes(`<p>${message[0]!.toUpperCase()}${message.slice(1)}.</p>`)

it('answers 404, saying what is missing, for pictures that do not exist', async () => {
  const cases: [Client | undefined, string, string][] = [
    [undefined, '/boards/no-such-board.svg', 'no such board'],
    [ann, `/games/${gameId}/pictures/start.svg`, 'no such picture'],
    [undefined, `/watch/${publicToken}/pictures/start.svg`, 'no such picture'],
    [undefined, `/watch/${publicToken}/turns/0/pictures/start.svg`, 'no such turn'],
    [undefined, `/watch/${publicToken}/turns/1/pictures/stage-9.svg`, 'no such picture'],
    // A picture's version (pages/pictures.ts turnPictureBase) that no page could have linked.
    [undefined, `/watch/${publicToken}/turns/1/pictures/latest/end.svg`, 'no such picture'],
    [ann, `/games/${gameId}/turns/1/pictures/r1-../end.svg`, 'no such picture'],
  ]
  for (const [who, url, message] of cases) {
    const res = await browser(t.app, who).get(url, { accept: 'text/html' })
    expect([url, res.status, says(res.body, message)]).toEqual([url, 404, true])
  }
})

it('answers 404, saying what is missing, for turns, stages and robots that do not exist', async () => {
  const cases: [Client | undefined, string, string][] = [
    [ann, `/games/${gameId}/turns/99`, 'no turn 99'],
    [dee, `/games/${gameId}/turns/2/submit`, 'you have no robot in this game'],
    [ann, `/games/${gameId}/turns/2/replay/1`, 'turn 2 has no results yet'],
    [ann, `/games/${gameId}/turns/1/replay/9`, 'no such stage'],
    [undefined, `/watch/${publicToken}/turns/0`, 'no such turn'],
  ]
  for (const [who, url, message] of cases) {
    const res = await browser(t.app, who).get(url)
    expect([url, res.status, says(res.body, message)]).toEqual([url, 404, true])
  }
})

it('answers 404 to joining a game that does not exist', async () => {
  const page = browser(t.app, await signIn(t.app, 'eve@example.org', 'Eve'))
  const res = await page.submit('/', '/games/no-such-game/join', { name: 'Eve', colour: 'teal' })
  expect([res.status, says(res.body, 'no such game')]).toEqual([404, true])
})
