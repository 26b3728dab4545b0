// A mail server's refusal of a digest is not shown to the GMs of the games it covered. Ann plays in
// two games of two GMs and takes a daily digest; the server's content filter refuses it for good,
// quoting the lines that name both games. The digest's error text is that server's, about a mail
// of both games: neither GM's console shows it (nor so the other game's name), only a neutral
// reason with the reply code. The whole text stays on the outbox row, for the operator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { preferencesRepository } from '../../src/server/mail/preferences.js'
import { DAY, PLAYERS, setUpGame, type Client } from '../server/helpers.js'
import { mailWorld, undeliveredOn, type MailWorld } from './helpers.js'

const [ANN, BOB, CID] = PLAYERS as [typeof PLAYERS[0], typeof PLAYERS[0], typeof PLAYERS[0]]
const FILTER_SAYS = 'content filter matched'

let w: MailWorld
let amber: { gm: Client; gameId: string }
let garden: { gm: Client; gameId: string }

beforeAll(async () => {
  w = await mailWorld()
  amber = await setUpGame(w.t.app, [ANN, BOB], { name: 'Amber Field', reviewWindowHours: 0 })
  garden = await setUpGame(w.t.app, [ANN, CID], { name: 'Secret Garden', reviewWindowHours: 0 }, { email: 'gus@example.org', name: 'Gus' })
  await w.t.app.mailer.deliver() // sign-in links and invitations, while the server takes everything
  // Refuses Ann's digest once its data has arrived, quoting what of it named a game.
  w.smtp.restart({
    refuseData: (mail) => mail.to.includes(ANN.email) && mail.subject.includes('digest')
      ? `5.7.1 ${FILTER_SAYS}: ${mail.text.split('\n').filter((line) => line.includes('"')).join(' | ')}`
      : undefined,
  })
})
afterAll(async () => { await w.t.close(); await w.smtp.close() })

describe('a digest of two games refused with a text quoting it', () => {
  it('shows each GM a neutral reason with the reply code, not the server\'s text, which names the other game', async () => {
    const t0 = w.t.clock.now
    preferencesRepository(w.t.app.services.db).setMode(ANN.email, 'digest', t0)
    for (const game of [amber, garden]) expect((await game.gm.call('POST', `/api/v1/games/${game.gameId}/start`)).status).toBe(200)
    await w.t.app.mailer.deliver()
    w.t.clock.now = t0 + DAY
    expect(w.t.app.runDueWork().digests).toBe(1)
    await w.t.app.mailer.deliver()

    const digest = w.t.app.services.outbox.all().find((r) => r.kind === 'digest' && r.recipient === ANN.email)!
    expect(digest).toMatchObject({ status: 'failed', game_id: null })
    // The operator keeps the server's whole answer, which does name both games.
    expect(digest.last_error).toContain(FILTER_SAYS)
    expect(digest.last_error).toContain('Amber Field')
    expect(digest.last_error).toContain('Secret Garden')

    for (const [game, own, other] of [[amber, 'Amber Field', 'Secret Garden'], [garden, 'Secret Garden', 'Amber Field']] as const) {
      const page = await undeliveredOn(w.t.app, game)
      const ann = page.rows.filter((r) => r.to === ANN.email)
      expect(ann.length).toBeGreaterThan(0)
      for (const row of ann) {
        expect(row.subject).toContain(`"${own}"`)
        expect(row.why).toMatch(/mail server refused .*daily digest/)
        expect(row.why).toContain('550 5.7.1')
      }
      expect(page.body).not.toContain(other)
      expect(page.body).not.toContain(FILTER_SAYS)
    }
  })
})
