// A departed player's robot played by a built-in bot (issue 12 "Seats that change", issue 15
// "Where bots play"; A20), through the JSON API on the real app: the GM's choice at creation and
// in the settings (logged with its reason), the bot taking the seat when the GM removes a player
// or a player withdraws, its programs in the published turns, and the mails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testApp, type Client, type TestApp } from '../server/helpers.js'
import { gameOf, greedyChoice, mailsOf, playTurn as publishTurn, someProgram, startedGame } from './helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

const three = (tag: string) => [
  { email: `${tag}-ann@example.org`, name: 'Ann', colour: 'red' },
  { email: `${tag}-bob@example.org`, name: 'Bob', colour: 'blue' },
  { email: `${tag}-cid@example.org`, name: 'Cid', colour: 'green' },
]

const playTurn = (gm: Client, gameId: string) => publishTurn(t.app, t.clock, gm, gameId)

describe('a departed player\'s robot played by a bot (A20)', () => {
  it('the GM removes a player: "Bot (greedy) for Bob" plays the robot from then on, with its history and colour', async () => {
    const { gm, gameId, players: [ann, bob] } = await startedGame(t.app, { goneRobot: 'bot', goneRobotBot: 'greedy' }, three('rm'))
    expect((await gameOf(gm, gameId)).gameSettings).toMatchObject({ goneRobot: 'bot', goneRobotBot: 'greedy' })
    // Bob plays turn 1 himself.
    const bobs = await someProgram(bob!, gameId, 1)
    expect((await bob!.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: bobs })).status).toBe(201)
    await playTurn(gm, gameId)
    // A player cannot remove anyone; the GM can.
    expect((await ann!.call('POST', `/api/v1/games/${gameId}/seats/2/remove`, { reason: 'x' })).status).toBe(403)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/2/remove`, { reason: 'silent for weeks' })).status).toBe(200)
    expect((await bob!.call('GET', `/api/v1/games/${gameId}`)).status).toBe(404)

    const game = await gameOf(ann!, gameId)
    expect(game.seats.find((s: any) => s.seat === 2)).toMatchObject({ name: 'Bot (greedy) for Bob', bot: 'greedy', colour: 'blue', joined: true })
    // The open turn 2 had no program from Bob: the bot played it at once (A20).
    expect(game.currentTurn.submitted.find((s: any) => s.player === 'P2').submitted).toBe(true)
    await playTurn(gm, gameId)
    await playTurn(gm, gameId)
    for (const n of [2, 3]) {
      const result = (await ann!.call('GET', `/api/v1/games/${gameId}/turns/${n}`)).json.result
      expect(result.registers.P2).toEqual(greedyChoice(t.app, gameId, n, 'P2'))
      expect(result.start.events.some((e: any) => e.kind === 'program-filled' && e.player === 'P2')).toBe(false)
      expect(result.report).toContain('Bot (greedy) for Bob')
    }
    // Bob's own turn stays his in the history.
    expect((await ann!.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result.registers.P2).toEqual(bobs)
    expect((await gameOf(ann!, gameId)).robots.find((r: any) => r.player === 'P2').robotsLeft).toBeGreaterThan(0)

    const left = mailsOf(t.app, gameId, 'seat-left')
    expect(left.map((m) => m.recipient).sort()).toEqual(['gm@example.org', 'rm-ann@example.org', 'rm-bob@example.org', 'rm-cid@example.org'])
    expect(left[0]!.body).toContain('Bob was removed from the game by the GM: silent for weeks')
    expect(left[0]!.body).toContain('played by the built-in bot Bot (greedy)')
    const history = (await gm.call('GET', `/api/v1/games/${gameId}/history`)).json.history
    expect(history.find((h: any) => h.action === 'remove')).toMatchObject({ reason: 'silent for weeks', detail: { seat: 2, player: 'Bob' } })
  })

  it('the GM changes the choice with a reason (logged); a player who withdraws is then played by the chosen bot', async () => {
    const { gm, gameId, players: [ann] } = await startedGame(t.app, {}, three('wd'))
    expect((await gameOf(gm, gameId)).gameSettings).toMatchObject({ goneRobot: 'random', goneRobotBot: null })
    expect((await gm.call('POST', `/api/v1/games/${gameId}/settings`, { goneRobot: 'bot', goneRobotBot: 'genius' })).json).toMatchObject({ error: 'bad_request', field: 'goneRobotBot' })
    expect((await gm.call('POST', `/api/v1/games/${gameId}/settings`, { goneRobot: 'robot' })).json).toMatchObject({ error: 'bad_request', field: 'goneRobot' })
    expect((await ann!.call('POST', `/api/v1/games/${gameId}/settings`, { goneRobot: 'bot', reason: 'me' })).status).toBe(403)
    const changed = await gm.call('POST', `/api/v1/games/${gameId}/settings`, { goneRobot: 'bot', goneRobotBot: 'strong', reason: 'nobody likes random robots' })
    expect(changed.json).toMatchObject({ goneRobot: 'bot', goneRobotBot: 'strong' })
    const history = (await gm.call('GET', `/api/v1/games/${gameId}/history`)).json.history
    expect(history.at(-1)).toMatchObject({ action: 'settings', reason: 'nobody likes random robots', detail: { goneRobot: 'bot', goneRobotBot: 'strong' } })

    expect((await ann!.call('POST', `/api/v1/games/${gameId}/withdraw`, { reason: 'exams' })).status).toBe(200)
    const game = await gameOf(gm, gameId)
    expect(game.seats.find((s: any) => s.seat === 1)).toMatchObject({ name: 'Bot (strong) for Ann', bot: 'strong', colour: 'red' })
    const told = mailsOf(t.app, gameId, 'seat-left')
    expect(told.filter((m) => m.body.includes('Ann withdrew from the game: exams')).length).toBe(told.length - 1)
    // Ann herself is told in the second person.
    expect(told.filter((m) => m.body.startsWith('You withdrew from the game "Test game": exams.\nYour robot is played by the built-in bot'))).toHaveLength(1)
    await playTurn(gm, gameId)
    const result = (await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result
    expect(result.registers.P1.length).toBeGreaterThan(0)
    expect(result.start.events.some((e: any) => e.kind === 'program-filled' && e.player === 'P1')).toBe(false)
    // The strong bot's program is in at once for turn 2 too, dealt after she left.
    expect((await gameOf(gm, gameId)).currentTurn.submitted.find((s: any) => s.player === 'P1').submitted).toBe(true)
  })

  it('a replaced player\'s robot goes to the newcomer, not to the bot; before the start a seat only empties', async () => {
    const { gm, gameId } = await startedGame(t.app, { goneRobot: 'bot' }, three('rp'))
    expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/3/replace`, { email: 'rp-dee@example.org', reason: 'Dee takes over' })).status).toBe(200)
    const seat = (await gameOf(gm, gameId)).seats.find((s: any) => s.seat === 3)
    expect(seat.bot ?? null).toBeNull()
    expect(seat.joined).toBe(false)
    expect(mailsOf(t.app, gameId, 'seat-left')).toHaveLength(0)
  })
})
