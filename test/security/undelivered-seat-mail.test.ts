// The GM console's list of undelivered mail, attacked by a GM who plays. Ann's mail server refuses
// her turn mail for good with a content filter that quotes the message: its reply address (which
// takes a program for her seat) and the lines of her hand. Before the GM has locked their own
// program (A14) they may read no hand but their own, and never hold another seat's reply address:
// the console names the refused mail with a neutral reason and the reply code only (as it does for
// a digest, test/mail/digest-refusal-text.test.ts); the server's words stay on the outbox row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardLabel } from '../../src/render/cards.js'
import { PLAYERS, setUpGame, type Client } from '../server/helpers.js'
import { mailWorld, undeliveredOn, type MailWorld } from '../mail/helpers.js'

const [ANN, BOB] = PLAYERS as [typeof PLAYERS[0], typeof PLAYERS[0]]
const FILTER_SAYS = 'content filter matched'

let w: MailWorld
let game: { gm: Client; ann: Client; gameId: string }

beforeAll(async () => {
  w = await mailWorld()
  const set = await setUpGame(w.t.app, [ANN, BOB], { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow', reviewWindowHours: 24, closeEarly: false })
  game = { gm: set.gm, ann: set.players[0]!, gameId: set.gameId }
  await w.t.app.mailer.deliver() // sign-in links and invitations, while the server takes everything
  // Refuses Ann's turn mail once its data has arrived, quoting its reply address and every line of its text.
  w.smtp.restart({
    refuseData: (mail) => mail.to.includes(ANN.email) && mail.subject.startsWith('Turn 1')
      ? `5.7.1 ${FILTER_SAYS}: Reply-To ${mail.headers.get('reply-to')} | ${mail.text.split('\n').filter((l) => l.trim()).join(' | ')}`
      : undefined,
  })
})
afterAll(async () => { await w.t.close(); await w.smtp.close() })

describe('a turn mail refused with a text quoting it', () => {
  it('shows the GM who plays neither the hand nor the reply address it quotes, only a neutral reason and the code', async () => {
    expect((await game.gm.call('POST', `/api/v1/games/${game.gameId}/start`, { reason: 'go' })).status).toBe(200)
    await w.t.app.mailer.deliver()

    const mail = w.t.app.services.outbox.all().find((r) => r.kind === 'hand' && r.recipient === ANN.email)!
    expect(mail).toMatchObject({ status: 'failed', game_id: game.gameId })
    const reply = JSON.parse(mail.headers_json ?? '{}')['Reply-To'] as string
    expect(reply).toBeTruthy()
    const hand = (await game.ann.call('GET', `/api/v1/games/${game.gameId}/turns/1`)).json.me.hand as string[]
    // The operator keeps the server's whole answer, which does quote the hand and the address.
    expect(mail.last_error).toContain(FILTER_SAYS)
    expect(mail.last_error).toContain(reply)
    expect(hand.some((c) => mail.last_error!.includes(cardLabel(c)))).toBe(true)

    // The GM has not locked: nothing of Ann's turn is theirs to read.
    expect((await game.gm.call('GET', `/api/v1/games/${game.gameId}/turns/1`)).json.gmLocked).toBe(false)
    const page = await undeliveredOn(w.t.app, game)
    const ann = page.rows.filter((r) => r.to === ANN.email)
    expect(ann).toHaveLength(1)
    expect(ann[0]!.why).toMatch(/mail server refused/)
    expect(ann[0]!.why).toContain('550 5.7.1')
    expect(page.body).not.toContain(FILTER_SAYS)
    expect(page.body).not.toContain(reply.split('@')[0])
    for (const card of hand) expect(page.body, cardLabel(card)).not.toContain(cardLabel(card))
  })
})
