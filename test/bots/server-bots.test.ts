// Bots on the server (issue 15), through the real app on a real SQLite file: bots seated at
// creation and later, a bot playing a missed program instead of R9, practice games that run as fast
// as the person submits and mail no one, and a two-game series that runs to its standings.
import { afterEach, describe, expect, it } from 'vitest'
import { greedyOrders } from '../../src/bots/greedy-bot.js'
import { seatViewOf } from '../../src/bots/seat-view.js'
import { formatCard } from '../../src/engine/deck.js'
import type { GameState } from '../../src/engine/types.js'
import { DAY, HOUR, inviteToken, PLAYERS, signIn, testApp, type Client, type TestApp } from '../server/helpers.js'

let t: TestApp
afterEach(async () => { await t?.close() })

/** The first cards of the hand for the open registers: a legal program (R8) for a robot with nothing fused. */
async function submitFirstCards(player: Client, gameId: string): Promise<number> {
  const view = (await player.call('GET', `/api/v1/games/${gameId}`)).json
  const turn = view.currentTurn
  const me = turn.me
  const open = 5 - Object.keys(me.robot.fused).length
  const needed = me.robot.rebooting || me.robot.mode === 'destroyed' || me.robot.at === null ? 0 : Math.min(open, me.hand.length)
  const res = await player.call('POST', `/api/v1/games/${gameId}/turns/${turn.number}/submission`, { cards: me.hand.slice(0, needed) })
  expect(res.status, res.text).toBe(201)
  return turn.number
}

describe('bots in seats', () => {
  it('seats bots at creation as "Bot (greedy)"; they submit when the hand is dealt, and no one sees their cards early', async () => {
    t = await testApp()
    const gm = await signIn(t.app, 'gm@example.org', 'Gemma')
    const created = await gm.call('POST', '/api/v1/games', { name: 'With bots', board: 'training-floor', seats: 3, bots: ['greedy', 'strong'] })
    expect(created.status, created.text).toBe(201)
    const gameId = created.json.id
    // The bots take the first free seats; the GM does not play here.
    expect(created.json.seats.map((s: any) => [s.name, s.bot, s.joined])).toEqual([['Bot (greedy)', 'greedy', true], ['Bot (strong)', 'strong', true], [null, null, false]])
    await gm.call('POST', `/api/v1/games/${gameId}/invites`, { email: PLAYERS[0]!.email })
    const ann = await signIn(t.app, PLAYERS[0]!.email)
    expect((await ann.call('POST', `/api/v1/invites/${inviteToken(t.app, PLAYERS[0]!.email)}/join`, { name: 'Ann', colour: 'red' })).status).toBe(200)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, {})).status).toBe(200)

    const seen = (await ann.call('GET', `/api/v1/games/${gameId}`)).json
    expect(seen.currentTurn.submitted.map((s: any) => [s.player, s.submitted])).toEqual([['P1', true], ['P2', true], ['P3', false]])
    expect(seen.currentTurn.programs).toBeNull()
    const history = (await ann.call('GET', `/api/v1/games/${gameId}/turns/1/submissions`)).json.submissions
    expect(Object.keys(history)).toEqual(['P3'])
    // No mail goes to a bot: only Ann and the GM hear of the game.
    const recipients = new Set(t.app.services.outbox.all().filter((m) => m.game_id === gameId).map((m) => m.recipient))
    expect(recipients).toContain('ann@example.org')
    expect([...recipients].every((to) => to === 'ann@example.org' || to === 'gm@example.org')).toBe(true)

    // The bots' programs are legal and what the bots choose from their own seat's view.
    const turn = t.app.services.turns.byNumber(gameId, 1)!
    const dealt = JSON.parse(turn.dealt_state_json) as GameState
    const greedyRow = t.app.services.turns.latestSubmissions(turn.id).find((s) => s.player_id === 'P1')!
    const board = t.app.services.board(t.app.services.games.byId(gameId)!)
    expect(JSON.parse(greedyRow.cards_json)).toEqual(greedyOrders(seatViewOf(board, dealt, 'P1')).cards.map(formatCard))
  })

  it('lets the GM open a seat for a bot later, which plays the open turn at once', async () => {
    t = await testApp()
    const gm = await signIn(t.app, 'gm@example.org', 'Gemma')
    const gameId = (await gm.call('POST', '/api/v1/games', { name: 'Later', board: 'training-floor', seats: 2, bots: ['random'], reviewWindowHours: 0 })).json.id
    await gm.call('POST', `/api/v1/games/${gameId}/invites`, { email: PLAYERS[0]!.email })
    const ann = await signIn(t.app, PLAYERS[0]!.email)
    await ann.call('POST', `/api/v1/invites/${inviteToken(t.app, PLAYERS[0]!.email)}/join`, { name: 'Ann', colour: 'red' })
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, {})).status).toBe(200)
    // Ann leaves; a greedy bot takes her robot over mid-turn.
    expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/2/remove`, { reason: 'gone' })).status).toBe(200)
    expect((await ann.call('POST', `/api/v1/games/${gameId}/seats/2/bot`, { bot: 'greedy' })).status).toBe(404)
    const seated = await gm.call('POST', `/api/v1/games/${gameId}/seats/2/bot`, { bot: 'greedy', reason: 'Ann left' })
    expect(seated.status, seated.text).toBe(200)
    expect(seated.json).toEqual({ seat: 2, name: 'Bot (greedy)' })
    expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/1/bot`, { bot: 'greedy' })).status).toBe(409)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/2/bot`, { bot: 'clever' })).status).toBe(400)
    const view = (await gm.call('GET', `/api/v1/games/${gameId}`)).json
    expect(view.currentTurn.submitted.every((s: any) => s.submitted)).toBe(true)
    // Every program is in: the clockwork closes the turn (close early) and publishes it.
    expect(t.app.runDueWork().closed).toBe(1)
    expect((await gm.call('GET', `/api/v1/games/${gameId}`)).json.publishedTurns).toEqual([1])
  })

  it('plays a missed program with the game\'s bot instead of R9\'s random fill, and says so in the report (A15)', async () => {
    t = await testApp()
    const gm = await signIn(t.app, 'gm@example.org', 'Gemma')
    const gameId = (await gm.call('POST', '/api/v1/games', { name: 'Missed', board: 'training-floor', seats: 2, bots: ['random'], missedProgramBot: 'greedy', reviewWindowHours: 0 })).json.id
    await gm.call('POST', `/api/v1/games/${gameId}/invites`, { email: PLAYERS[0]!.email })
    const ann = await signIn(t.app, PLAYERS[0]!.email)
    await ann.call('POST', `/api/v1/invites/${inviteToken(t.app, PLAYERS[0]!.email)}/join`, { name: 'Ann', colour: 'red' })
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, {})).status).toBe(200)
    t.clock.now += 6 * DAY
    expect(t.app.runDueWork().closed).toBe(1)
    const turn = t.app.services.turns.byNumber(gameId, 1)!
    const dealt = JSON.parse(turn.dealt_state_json) as GameState
    const board = t.app.services.board(t.app.services.games.byId(gameId)!)
    const result = (await ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result
    expect(result.registers.P2).toEqual(greedyOrders(seatViewOf(board, dealt, 'P2')).cards.map(formatCard))
    expect(result.report).toMatch(/fill|filled/i)
  })
})

describe('practice games', () => {
  it('run against bots alone as fast as the person submits, with no mail', async () => {
    t = await testApp()
    const me = await signIn(t.app, 'solo@example.org', 'Solo')
    const mailBefore = t.app.services.outbox.all().length
    const started = await me.call('POST', '/api/v1/practice', { board: 'training-floor', bots: ['greedy', 'random'] })
    expect(started.status, started.text).toBe(201)
    const gameId = started.json.id
    expect(started.json.status).toBe('running')
    expect(started.json.seats.map((s: any) => s.name)).toEqual(['Solo', 'Bot (greedy)', 'Bot (random)'])
    let turns = 0
    while ((await me.call('GET', `/api/v1/games/${gameId}`)).json.status === 'running' && turns < 60) {
      const number = await submitFirstCards(me, gameId)
      turns++
      // No clock moved and no clockwork ran: the submission itself closed and published the turn.
      const after = (await me.call('GET', `/api/v1/games/${gameId}`)).json
      expect(after.publishedTurns).toContain(number)
    }
    const end = (await me.call('GET', `/api/v1/games/${gameId}`)).json
    expect(end.status).toBe('finished')
    expect(end.winners.length).toBeGreaterThan(0)
    expect(t.app.services.outbox.all().length).toBe(mailBefore)
  })

  it('refuses an unknown board or bot, naming the field', async () => {
    t = await testApp()
    const me = await signIn(t.app, 'solo@example.org', 'Solo')
    const badBoard = await me.call('POST', '/api/v1/practice', { board: 'no-such-board', bots: ['greedy'] })
    expect(badBoard.status).toBe(400)
    expect(badBoard.json.field).toBe('board')
    const badBot = await me.call('POST', '/api/v1/practice', { board: 'training-floor', bots: ['genius'] })
    expect(badBot.status).toBe(400)
    expect(badBot.json.message).toMatch(/bots/)
  })
})

describe('series', () => {
  it('a two-game series plays by itself, one game after another, to its standings', async () => {
    t = await testApp()
    const gm = await signIn(t.app, 'gm@example.org', 'Gemma')
    const created = await gm.call('POST', '/api/v1/series', { name: 'Cup', boards: ['training-floor', 'the-foundry'], seats: ['greedy', 'random'], rounds: 1 })
    expect(created.status, created.text).toBe(201)
    const id = created.json.id
    expect(created.json.games).toHaveLength(1)
    expect(created.json.status).toBe('running')
    let ticks = 0
    while ((await gm.call('GET', `/api/v1/series/${id}`)).json.status === 'running' && ticks < 400) {
      t.clock.now += HOUR
      t.app.runDueWork()
      t.app.advanceSeries()
      // The bots plan in a worker thread: the turns just dealt are played once they are in.
      await t.app.botsPlanned()
      ticks++
    }
    const series = (await gm.call('GET', `/api/v1/series/${id}`)).json
    expect(series.status).toBe('finished')
    expect(series.games.map((g: any) => [g.position, g.board, g.status])).toEqual([[1, 'Training Floor', 'finished'], [2, 'The Foundry', 'finished']])
    // The seat order rotated: the greedy bot sat first, then second.
    expect(series.games.map((g: any) => g.placings.length)).toEqual([2, 2])
    expect(series.standings.map((s: any) => s.entrant).sort()).toEqual(['Bot (greedy)', 'Bot (random)'])
    expect(series.standings.every((s: any) => s.games === 2)).toBe(true)
    expect(series.standings[0].entrant).toBe('Bot (greedy)')
    // Another person cannot see it.
    const other = await signIn(t.app, 'eve@example.org', 'Eve')
    expect((await other.call('GET', `/api/v1/series/${id}`)).status).toBe(403)
  })
})
