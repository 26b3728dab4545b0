// Names, never seat ids: the engine's players are the seat ids P1…P8, but everything a person
// reads names robots as the NAME row does (the rules put the opponent's name under the combat
// squares). A whole game plays through the server with every program filled at random (R9); every
// mail, the API's tables and text report, and the turn page for a player and for a spectator are
// read for a seat id.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { HOUR, setUpGame, testApp, type TestApp } from './helpers.js'

const SEAT_ID = /\bP[1-8]\b/

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

/** The text a reader sees on a page: tags (and the seat ids in their attributes) left out. */
const visibleText = (html: string) => html
  .replace(/<script[\s\S]*?<\/script>/g, ' ')
  .replace(/<style[\s\S]*?<\/style>/g, ' ')
  .replace(/<[^>]+>/g, ' ')

function expectNoSeatId(text: string, where: string): void {
  const found = SEAT_ID.exec(text)
  expect(found, `${where} shows the seat id ${found?.[0]}: …${found ? text.slice(Math.max(0, found.index - 80), found.index + 40) : ''}…`).toBeNull()
}

it('no seat id appears in any rendered table, page or mail of a whole game', async () => {
  const people = [
    { email: 'ann@example.org', name: 'Annabel', colour: 'red' },
    { email: 'bob@example.org', name: 'Roberta', colour: 'blue' },
    { email: 'cid@example.org', name: 'Cidney', colour: 'green' },
  ]
  const { gm, gameId, players } = await setUpGame(t.app, people, { reviewWindowHours: 1, turnLengthHours: 24 })
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: 'all here' })).status).toBe(200)
  const publicToken = (await gm.call('GET', `/api/v1/games/${gameId}`)).json.publicToken as string
  const ann = players[0]!
  const seen = { pushes: 0, shots: 0, turns: 0 }

  for (let turn = 1; turn < 300; turn++) {
    const game = (await gm.call('GET', `/api/v1/games/${gameId}`)).json
    if (game.status !== 'running') break
    // Nobody submits: the server fills every program at random (R9), closes, and after the review
    // window publishes; the GM's draft mail and everyone's results mail carry the report.
    t.clock.now = Date.parse(game.currentTurn.deadline) + 1000
    expect(t.app.runDueWork().closed).toBe(1)
    t.clock.now += 2 * HOUR
    expect(t.app.runDueWork().published).toBe(1)

    const result = (await ann.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json.result
    const cells = (result.tables as { rows: { cells: string[][] }[] }[]).flatMap((table) => table.rows.flatMap((row) => row.cells.flat()))
    expectNoSeatId(cells.join('\n'), `turn ${turn}'s tables`)
    expectNoSeatId(result.report, `turn ${turn}'s text report`)
    seen.pushes += cells.filter((cell) => cell.startsWith('pushed by ')).length
    seen.shots += cells.filter((cell) => cell.startsWith('→ ')).length
    for (const [who, url] of [['a player', `/games/${gameId}/turns/${turn}`], ['a spectator', `/watch/${publicToken}/turns/${turn}`]] as const) {
      const page = who === 'a player' ? await ann.call('GET', url) : await t.app.inject({ method: 'GET', url }).then((r) => ({ status: r.statusCode, text: r.body }))
      expect(page.status, url).toBe(200)
      expectNoSeatId(visibleText(page.text), `turn ${turn}'s page for ${who}`)
    }
    seen.turns++
  }

  const final = (await gm.call('GET', `/api/v1/games/${gameId}`)).json
  expect(final.status).toBe('finished')
  const mails = t.app.services.outbox.all()
  expect(new Set(mails.map((m) => m.kind))).toEqual(expect.objectContaining(new Set(['hand', 'draft-ready', 'results', 'game-over'])))
  for (const mail of mails) expectNoSeatId(`${mail.subject}\n${mail.body}`, `the ${mail.kind} mail to ${mail.recipient}`)
  // The game said enough about robots meeting for the check to mean something.
  expect(seen.turns).toBeGreaterThan(3)
  expect(seen.shots).toBeGreaterThan(0)
  expect(seen.pushes + seen.shots).toBeGreaterThan(3)
})
