// A bot seated for a robot whose player left, in a game whose gone robots leave the board
// (seats.robot_leaves): the bot plays that robot from then on, so it must not be taken off the
// board at the next publication (afterPublished, standings.ts) nor its player recorded out.
// Found by a hostile review: seating the bot did not clear the flag.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { testApp, type TestApp } from '../server/helpers.js'
import { gameOf, playTurn, startedGame } from './helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

it('a bot seated for a robot whose player left keeps playing that robot', async () => {
  const { gm, gameId, players: [ann, bob] } = await startedGame(t.app, { goneRobot: 'leave' }, [
    { email: 'bl-ann@example.org', name: 'Ann', colour: 'red' }, { email: 'bl-bob@example.org', name: 'Bob', colour: 'blue' },
    { email: 'bl-cid@example.org', name: 'Cid', colour: 'green' },
  ])
  expect((await bob!.call('POST', `/api/v1/games/${gameId}/withdraw`, { reason: 'moving house' })).status).toBe(200)
  const seated = await gm.call('POST', `/api/v1/games/${gameId}/seats/2/bot`, { bot: 'greedy', reason: 'a bot takes over Bob\'s robot' })
  expect(seated.status).toBe(200)
  // The bot played the open turn for the robot (bot-seats.ts playOpenTurn).
  expect((await gameOf(gm, gameId)).currentTurn.submitted.find((s: any) => s.player === 'P2').submitted).toBe(true)
  await playTurn(t.app, t.clock, gm, gameId)
  const game = await gameOf(ann!, gameId)
  const robot = game.robots.find((r: any) => r.player === 'P2')
  expect(robot.robotsLeft).toBeGreaterThan(0)
  expect(robot.mode).not.toBe('destroyed')
  const standings = (await ann!.call('GET', `/api/v1/games/${gameId}/standings`)).json
  expect(standings.placings.find((p: any) => p.player === 'P2').out).toBe(false)
})
