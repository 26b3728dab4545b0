// The GM's check inside every GM service, not only in front of it. The API checks the GM before a
// route reads its body (routes/api/gm.ts `gmOnly`) and the console before its forms (pages/gm.ts),
// so a service that lost its own requireGm would still be refused there, and the route tests in
// access.test.ts would not notice. Yet a service is what the next route, page or mail command calls:
// each one must refuse a player on its own, with 403, before it reads or writes anything, whatever
// the arguments and whatever the game's state. (A sweep that dropped each requireGm in turn found eight
// services whose drop no test noticed: docs/security.md.)
import { afterAll, beforeAll, expect, it } from 'vitest'
import { closeNow } from '../../src/server/pages/services.js'
import { openSeatForBot, seatBotByGm } from '../../src/server/services/bots.js'
import type { Membership, ServiceContext } from '../../src/server/services/context.js'
import { correctProgram } from '../../src/server/services/corrections.js'
import { abandonGame, extendDeadline, invite, pauseGame, removePlayer, resumeGame, startGame } from '../../src/server/services/games.js'
import { lockGmProgram } from '../../src/server/services/lock.js'
import { membership } from '../../src/server/services/membership.js'
import { hideMessage } from '../../src/server/services/messages.js'
import { setPathPreview } from '../../src/server/services/path-preview.js'
import { rollBack } from '../../src/server/services/rollback.js'
import { changeSettings, openSeat } from '../../src/server/services/seats.js'
import { endWithPlacings } from '../../src/server/services/standings.js'
import { publishByGm, reopenSubmission, reresolve } from '../../src/server/services/turns.js'
import { HOUR, PLAYERS, setUpGame, testApp, type TestApp } from '../server/helpers.js'
import { gameRows, refusalOf } from './setup.js'

let t: TestApp
let ctx: ServiceContext
let gameId: string

beforeAll(async () => {
  t = await testApp()
  ctx = t.app.services
  ;({ gameId } = await setUpGame(t.app, PLAYERS.slice(0, 2), { reviewWindowHours: 24 }))
  const gm = membership(ctx, gameId, { user: ctx.users.byEmail('gm@example.org')! })
  startGame(ctx, gm, 'go')
  // A message the GM could hide, so that hideMessage would find one if it did not check first.
  const seat = ctx.games.seats(gameId)[0]!
  ctx.db.prepare("INSERT INTO messages (game_id, from_user_id, to_user_id, body, at) VALUES (?, ?, NULL, 'hello', ?)").run(gameId, seat.user_id, t.clock.now)
})
afterAll(async () => { await t.close() })

const gameRowsNow = () => gameRows(t.app, gameId)

/** Each GM service, called with arguments it would accept from the GM. */
const GM_SERVICES: [string, (m: Membership) => unknown][] = [
  ['invite', (m) => invite(ctx, m, 'newcomer@example.org', undefined)],
  ['startGame', (m) => startGame(ctx, m, 'r')],
  ['removePlayer', (m) => removePlayer(ctx, m, 2, 'r')],
  ['pauseGame', (m) => pauseGame(ctx, m, 'r')],
  ['resumeGame', (m) => resumeGame(ctx, m, 'r')],
  ['abandonGame', (m) => abandonGame(ctx, m, 'r')],
  ['extendDeadline', (m) => extendDeadline(ctx, m, t.clock.now + 72 * HOUR, 'r')],
  ['openSeat', (m) => openSeat(ctx, m, 'newcomer@example.org', 'r')],
  ['changeSettings', (m) => changeSettings(ctx, m, { tableTalk: true, reason: 'r' })],
  ['setPathPreview', (m) => setPathPreview(ctx, m, false, 'r')],
  ['correctProgram', (m) => correctProgram(ctx, m, 1, { player: 'P2', cards: [], rebootNext: false, reason: 'r' })],
  ['reopenSubmission', (m) => reopenSubmission(ctx, m, 1, 'P2', 'r')],
  ['reresolve', (m) => reresolve(ctx, m, 1, 'r')],
  ['publishByGm', (m) => publishByGm(ctx, m, 1, 'r')],
  ['rollBack', (m) => rollBack(ctx, m, 1, 'r')],
  ['closeNow', (m) => closeNow(ctx, m, 'r')],
  ['endWithPlacings', (m) => endWithPlacings(ctx, m, 'r')],
  ['lockGmProgram', (m) => lockGmProgram(ctx, m, 1, true, 'r')],
  ['hideMessage', (m) => hideMessage(ctx, m, ctx.db.prepare<[string], number>('SELECT id FROM messages WHERE game_id = ?').pluck().get(gameId)!, 'r')],
  ['seatBotByGm', (m) => seatBotByGm(ctx, m, 2, 'greedy', 'r')],
  ['openSeatForBot', (m) => openSeatForBot(ctx, m, 'greedy', 'r')],
]

it('refuses every GM service to a player of the game with 403, and nothing changes', () => {
  const player = membership(ctx, gameId, { user: ctx.users.byEmail(PLAYERS[0]!.email)! })
  expect([player.isGm, player.seat?.player_id]).toEqual([false, 'P1'])
  const before = gameRowsNow()
  for (const [name, call] of GM_SERVICES) {
    expect([name, ...refusalOf(() => call(player))]).toEqual([name, 403, 'only the GM of this game can do that'])
  }
  expect(gameRowsNow()).toBe(before)
})
