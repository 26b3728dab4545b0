// Names and reasons keep no control character or bidirectional override (schemas.ts normalName,
// normalText; docs/security.md). Found by a hostile review: the practice and series names (a
// series' name becomes each game's name, mailed in the turn mail) and the GM-job reasons (a
// player's withdrawal reason is mailed to the whole table) were only trimmed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLAYERS, signIn, testApp, type Client, type TestApp } from '../server/helpers.js'
import { startedGame } from '../gm/helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

const HOSTILE = 'Cup\r\nBcc: x@example.org\u0000\u001b[31m\u202egnp.exe'
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/

describe('names and reasons keep no control character or bidi override', () => {
  it('practice and series names', async () => {
    const gm = await signIn(t.app, 'gm@example.org', 'Gemma')
    const practice = await gm.call('POST', '/api/v1/practice', { board: 'training-floor', bots: ['random'], name: HOSTILE })
    const series = await gm.call('POST', '/api/v1/series', { name: HOSTILE, boards: ['training-floor'], seats: ['gm', 'random'] })
    expect([practice.status, series.status]).toEqual([201, 201])
    const seriesGame = t.app.services.games.byId(series.json.games[0].gameId)!
    const mails = t.app.services.outbox.all().filter((m) => m.game_id === seriesGame.id)
    expect(mails.length).toBeGreaterThan(0)
    expect({
      practice: CONTROL.test(practice.json.name), series: CONTROL.test(series.json.name), seriesGame: CONTROL.test(seriesGame.name),
      mailed: mails.some((m) => CONTROL.test(m.body) || CONTROL.test(JSON.stringify(m))),
    }).toEqual({ practice: false, series: false, seriesGame: false, mailed: false })
  })

  it('a player\'s withdrawal reason, mailed to everyone at the table', async () => {
    const g = await startedGame(t.app, {}, PLAYERS)
    const [ann] = g.players as [Client]
    expect((await ann.call('POST', `/api/v1/games/${g.gameId}/withdraw`, { reason: `bye\u0000\u001b[2J\u202eevil` })).status).toBe(200)
    const history = (await g.gm.call('GET', `/api/v1/games/${g.gameId}/history`)).json.history as { action: string; reason: string }[]
    const left = t.app.services.outbox.all().filter((m) => m.game_id === g.gameId && m.kind === 'seat-left')
    expect(left.length).toBeGreaterThan(0)
    expect({
      history: CONTROL.test(history.find((a) => a.action === 'withdraw')!.reason),
      mailed: left.some((m) => CONTROL.test(m.body)),
    }).toEqual({ history: false, mailed: false })
  })
})
