// Games that end (turn limit, the GM, stalemate help, R34 with placings) and seats that change
// (open a seat mid-game, withdraw, remove; the robot leaves or plays on), through the JSON API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inviteToken, signIn, testApp, type Client, type TestApp } from '../server/helpers.js'
import { gameOf, mailsOf, playTurn as publishTurn, someProgram, startedGame } from './helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

const two = (tag: string) => [
  { email: `${tag}-ann@example.org`, name: 'Ann', colour: 'red' },
  { email: `${tag}-bob@example.org`, name: 'Bob', colour: 'blue' },
]

const playTurn = (gm: Client, gameId: string) => publishTurn(t.app, t.clock, gm, gameId)

describe('games that end', () => {
  it('ends at the turn limit with placings, a standings view and a final mail to everyone', async () => {
    const { gm, gameId, players: [ann] } = await startedGame(t.app, { turnLimit: 2 }, two('limit'))
    expect((await gameOf(gm, gameId)).gameSettings).toEqual({ turnLimit: 2, stalemateTurns: null, tableTalk: false, goneRobot: 'random', goneRobotBot: null, pathPreview: true })
    expect((await ann!.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await someProgram(ann!, gameId, 1) })).status).toBe(201)
    await playTurn(gm, gameId)
    expect((await gameOf(gm, gameId)).status).toBe('running')
    await playTurn(gm, gameId)
    const game = await gameOf(ann!, gameId)
    expect(game).toMatchObject({ status: 'finished', endReason: 'turn-limit', winners: [] })
    expect(game.currentTurn.number).toBe(2) // no turn 3 dealt
    const standings = (await ann!.call('GET', `/api/v1/games/${gameId}/standings`)).json
    expect(standings).toMatchObject({ final: true, endReason: 'turn-limit', turnsPlayed: 2 })
    expect(standings.placings.map((p: any) => p.name).sort()).toEqual(['Ann', 'Bob'])
    for (const p of standings.placings) expect(p).toMatchObject({ flags: expect.any(Number), robotsLeft: expect.any(Number), hp: expect.any(Number) })
    const final = mailsOf(t.app, gameId, 'game-over')
    expect(final.map((m) => m.recipient).sort()).toEqual(['gm@example.org', 'limit-ann@example.org', 'limit-bob@example.org'])
    expect(final[0]!.body).toContain('reached its turn limit')
    expect(final[0]!.body).toMatch(/Final standings:\n\nPlace {2}Player +Flags {2}Robots {2}HP\n {4}1 {2}/)
    expect(final[0]!.body).toContain(`/games/${gameId}/standings`)
  })

  it('the GM changes the turn limit only with a reason and never behind the turn being played', async () => {
    const { gm, gameId, players: [ann] } = await startedGame(t.app, {}, two('change'))
    await playTurn(gm, gameId)
    expect((await ann!.call('POST', `/api/v1/games/${gameId}/settings`, { turnLimit: 5, reason: 'me' })).status).toBe(403)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/settings`, { turnLimit: 5 })).json).toMatchObject({ error: 'bad_request', field: 'reason' })
    expect((await gm.call('POST', `/api/v1/games/${gameId}/settings`, { turnLimit: 1, reason: 'now' })).json).toMatchObject({ error: 'bad_request', field: 'turnLimit' })
    expect((await gm.call('POST', `/api/v1/games/${gameId}/settings`, { turnLimit: 'x', reason: 'now' })).json).toMatchObject({ error: 'bad_request', field: 'turnLimit' })
    expect((await gameOf(gm, gameId)).gameSettings.turnLimit).toBeNull()
    expect((await gm.call('POST', `/api/v1/games/${gameId}/settings`, { turnLimit: 3, reason: 'the club closes' })).json).toMatchObject({ turnLimit: 3 })
    const history = (await ann!.call('GET', `/api/v1/games/${gameId}/history`)).json.history
    expect(history.at(-1)).toMatchObject({ action: 'settings', reason: 'the club closes', detail: { turnLimit: 3 } })
  })

  it('the GM ends the game with placings; players cannot; a stale tab is refused', async () => {
    const { gm, gameId, players: [ann] } = await startedGame(t.app, {}, two('end'))
    await playTurn(gm, gameId)
    expect((await ann!.call('POST', `/api/v1/games/${gameId}/end`, { reason: 'I am ahead' })).status).toBe(403)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/end`, { reason: 'x', expectedTurn: '1.1' })).json.message).toMatch(/turn changed meanwhile/)
    const version = (await gameOf(gm, gameId)).currentTurnVersion
    expect((await gm.call('POST', `/api/v1/games/${gameId}/end`, { reason: 'summer holidays', expectedTurn: version })).status).toBe(200)
    expect(await gameOf(ann!, gameId)).toMatchObject({ status: 'finished', endReason: 'gm' })
    expect((await ann!.call('GET', `/api/v1/games/${gameId}/standings`)).json.turnsPlayed).toBe(1)
    expect(mailsOf(t.app, gameId, 'game-over')[0]!.body).toContain('The GM ended the game with placings')
    expect((await gm.call('POST', `/api/v1/games/${gameId}/end`, { reason: 'again' })).status).toBe(409)
    // The clockwork leaves a finished game alone.
    t.clock.now += 10 * 24 * 3600_000
    t.app.runDueWork()
    expect((await gameOf(gm, gameId)).currentTurn.number).toBe(2)
  })

  it('stalemate help: the GM is mailed once when no flag was touched for the chosen number of turns', async () => {
    const { gm, gameId } = await startedGame(t.app, { stalemateTurns: 2 }, two('stale'))
    await playTurn(gm, gameId)
    expect(mailsOf(t.app, gameId, 'stalemate')).toHaveLength(0)
    await playTurn(gm, gameId)
    const offered = mailsOf(t.app, gameId, 'stalemate')
    expect(offered.map((m) => m.recipient)).toEqual(['gm@example.org'])
    expect(offered[0]!.body).toContain('Nobody has touched a flag in the last 2 turns')
    expect(offered[0]!.body).toContain('Placings if it ended now')
    await playTurn(gm, gameId)
    expect(mailsOf(t.app, gameId, 'stalemate')).toHaveLength(1) // not again the next turn
    await playTurn(gm, gameId)
    expect(mailsOf(t.app, gameId, 'stalemate')).toHaveLength(2) // two more turns without a flag
  })
})

describe('seats that change', () => {
  it('a newcomer joins a running game: the robot enters at the next turn as at the start, with a hand at the next deal', async () => {
    const { gm, gameId, players: [ann] } = await startedGame(t.app, {}, two('seat'))
    expect((await ann!.call('POST', `/api/v1/games/${gameId}/seats`, { email: 'new@example.org' })).status).toBe(403)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/seats`, { email: 'not an address' })).json).toMatchObject({ field: 'email' })
    const opened = await gm.call('POST', `/api/v1/games/${gameId}/seats`, { email: 'seat-cid@example.org', reason: 'Cid wants in' })
    expect(opened.status).toBe(201)
    expect(opened.json).toEqual({ seat: 3, player: 'P3' })
    const cid = await signIn(t.app, 'seat-cid@example.org')
    expect((await cid.call('POST', `/api/v1/invites/${inviteToken(t.app, 'seat-cid@example.org')}/join`, { name: 'Cid', colour: 'green' })).status).toBe(200)
    // Turn 1 is already dealt without Cid; Cid's robot enters after it.
    expect((await gameOf(cid, gameId)).currentTurn.me).toBeNull()
    await playTurn(gm, gameId)
    const game = await gameOf(cid, gameId)
    expect(game.robots.find((r: any) => r.player === 'P3')).toMatchObject({ at: { row: 1, col: 4 }, mode: 'virtual', hp: 10, robotsLeft: 3, flags: 0, placedAfterTurn: 1 })
    expect(game.currentTurn.me.hand.length).toBe(9)
    const hand = mailsOf(t.app, gameId, 'hand').filter((m) => m.recipient === 'seat-cid@example.org')
    expect(hand).toHaveLength(1)
    expect(hand[0]!.subject).toContain('Turn 2')
    expect((await gm.call('GET', `/api/v1/games/${gameId}/history`)).json.history.map((h: any) => h.action)).toContain('open-seat')
  })

  it('a player withdraws; with "leave" the robot leaves the board at the next deal and ranks last', async () => {
    const { gm, gameId, players: [ann, bob] } = await startedGame(t.app, { goneRobot: 'leave' }, [
      ...two('leave'), { email: 'leave-cid@example.org', name: 'Cid', colour: 'green' },
    ])
    const outsider = await signIn(t.app, 'outsider@example.org')
    expect((await outsider.call('POST', `/api/v1/games/${gameId}/withdraw`, { reason: 'x' })).status).toBe(404)
    expect((await bob!.call('POST', `/api/v1/games/${gameId}/withdraw`, { reason: 'moving house' })).status).toBe(200)
    expect((await bob!.call('GET', `/api/v1/games/${gameId}`)).status).toBe(404) // no longer in it
    const left = mailsOf(t.app, gameId, 'seat-left')
    expect(left.map((m) => m.recipient).sort()).toEqual(['gm@example.org', 'leave-ann@example.org', 'leave-bob@example.org', 'leave-cid@example.org'])
    expect(left[0]!.body).toContain('Bob withdrew from the game: moving house')
    expect(left[0]!.body).toContain('leaves the board at the next deal')
    await playTurn(gm, gameId)
    const game = await gameOf(ann!, gameId)
    expect(game.robots.find((r: any) => r.player === 'P2')).toMatchObject({ at: null, mode: 'destroyed', robotsLeft: 0 })
    const standings = (await ann!.call('GET', `/api/v1/games/${gameId}/standings`)).json
    expect(standings.placings.at(-1)).toMatchObject({ player: 'P2', out: true, outAfterTurn: 1, place: 3 })
    // The GM removes Cid: one player left, the game ends with placings.
    expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/3/remove`, { reason: 'no answer for weeks' })).status).toBe(200)
    await playTurn(gm, gameId)
    expect(await gameOf(ann!, gameId)).toMatchObject({ status: 'finished', endReason: 'last-player' })
    const final = (await ann!.call('GET', `/api/v1/games/${gameId}/standings`)).json.placings
    expect(final.map((p: any) => [p.place, p.player])).toEqual([[1, 'P1'], [2, 'P3'], [3, 'P2']])
  })

  it('with "random" a removed player\'s robot plays on (R9) and a replacement keeps robot and history', async () => {
    const { gm, gameId } = await startedGame(t.app, {}, two('random'))
    expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/2/remove`, { reason: 'gone quiet' })).status).toBe(200)
    await playTurn(gm, gameId)
    const game = await gameOf(gm, gameId)
    expect(game.robots.find((r: any) => r.player === 'P2')).toMatchObject({ robotsLeft: 3 })
    const turn1 = (await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
    expect(turn1.result.start.events.some((e: any) => e.kind === 'program-filled' && e.player === 'P2')).toBe(true)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/invites`, { email: 'random-dee@example.org', seat: 2 })).status).toBe(201)
    const dee = await signIn(t.app, 'random-dee@example.org')
    expect((await dee.call('POST', `/api/v1/invites/${inviteToken(t.app, 'random-dee@example.org')}/join`, { name: 'Dee', colour: 'teal' })).status).toBe(200)
    const seen = await gameOf(dee, gameId)
    expect(seen.you.player).toBe('P2')
    expect(seen.currentTurn.me.robot.player).toBe('P2')
    expect((await dee.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result.registers.P2).toEqual(turn1.result.registers.P2)
  })
})
