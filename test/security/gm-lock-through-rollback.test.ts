// A GM who plays locks turn 2, which shows them every other program of turn 2. Rolling back turn 1
// deletes turn 2 with its programs and its lock, and publishing turn 1 again deals turn 2 again with
// the very same hands (rollback.ts). A new, unlocked turn 2 would let the GM program those hands
// again with the others' programs in view (found by a hostile review). The lock is kept through the
// rollback, with the program locked (services/gm-kept-lock.ts).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PLAYERS, testApp, type Client, type TestApp } from '../server/helpers.js'
import { closeTurn, playTurn, someProgram, startedGame } from '../gm/helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

async function gameWithTurnTwo(emailTag: string) {
  const players = PLAYERS.slice(0, 2).map((p) => ({ ...p, email: `${emailTag}-${p.email}` }))
  const g = await startedGame(t.app, { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow' }, players)
  const { gm, gameId } = g
  const [ann] = g.players as [Client, Client]
  const turn = async (c: Client, n: number) => (await c.call('GET', `/api/v1/games/${gameId}/turns/${n}`)).json
  const send = async (c: Client, n: number, cards?: string[]) =>
    (await c.call('POST', `/api/v1/games/${gameId}/turns/${n}/submission`, { cards: cards ?? await someProgram(c, gameId, n) })).status
  expect(await send(ann, 1)).toBe(201)
  expect(await send(gm, 1)).toBe(201)
  await playTurn(t.app, t.clock, gm, gameId) // turn 1 published, turn 2 dealt
  expect(await send(ann, 2)).toBe(201)
  const gmHand = (await turn(gm, 2)).me.hand as string[]
  const gmProgram = await someProgram(gm, gameId, 2)
  expect(await send(gm, 2, gmProgram)).toBe(201)
  const rollBackAndRepublish = async () => {
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/rollback`, { reason: 'a rules fix' })).status).toBe(200)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'same again' })).status).toBe(200)
  }
  return { gm, ann, gameId, turn, send, gmHand, gmProgram, rollBackAndRepublish }
}

it("a playing GM who has seen turn 2's programs cannot get turn 2 unlocked, with the same hands, by rolling back turn 1", async () => {
  const g = await gameWithTurnTwo('lock')
  expect((await g.gm.call('POST', `/api/v1/games/${g.gameId}/turns/2/lock`, { confirm: true, reason: '' })).status).toBe(200)
  expect((await g.turn(g.gm, 2)).programs.P2.cards).toEqual(await someProgram(g.ann, g.gameId, 2)) // Ann's program, in the GM's view

  await g.rollBackAndRepublish()
  const again = await g.turn(g.gm, 2)
  expect(again.me.hand).toEqual(g.gmHand) // the same hand as when the GM locked
  expect(again.gmLocked).toBe(true)
  expect(again.me.submission.cards).toEqual(g.gmProgram) // the program locked, kept
  expect(await g.send(g.gm, 2, g.gmHand.slice(2, 7))).toBe(409)
  expect((await g.turn(g.gm, 2)).me.submission.cards).toEqual(g.gmProgram)
})

it('a GM who saw turn 2 in review (closed, so locked) stays locked when it is dealt again', async () => {
  const g = await gameWithTurnTwo('draft')
  await closeTurn(t.app, t.clock, g.gm, g.gameId) // turn 2 in review: the GM sees every program and the result
  expect((await g.turn(g.gm, 2)).programs).not.toBeNull()
  await g.rollBackAndRepublish()
  const again = await g.turn(g.gm, 2)
  expect(again.status).toBe('open')
  expect(again.gmLocked).toBe(true)
  expect(again.me.submission.cards).toEqual(g.gmProgram)
  expect(await g.send(g.gm, 2, g.gmHand.slice(2, 7))).toBe(409)
})

it('a GM who had not locked turn 2 may still program it after the rollback, and sees nobody else\'s program', async () => {
  const g = await gameWithTurnTwo('open')
  await g.rollBackAndRepublish()
  const again = await g.turn(g.gm, 2)
  expect(again.gmLocked).toBe(false)
  expect(again.programs).toBeNull()
  expect(await g.send(g.gm, 2, g.gmHand.slice(2, 7))).toBe(201)
})
