// A GM who takes a seat of their own game by invitation (or an open seat) before the start is a
// GM who plays for the lock (membership: GM with a seat), though the game was created without
// gmPlays. The correction service once guarded "a GM who plays cannot correct their own program"
// by that setting only, so such a GM, after closing the turn and reading every program in the
// draft, could rewrite their own locked, "final" program (found by a hostile review).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { acceptInvitation, PLAYERS, setUpGame, testApp, type Client, type TestApp } from '../server/helpers.js'
import { closeTurn } from '../../src/server/services/turns.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

async function submit(c: Client, gameId: string, pick: (hand: string[]) => string[] = (h) => h.slice(0, 5)) {
  const me = (await c.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me
  const cards = pick(me.hand as string[])
  const res = await c.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards })
  expect(res.status).toBe(201)
  return { cards, hand: me.hand as string[] }
}

it("a GM seated by invitation cannot rewrite their locked program after reading the others' in the draft", async () => {
  // Game made WITHOUT gmPlays; one extra seat which the GM fills by inviting their own address.
  const set = await setUpGame(t.app, PLAYERS.slice(0, 2), { seats: 3, reviewWindowHours: 24, closeEarly: false })
  const { gameId, gm } = set
  const [ann] = set.players as [Client, Client]
  expect((await gm.call('POST', `/api/v1/games/${gameId}/invites`, { email: gm.email })).status).toBe(201)
  await acceptInvitation(t.app, { email: gm.email, name: 'Gemma', colour: 'yellow' })
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: 'go' })).status).toBe(200)

  const view = (await gm.call('GET', `/api/v1/games/${gameId}`)).json
  const gmPlayer = view.you.player as string
  expect(gmPlayer).toBeTruthy() // the GM holds a seat in a game created without gmPlays,
  expect(view.settings.gmPlays).toBe(true) // and the players are told the GM plays
  expect((await ann.call('GET', `/api/v1/games/${gameId}`)).json.settings.gmPlays).toBe(true)

  // The lock machinery treats them as a GM who plays: nothing of Ann's program before the lock.
  await submit(ann, gameId)
  const mine = await submit(gm, gameId)
  expect((await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.programs).toBeNull()

  // The turn closes (locks the GM's program); the GM reads every program in the draft.
  const turn = t.app.services.turns.current(gameId)!
  expect(closeTurn(t.app.services, turn.id)).toBe(true)
  const draft = (await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
  expect(draft.gmLocked).toBe(true)
  expect(draft.programs).not.toBeNull()
  expect(draft.result.registers[gmPlayer]).toEqual(mine.cards)

  // Now the "final" program is rewritten with other cards from the GM's own hand.
  const other = mine.hand.slice(3, 8)
  const corrected = await gm.call('POST', `/api/v1/games/${gameId}/turns/1/corrections`, { player: gmPlayer, cards: other, reason: 'better now' })
  const after = (await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result.registers[gmPlayer]
  // Expected: refused (403 "a GM who plays cannot correct their own program"), the locked program standing.
  expect({ status: corrected.status, registers: after }).toEqual({ status: 403, registers: mine.cards })
})
