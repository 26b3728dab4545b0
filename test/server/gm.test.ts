// The GM's side: creating games (boards of boards/ or uploaded), seats, start, deadlines,
// pause/resume, removing and replacing players (the robot passes on), abandoning; and the
// standing choices and reboot a submission carries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DAY, HOUR, inviteToken, PLAYERS, setUpGame, signIn, testApp, type Client, type TestApp } from './helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

const tiny = { name: 'Tiny', rows: 4, cols: 4, start: { at: 'r1c1', facing: 'N' }, elements: [{ type: 'flag', at: 'r4c4', number: 1 }] }

/** Runs the clockwork; returns the status of the game's current turn (other games share the database). */
async function tick(c: Client, gameId: string) {
  t.app.runDueWork()
  const game = (await c.call('GET', `/api/v1/games/${gameId}`)).json
  return { number: game.currentTurn?.number, status: game.currentTurn?.status }
}

async function handOf(c: Client, gameId: string, turn: number) {
  return (await c.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json.me
}

describe('creating a game', () => {
  it('takes a board of boards/ or a validated upload, with the documented defaults', async () => {
    const gm = await signIn(t.app, 'maker@example.org')
    const boards = (await gm.call('GET', '/api/v1/boards')).json.boards.map((b: any) => b.id)
    expect(boards).toContain('training-floor')
    const made = await gm.call('POST', '/api/v1/games', { name: 'Up', boardFile: tiny, seats: 2 })
    expect(made.status).toBe(201)
    expect(made.json.settings).toEqual({ seats: 2, turnLengthHours: 120, reviewWindowHours: 48, closeEarly: true, gmPlays: false, pathPreview: true, reminderHours: 12, replyFromAnyAddress: false })
    expect(made.json.board.name).toBe('Tiny')
    const bad = await gm.call('POST', '/api/v1/games', { name: 'Bad', boardFile: { ...tiny, elements: [{ type: 'flag', at: 'r9c9', number: 1 }] }, seats: 2 })
    expect(bad.status).toBe(400)
    expect(bad.json.field).toBe('boardFile')
    expect(bad.json.message).toMatch(/elements\[0\]/)
    // R34: a game is won on the last flag, so a board without flags cannot host one.
    const flagless = await gm.call('POST', '/api/v1/games', { name: 'Flagless', boardFile: { ...tiny, elements: [] }, seats: 2 })
    expect(flagless.status).toBe(400)
    expect(flagless.json).toMatchObject({ field: 'boardFile', message: expect.stringMatching(/at least one flag/) })
    expect((await gm.call('POST', '/api/v1/games', { name: 'No', board: 'no-such-board', seats: 2 })).json).toMatchObject({ field: 'board' })
    expect((await gm.call('POST', '/api/v1/games', { name: 'Many', board: 'training-floor', seats: 9 })).json).toMatchObject({ error: 'bad_request', field: 'seats' })
    expect((await gm.call('POST', '/api/v1/games', { name: 'GM', board: 'training-floor', seats: 2, gmPlays: true })).json).toMatchObject({ field: 'gmColour' })
  })

  it('refuses a teleporter colour of two words in an upload, yet keeps playing a game stored with one before that rule', async () => {
    const gm = await signIn(t.app, 'colours@example.org')
    const withColour = (colour: string) => ({ ...tiny, elements: [...tiny.elements, { type: 'teleporter', at: 'r2c2', colour, active: true }] })
    const refused = await gm.call('POST', '/api/v1/games', { name: 'Two words', boardFile: withColour('dark red'), seats: 2 })
    expect(refused.status).toBe(400)
    expect(refused.json).toMatchObject({ field: 'boardFile', message: expect.stringMatching(/elements\[1\]\.colour: a teleporter colour is one word/) })
    // A game made before 2026-11-26, when the upload took two words: its stored board still loads.
    const made = (await gm.call('POST', '/api/v1/games', { name: 'Older', boardFile: withColour('red'), seats: 2 })).json
    t.app.db.prepare('UPDATE games SET board_json = ? WHERE id = ?').run(JSON.stringify(withColour('dark red')), made.id)
    const game = await gm.call('GET', `/api/v1/games/${made.id}`)
    expect(game.status).toBe(200)
    expect(JSON.stringify(game.json.board)).toContain('dark red')
    expect((await gm.call('GET', `/games/${made.id}`)).status).toBe(200)
  })

  it('start needs two players; colours and seats are not shared', async () => {
    const gm = await signIn(t.app, 'gm2@example.org')
    const game = (await gm.call('POST', '/api/v1/games', { name: 'Seats', board: 'training-floor', seats: 2 })).json
    expect((await gm.call('POST', `/api/v1/games/${game.id}/start`)).status).toBe(409)
    await gm.call('POST', `/api/v1/games/${game.id}/invites`, { email: 'p1@example.org' })
    await gm.call('POST', `/api/v1/games/${game.id}/invites`, { email: 'p2@example.org' })
    const p1 = await signIn(t.app, 'p1@example.org')
    const p2 = await signIn(t.app, 'p2@example.org')
    const token1 = inviteToken(t.app, 'p1@example.org')
    expect((await p1.call('GET', `/api/v1/invites/${token1}`)).json).toMatchObject({ seat: 1, game: { name: 'Seats' } })
    expect((await p1.call('POST', `/api/v1/invites/${token1}/join`, { name: 'One', colour: 'Red' })).status).toBe(200)
    const token2 = inviteToken(t.app, 'p2@example.org')
    expect((await p2.call('POST', `/api/v1/invites/${token2}/join`, { name: 'Two', colour: 'red' })).json).toMatchObject({ error: 'conflict', field: 'colour' })
    expect((await p1.call('POST', `/api/v1/invites/${token2}/join`, { name: 'Again', colour: 'blue' })).status).toBe(409)
    expect((await p2.call('POST', `/api/v1/invites/${token2}/join`, { name: 'Two', colour: 'blue' })).status).toBe(200)
    expect((await p2.call('POST', `/api/v1/invites/${token1}/join`, { name: 'Two', colour: 'green' })).status).toBe(404)
    expect((await gm.call('POST', `/api/v1/games/${game.id}/start`)).status).toBe(200)
  })

  it('starts with the players who joined: empty seats and their invitations are closed', async () => {
    const gm = await signIn(t.app, 'gm3@example.org')
    const game = (await gm.call('POST', '/api/v1/games', { name: 'Three seats', board: 'training-floor', seats: 4 })).json
    for (const email of ['q1@example.org', 'q2@example.org', 'late@example.org']) await gm.call('POST', `/api/v1/games/${game.id}/invites`, { email })
    const q1 = await signIn(t.app, 'q1@example.org')
    expect((await q1.call('POST', `/api/v1/invites/${inviteToken(t.app, 'q1@example.org')}/join`, { name: 'Q one', colour: 'red' })).status).toBe(200)
    const refused = await gm.call('POST', `/api/v1/games/${game.id}/start`)
    expect(refused.status).toBe(409)
    expect(refused.json.message).toMatch(/at least 2 players must have joined to start \(1 so far\)/)
    const q2 = await signIn(t.app, 'q2@example.org')
    expect((await q2.call('POST', `/api/v1/invites/${inviteToken(t.app, 'q2@example.org')}/join`, { name: 'Q two', colour: 'blue' })).status).toBe(200)
    const page = await t.app.inject({ method: 'GET', url: `/games/${game.id}`, headers: { cookie: gm.headers.cookie! } })
    expect(page.body).toContain('Start with the 2 players who joined')
    expect(page.body).toContain('2 seats are still empty: starting now closes them')

    expect((await gm.call('POST', `/api/v1/games/${game.id}/start`, { reason: 'late one missed it' })).status).toBe(200)
    const started = (await q1.call('GET', `/api/v1/games/${game.id}`)).json
    expect(started.robots.map((r: { player: string }) => r.player)).toEqual(['P1', 'P2'])
    expect(started.seats).toHaveLength(2)
    expect(started.currentTurn.me.hand).toHaveLength(9)
    const late = await signIn(t.app, 'late@example.org')
    expect((await late.call('POST', `/api/v1/invites/${inviteToken(t.app, 'late@example.org')}/join`, { name: 'Late', colour: 'green' })).status).toBe(404)
    const log = (await gm.call('GET', `/api/v1/games/${game.id}/history`)).json.history
    expect(log.at(-1)).toMatchObject({ action: 'start', reason: 'late one missed it', detail: { closedSeats: [3, 4] } })
  })
})

describe('GM controls during a game', () => {
  let gm: Client, ann: Client, bob: Client, gameId: string
  beforeAll(async () => {
    const set = await setUpGame(t.app, PLAYERS.slice(0, 2).map((p) => ({ ...p, email: `g-${p.email}` })), { reviewWindowHours: 0, closeEarly: false })
    ;({ gm, gameId } = set)
    ;[ann, bob] = set.players as [Client, Client]
    await gm.call('POST', `/api/v1/games/${gameId}/start`)
  })

  it('extends a deadline, logged with its reason', async () => {
    const before = Date.parse((await gm.call('GET', `/api/v1/games/${gameId}`)).json.currentTurn.deadline)
    const res = await gm.call('POST', `/api/v1/games/${gameId}/deadline`, { extendHours: 24, reason: 'holiday' })
    expect(Date.parse(res.json.deadline)).toBe(before + DAY)
    const moved = t.app.services.outbox.all().filter((r) => r.kind === 'deadline' && r.game_id === gameId)
    expect(moved.map((r) => r.recipient).sort()).toEqual(['g-ann@example.org', 'g-bob@example.org', 'gm@example.org'])
    expect(moved[0]!.body).toMatch(/Reason: holiday/)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/deadline`, { deadline: new Date(t.clock.now - 1000).toISOString() })).json).toMatchObject({ field: 'deadline' })
    expect((await gm.call('POST', `/api/v1/games/${gameId}/deadline`, {})).status).toBe(400)
    const history = (await ann.call('GET', `/api/v1/games/${gameId}/history`)).json.history
    expect(history.at(-1)).toMatchObject({ action: 'deadline', reason: 'holiday' })
  })

  it('without close-early, a turn with every program in waits for the deadline', async () => {
    for (const c of [ann, bob]) {
      const me = await handOf(c, gameId, 1)
      await c.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: me.hand.slice(0, 5), sacrificeAt: 3, doubleWrench: 'option', rebootNext: c === ann })
    }
    expect(await tick(gm, gameId)).toEqual({ number: 1, status: 'open' })
  })

  it('pause stops the clock; resume gives the paused time back', async () => {
    const deadline = Date.parse((await gm.call('GET', `/api/v1/games/${gameId}`)).json.currentTurn.deadline)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/pause`, { reason: 'server move' })).status).toBe(200)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/pause`, {})).status).toBe(409)
    t.clock.now = deadline + HOUR
    expect(await tick(gm, gameId)).toEqual({ number: 1, status: 'open' })
    expect((await gm.call('POST', `/api/v1/games/${gameId}/resume`, { reason: 'back' })).status).toBe(200)
    const resumed = Date.parse((await gm.call('GET', `/api/v1/games/${gameId}`)).json.currentTurn.deadline)
    expect(resumed).toBeGreaterThan(t.clock.now)
    t.clock.now = resumed
    // With no review window the close publishes at once and deals turn 2.
    expect(await tick(gm, gameId)).toEqual({ number: 2, status: 'open' })
    const game = (await gm.call('GET', `/api/v1/games/${gameId}`)).json
    expect(game.currentTurn.number).toBe(2)
    expect(game.publishedTurns).toEqual([1])
    expect(game.robots[0]).toMatchObject({ player: 'P1', sacrificeAt: 3, doubleWrench: 'option' })
  })

  it('a declared reboot (R33): the next turn deals no cards and takes an empty program', async () => {
    const me = await handOf(ann, gameId, 2)
    expect(me.robot.rebooting).toBe(true)
    expect(me.hand).toEqual([])
    const bobHand = (await handOf(bob, gameId, 2)).hand
    expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/2/submission`, { cards: [bobHand[0]] })).json.message).toMatch(/rebooting/)
    expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/2/submission`, { cards: [] })).status).toBe(201)
  })

  it('replaces a player: the newcomer takes over the robot and the hand; the old player is out', async () => {
    expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/2/replace`, { email: 'cid@example.org', reason: 'Bob moved away' })).status).toBe(200)
    expect((await bob.call('GET', `/api/v1/games/${gameId}`)).status).toBe(404)
    const cid = await signIn(t.app, 'cid@example.org')
    expect((await cid.call('POST', `/api/v1/invites/${inviteToken(t.app, 'cid@example.org')}/join`, { name: 'Cid', colour: 'green' })).status).toBe(200)
    const me = await handOf(cid, gameId, 2)
    expect(me.player).toBe('P2')
    expect(me.hand).toHaveLength(9)
    expect((await cid.call('POST', `/api/v1/games/${gameId}/turns/2/submission`, { cards: me.hand.slice(0, 5) })).status).toBe(201)
    const history = (await cid.call('GET', `/api/v1/games/${gameId}/history`)).json.history
    expect(history.find((h: any) => h.action === 'replace')).toMatchObject({ reason: 'Bob moved away', detail: { seat: 2, player: 'Bob', invited: 'cid@example.org' } })
  })

  it('removing a player leaves the robot to R9; abandoning ends the game and mails everyone', async () => {
    expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/1/remove`, { reason: 'no answer' })).status).toBe(200)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/seats/1/remove`, {})).status).toBe(409)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/abandon`, { reason: 'too slow' })).status).toBe(200)
    expect((await gm.call('GET', `/api/v1/games/${gameId}`)).json.status).toBe('abandoned')
    const mails = t.app.services.outbox.all().filter((m) => m.kind === 'game-over' && m.game_id === gameId)
    expect(mails.map((m) => m.recipient).sort()).toEqual(['cid@example.org', 'gm@example.org'])
    expect(mails[0]!.body).toContain('too slow')
    expect((await gm.call('POST', `/api/v1/games/${gameId}/abandon`, {})).status).toBe(409)
    t.clock.now += 30 * DAY
    expect(await tick(gm, gameId)).toEqual({ number: 2, status: 'open' })
  })
})
