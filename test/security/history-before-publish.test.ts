// Spectators are not told whose programs are in, nor whose was reopened (docs/security.md: their
// live event ids leave the count and the reopened player out). The GM's action log, on the public
// JSON, the watch page and the players' history, recorded it all before publication: the playing
// GM's lock (= the GM's program is in, with its time), which player's program the GM reopened in the
// draft and whose the GM corrected, each with the GM's free-text reason naming the player.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PLAYERS, testApp, type Client, type TestApp } from '../server/helpers.js'
import { closeTurn, someProgram, startedGame } from '../gm/helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

const PROGRAM_ACTIONS = ['lock', 'reopen', 'correct', 'resolve']
const REOPEN_REASON = 'Ann says she swapped registers 2 and 3'
const CORRECT_REASON = 'Bob mailed his program on paper'
const programActions = (history: { action: string }[]) => history.filter((a) => PROGRAM_ACTIONS.includes(a.action))

it('tells spectators and the other players nothing of the programs of a turn not yet published', async () => {
  const g = await startedGame(t.app, { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow' }, PLAYERS.slice(0, 2))
  const { gm, gameId } = g
  const [ann, bob] = g.players as [Client, Client] // P2 and P3; the GM plays P1
  const token = (await gm.call('GET', `/api/v1/games/${gameId}`)).json.publicToken as string
  const spectator = async () => (await t.app.inject({ method: 'GET', url: `/api/v1/public/${token}` })).json()
  const watchPage = async () => (await t.app.inject({ method: 'GET', url: `/watch/${token}` })).body
  const historyOf = async (c: Client) => (await c.call('GET', `/api/v1/games/${gameId}/history`)).json.history
  const before = await spectator()

  // The GM (who plays) sends a program and locks it: nothing a spectator may know has changed.
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await someProgram(gm, gameId, 1) })).status).toBe(201)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/lock`, { confirm: true, reason: 'mine is in' })).status).toBe(200)
  const afterLock = await spectator()
  const annAfterLock = await historyOf(ann)

  // The turn closes; in review the GM reopens Ann's program and corrects Bob's: still nothing published.
  expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await someProgram(ann, gameId, 1) })).status).toBe(201)
  await closeTurn(t.app, t.clock, gm, gameId)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/reopen`, { player: 'P2', reason: REOPEN_REASON })).status).toBe(200)
  const bobCards = (await someProgram(bob, gameId, 1, true))
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/corrections`, { player: 'P3', cards: bobCards, reason: CORRECT_REASON })).status).toBe(201)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/resolve`, { reason: 'with Bob\'s program' })).status).toBe(200)
  const inReview = await spectator()
  expect(inReview.publishedTurns).toEqual([])
  expect(inReview.currentTurn.status).toBe('draft')

  expect({ afterLock: programActions(afterLock.history), inReview: programActions(inReview.history) }).toEqual({ afterLock: [], inReview: [] })
  expect(programActions(before.history)).toEqual([])
  for (const reason of [REOPEN_REASON, CORRECT_REASON, 'mine is in']) {
    expect(JSON.stringify(inReview)).not.toContain(reason)
    expect(await watchPage()).not.toContain(reason)
  }

  // A player sees the GM's actions on their own program (they are mailed them), never another's.
  expect(programActions(annAfterLock)).toEqual([])
  expect(programActions(await historyOf(ann))).toEqual([expect.objectContaining({ action: 'reopen', reason: REOPEN_REASON, detail: { turn: 1, player: 'P2' } })])
  expect(programActions(await historyOf(bob))).toEqual([expect.objectContaining({ action: 'correct', reason: CORRECT_REASON, detail: { turn: 1, player: 'P3' } })])
  // The GM sees every one.
  expect(programActions(await historyOf(gm)).map((a: { action: string }) => a.action)).toEqual(['lock', 'reopen', 'correct', 'resolve'])

  // Once the turn is published, everyone may read the whole log of it.
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'ok' })).status).toBe(200)
  for (const history of [(await spectator()).history, await historyOf(ann), await historyOf(bob)]) {
    expect(programActions(history)).toEqual(programActions(await historyOf(gm)))
  }
})
