// A digest given up for good reaches the GM of every game it covered. Ann plays in two games with
// two GMs and takes a daily digest; the mail server refuses her (550) and Bob. Her one digest
// holds the turn mail of both games, so it is stored with no game: still, each GM's console lists
// what of their own game she did not get, and nothing of the other game (its name, its turns, its
// id). Bob's own turn mail, refused on its own, shows on his game's console as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { preferencesRepository } from '../../src/server/mail/preferences.js'
import { DAY, HOUR, PLAYERS, setUpGame, type Client } from '../server/helpers.js'
import { mailWorld, undeliveredOn as consoleRows, type MailWorld } from './helpers.js'

const [ANN, BOB, CID] = PLAYERS as [typeof PLAYERS[0], typeof PLAYERS[0], typeof PLAYERS[0]]
const REFUSED = new Set([ANN.email, BOB.email])

let w: MailWorld
let amber: { gm: Client; gameId: string }
let garden: { gm: Client; gameId: string }
let t0: number

async function started(game: { gm: Client; gameId: string }) {
  const res = await game.gm.call('POST', `/api/v1/games/${game.gameId}/start`)
  if (res.status !== 200) throw new Error(`start: ${res.status} ${res.text}`)
}

const undeliveredOn = (game: { gm: Client; gameId: string }) => consoleRows(w.t.app, game)

beforeAll(async () => {
  w = await mailWorld()
  amber = await setUpGame(w.t.app, [ANN, BOB], { name: 'Amber Field', turnLengthHours: 72, reviewWindowHours: 0 })
  garden = await setUpGame(w.t.app, [ANN, CID], { name: 'Secret Garden', turnLengthHours: 12, reviewWindowHours: 0 }, { email: 'gus@example.org', name: 'Gus' })
  await w.t.app.mailer.deliver() // sign-in links and invitations, while the server takes everyone
  w.smtp.restart({ refuse: (address) => REFUSED.has(address) })
})
afterAll(async () => { await w.t.close(); await w.smtp.close() })

describe('a digest of two games given up for good', () => {
  it('shows on each GM\'s console as that game\'s undelivered mail, and nothing of the other game', async () => {
    t0 = w.t.clock.now
    preferencesRepository(w.t.app.services.db).setMode(ANN.email, 'digest', t0)
    await started(amber)
    await started(garden)
    // The garden's turn 1 ends at its deadline and is published: its results and turn 2 are held for Ann too.
    w.t.clock.now = t0 + 12 * HOUR + 1000
    w.t.app.runDueWork()
    expect(w.t.app.services.turns.current(garden.gameId)!.number).toBe(2)
    await w.t.app.mailer.deliver() // Bob's turn 1 mail is refused on its own

    w.t.clock.now = t0 + DAY // her first digest is due; the garden's turn 2 is not over yet
    expect(w.t.app.runDueWork().digests).toBe(1)
    await w.t.app.mailer.deliver()
    const digest = w.t.app.services.outbox.all().find((r) => r.kind === 'digest' && r.recipient === ANN.email)!
    expect(digest).toMatchObject({ status: 'failed', game_id: null })
    expect(digest.body).toContain('"Amber Field"')
    expect(digest.body).toContain('"Secret Garden"')

    const a = await undeliveredOn(amber)
    expect(a.rows.map(({ to, subject }) => ({ to, subject }))).toEqual([
      { to: BOB.email, subject: expect.stringMatching(/^Turn 1 of "Amber Field" — your program is due /) },
      { to: ANN.email, subject: expect.stringMatching(/^Turn 1 of "Amber Field" — your program is due /) },
    ])
    expect(a.rows[1]!.why).toMatch(/daily digest/)
    expect(a.rows[1]!.why).toMatch(/550|no such mailbox/)

    const g = await undeliveredOn(garden)
    expect(g.rows.map((r) => r.to)).toEqual(g.rows.map(() => ANN.email))
    const subjects = g.rows.map((r) => r.subject)
    expect(subjects).toContainEqual(expect.stringMatching(/^Turn 1 of "Secret Garden" — your program is due /))
    expect(subjects).toContainEqual(expect.stringMatching(/^Turn 2 of "Secret Garden" — your program is due /))
    for (const subject of subjects) expect(subject).toContain('"Secret Garden"')

    // Neither GM learns of the other game through the digest: its name, its id, the digest's own subject.
    for (const [page, other] of [[a, garden], [g, amber]] as const) {
      expect(page.body).not.toContain(other === garden ? 'Secret Garden' : 'Amber Field')
      expect(page.body).not.toContain(other.gameId)
      expect(page.body).not.toContain('BotWars digest')
    }
  })

  it('lists the parts of a digest of one game given up, not the digest, and the other console is unchanged', async () => {
    // The garden's turn 2 ends: its results and turn 3 are all her next digest holds.
    w.t.clock.now = t0 + 2 * DAY
    w.t.app.runDueWork()
    expect(w.t.app.services.turns.current(garden.gameId)!.number).toBe(3)
    await w.t.app.mailer.deliver()
    const digests = w.t.app.services.outbox.all().filter((r) => r.kind === 'digest' && r.recipient === ANN.email)
    expect(digests.map((d) => [d.status, d.game_id])).toEqual([['failed', null], ['failed', garden.gameId]])

    const g = await undeliveredOn(garden)
    expect(g.rows.map((r) => r.subject)).toContainEqual(expect.stringMatching(/^Turn 3 of "Secret Garden" — your program is due /))
    expect(g.body).not.toContain('BotWars digest')
    const a = await undeliveredOn(amber)
    expect(a.rows.map((r) => [r.to, r.subject.slice(0, 22)])).toEqual([[BOB.email, 'Turn 1 of "Amber Field'], [ANN.email, 'Turn 1 of "Amber Field']])
  })
})
