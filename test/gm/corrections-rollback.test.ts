// Corrections in the draft and rolling back a published turn (issue 12), through the JSON API,
// with what is stored and mailed. Hostile cases first: who may not, and what a refusal leaves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardLabel } from '../../src/render/cards.js'
import { testApp, type Client, type TestApp } from '../server/helpers.js'
import { closeTurn, gameOf, mailsOf, someProgram, startedGame } from './helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

/** Every row of the tables a refused GM action could touch, to compare before and after. */
function snapshot(gameId: string) {
  const db = t.app.db
  return JSON.stringify({
    game: db.prepare('SELECT * FROM games WHERE id = ?').get(gameId),
    turns: db.prepare('SELECT * FROM turns WHERE game_id = ? ORDER BY id').all(gameId),
    submissions: db.prepare('SELECT s.* FROM submissions s JOIN turns t ON t.id = s.turn_id WHERE t.game_id = ? ORDER BY s.id').all(gameId),
    corrections: db.prepare('SELECT c.* FROM corrections c JOIN turns t ON t.id = c.turn_id WHERE t.game_id = ?').all(gameId),
    withdrawn: db.prepare('SELECT * FROM withdrawn_reports WHERE game_id = ?').all(gameId),
    actions: db.prepare('SELECT * FROM gm_actions WHERE game_id = ?').all(gameId),
    outbox: db.prepare('SELECT id FROM outbox WHERE game_id = ?').all(gameId),
  })
}

const filledFor = (result: any, player: string) => result.start.events.find((e: any) => e.kind === 'program-filled' && e.player === player)?.cards

describe('corrections in the draft', () => {
  let gm: Client, ann: Client, bob: Client, cid: Client, gameId: string
  let draftBefore: any

  beforeAll(async () => {
    const g = await startedGame(t.app, { gmPlays: true, gmColour: 'gold', gmName: 'Gemma' })
    ;({ gm, gameId } = g)
    ;[ann, bob, cid] = g.players as [Client, Client, Client]
    expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await someProgram(ann, gameId, 1) })).status).toBe(201)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await someProgram(gm, gameId, 1) })).status).toBe(201)
    await closeTurn(t.app, t.clock, gm, gameId)
    draftBefore = (await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
    expect(draftBefore.status).toBe('draft')
  })

  it('refuses players, the playing GM\'s own seat, bad programs and a stale tab, changing nothing', async () => {
    const cards = await someProgram(bob, gameId, 1)
    const before = snapshot(gameId)
    const version = (await gameOf(gm, gameId)).currentTurnVersion
    const url = `/api/v1/games/${gameId}/turns/1/corrections`
    expect((await ann.call('POST', url, { player: 'P4', cards, reason: 'I am helping' })).status).toBe(403)
    expect((await bob.call('POST', url, { player: 'P4', cards, reason: 'x' })).status).toBe(403)
    // Secrets (issue 11): a GM who plays cannot change their own program after seeing the draft.
    const own = await gm.call('POST', url, { player: 'P1', cards: await someProgram(gm, gameId, 1, true), reason: 'oops' })
    expect(own.status).toBe(403)
    expect(own.json.message).toMatch(/own program/)
    expect((await gm.call('POST', url, { player: 'P4', cards, reason: '' })).json).toMatchObject({ error: 'bad_request', field: 'reason' })
    expect((await gm.call('POST', url, { player: 'P9', cards, reason: 'x' })).json).toMatchObject({ error: 'bad_request', field: 'player' })
    expect((await gm.call('POST', url, { player: 'P4', cards: ['FWD9:999'], reason: 'x' })).json).toMatchObject({ field: 'cards[0]' })
    // Bob's cards are not in Cid's hand (R8).
    expect((await gm.call('POST', url, { player: 'P4', cards, reason: 'x' })).json).toMatchObject({ error: 'bad_request', field: 'cards[0]' })
    expect((await gm.call('POST', url, { player: 'P4', cards, reason: 'x', expectedTurn: '1.0' })).json).toMatchObject({ error: 'conflict', field: 'expectedTurn' })
    expect(version).not.toBe('1.0')
    expect(snapshot(gameId)).toBe(before)
  })

  it('stores the GM\'s program for the player, resolves again, mails the player, and only what follows changes', async () => {
    const cards = await someProgram(bob, gameId, 1)
    const version = (await gameOf(gm, gameId)).currentTurnVersion
    const done = await gm.call('POST', `/api/v1/games/${gameId}/turns/1/corrections`, { player: 'P4', cards: await someProgram(cid, gameId, 1), reason: 'Bob wrote Cid\'s program on paper', expectedTurn: version })
    expect(done.status).toBe(201)
    const draft = (await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
    expect(draft.programs.P4.cards).toEqual(await someProgram(cid, gameId, 1))
    // A18: Bob's fill is the same as before the correction; Ann's and the GM's programs are untouched.
    expect(filledFor(draft.result, 'P4')).toBeUndefined()
    expect(filledFor(draft.result, 'P3')).toEqual(filledFor(draftBefore.result, 'P3'))
    expect(draft.result.registers.P3).toEqual(draftBefore.result.registers.P3)
    expect(draft.result.registers.P2).toEqual(draftBefore.result.registers.P2)
    expect(draft.result.registers.P1).toEqual(draftBefore.result.registers.P1)
    expect(draft.corrections).toEqual([expect.objectContaining({ player: 'P4', name: 'Cid', reason: 'Bob wrote Cid\'s program on paper', before: expect.stringMatching(/no program/), after: (await someProgram(cid, gameId, 1)).join(' ') })])
    // The other tab, still on the old version, is refused.
    const stale = await gm.call('POST', `/api/v1/games/${gameId}/turns/1/corrections`, { player: 'P3', cards, reason: 'other tab', expectedTurn: version })
    expect(stale.status).toBe(409)
    expect(stale.json.message).toMatch(/the turn changed meanwhile/)
    const mail = mailsOf(t.app, gameId, 'correction')
    expect(mail.map((m) => m.recipient)).toEqual(['cid@example.org'])
    expect(mail[0]!.body).toContain('Before: no program')
    // The cards in words, as the turn mail names them.
    expect(mail[0]!.body).toContain(`Now:    ${(await someProgram(cid, gameId, 1)).map(cardLabel).join(', ')}`)
    expect(mail[0]!.body).toContain('Reason: Bob wrote Cid\'s program on paper')
    // Players do not see corrections (they name programs) before publication.
    expect((await ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.corrections).toEqual([])
    // Nor the log of it, which names Cid and gives the GM's reason: only Cid (mailed it anyway) and the GM.
    const history = (await ann.call('GET', `/api/v1/games/${gameId}/history`)).json.history
    expect(history.filter((h: { action: string }) => h.action === 'correct')).toEqual([])
    const cidHistory = (await cid.call('GET', `/api/v1/games/${gameId}/history`)).json.history
    expect(cidHistory.at(-1)).toMatchObject({ action: 'correct', reason: 'Bob wrote Cid\'s program on paper', detail: { turn: 1, player: 'P4' } })
    expect(JSON.stringify(history)).not.toContain((await someProgram(cid, gameId, 1))[0])
  })

  it('the published report and the next turn mail carry the Corrections section', async () => {
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'ok' })).status).toBe(200)
    const published = (await bob.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
    expect(published.corrections).toMatchObject([{ name: 'Cid', reason: 'Bob wrote Cid\'s program on paper' }])
    // One mail per player per turn (issue 14): turn 2's mail tells turn 1's story and its corrections.
    const turnMail = (to: string) => mailsOf(t.app, gameId, 'hand').filter((m) => m.recipient === to).at(-1)!
    expect(turnMail('bob@example.org').body).toMatch(/Corrections by the GM:\n {2}Cid, corrected .* UTC:\n {4}before: no program[^]*?\n {4}now: (?:[A-Za-z0-9 -]+ \(\d+\)(?:,\s+|\n {4}))+why: Bob wrote Cid's program on paper\n/)
    expect(turnMail('cid@example.org').body).toMatch(/Corrections by the GM:\n {2}Your program, corrected /)
    expect(turnMail('cid@example.org').html).toContain('Corrections by the GM')
    for (const m of mailsOf(t.app, gameId, 'hand')) for (const line of m.body.split('\n')) expect(line.length).toBeLessThan(80)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/corrections`, { player: 'P4', cards: [], reason: 'late' })).status).toBe(409)
  })
})

describe('rolling back the last published turn', () => {
  let gm: Client, ann: Client, bob: Client, gameId: string

  beforeAll(async () => {
    const g = await startedGame(t.app, {}, [
      { email: 'rb-ann@example.org', name: 'Ann', colour: 'red' },
      { email: 'rb-bob@example.org', name: 'Bob', colour: 'blue' },
    ])
    ;({ gm, gameId } = g)
    ;[ann, bob] = g.players as [Client, Client]
    expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await someProgram(ann, gameId, 1) })).status).toBe(201)
    await closeTurn(t.app, t.clock, gm, gameId)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'first' })).status).toBe(200)
  })

  it('refuses players, a missing reason, a turn that is not the last published one and a stale tab, changing nothing', async () => {
    const before = snapshot(gameId)
    const url = `/api/v1/games/${gameId}/turns/1/rollback`
    expect((await ann.call('POST', url, { reason: 'I lost' })).status).toBe(403)
    expect((await gm.call('POST', url, {})).json).toMatchObject({ error: 'bad_request', field: 'reason' })
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/2/rollback`, { reason: 'x' })).json).toMatchObject({ error: 'conflict', field: 'turn' })
    expect((await gm.call('POST', url, { reason: 'x', expectedTurn: '1.3' })).status).toBe(409)
    expect(snapshot(gameId)).toBe(before)
  })

  it('restores the game before the turn, keeps the report as withdrawn, and republishes it byte for byte', async () => {
    const published = (await bob.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
    const handBefore = (await ann.call('GET', `/api/v1/games/${gameId}/turns/2`)).json.me.hand
    const robotsBefore = (await gameOf(gm, gameId)).robots
    // Ann already sent a program for turn 2: it goes with the turn (the mail says the turn is dealt again).
    expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/2/submission`, { cards: await someProgram(ann, gameId, 2) })).status).toBe(201)
    const version = (await gameOf(gm, gameId)).currentTurnVersion
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/rollback`, { reason: 'a rules fix', expectedTurn: version })).status).toBe(200)

    const game = await gameOf(ann, gameId)
    expect(game.currentTurn).toMatchObject({ number: 1, status: 'draft', result: null })
    expect(game.publishedTurns).toEqual([])
    expect(game.withdrawnReports).toEqual([expect.objectContaining({ turn: 1, version: 1, reason: 'a rules fix' })])
    // The robots are back where turn 1 was dealt from, and no hand is shown with them.
    expect(game.robots.map((r: any) => [r.player, r.at, r.mode, r.hp])).toEqual([['P1', { row: 1, col: 4 }, 'virtual', 10], ['P2', { row: 1, col: 4 }, 'virtual', 10]])
    expect(robotsBefore).not.toEqual(game.robots)
    expect(JSON.stringify(game)).not.toContain(handBefore[0])
    expect((await ann.call('GET', `/api/v1/games/${gameId}/turns/2`)).status).toBe(404)
    const withdrawn = (await bob.call('GET', `/api/v1/games/${gameId}/turns/1/withdrawn/1`)).json
    expect(withdrawn).toMatchObject({ turn: 1, version: 1, withdrawn: true, reason: 'a rules fix', report: published.result.report })
    expect(withdrawn.result).toBeUndefined()
    expect(mailsOf(t.app, gameId, 'rollback').map((m) => m.recipient).sort()).toEqual(['gm@example.org', 'rb-ann@example.org', 'rb-bob@example.org'])
    expect(mailsOf(t.app, gameId, 'rollback')[0]!.body).toContain('Reason: a rules fix')
    // The draft waits for the GM: the clockwork does not publish it by itself.
    t.clock.now += 30 * 24 * 3600_000
    t.app.runDueWork()
    expect((await gameOf(gm, gameId)).currentTurn.status).toBe('draft')

    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'again' })).status).toBe(200)
    const again = (await bob.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
    expect(again.result.report).toBe(published.result.report)
    expect(JSON.stringify(again.result)).toBe(JSON.stringify(published.result))
    const stored = t.app.db.prepare('SELECT result_json, report_text FROM withdrawn_reports WHERE game_id = ?').get(gameId) as any
    expect(t.app.db.prepare("SELECT result_json FROM turns WHERE game_id = ? AND number = 1").pluck().get(gameId)).toBe(stored.result_json)
    // The next turn is dealt again from the same generator: the same hand.
    expect((await ann.call('GET', `/api/v1/games/${gameId}/turns/2`)).json.me.hand).toEqual(handBefore)
  })

  it('with a corrected program only what follows from it changes', async () => {
    const published = (await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/rollback`, { reason: 'Bob mailed his program' })).status).toBe(200)
    const bobCards = await someProgram(bob, gameId, 1, true)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/corrections`, { player: 'P2', cards: bobCards, reason: 'Bob mailed it before the deadline' })).status).toBe(201)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'corrected' })).status).toBe(200)
    const corrected = (await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
    expect(corrected.result.registers.P1).toEqual(published.result.registers.P1)
    expect(corrected.result.registers.P2).toEqual(bobCards)
    expect(corrected.programs.P1).toEqual(published.programs.P1)
    expect(corrected.corrections).toMatchObject([{ name: 'Bob', after: bobCards.join(' ') }])
    const list = (await gameOf(gm, gameId)).withdrawnReports
    expect(list.map((w: any) => [w.turn, w.version])).toEqual([[1, 1], [1, 2]])
    const actions = (await gm.call('GET', `/api/v1/games/${gameId}/history`)).json.history.map((h: any) => [h.action, h.reason])
    expect(actions).toEqual(expect.arrayContaining([['rollback', 'a rules fix'], ['rollback', 'Bob mailed his program'], ['correct', 'Bob mailed it before the deadline']]))
  })
})
