// A rollback withdraws the mail its turn's publication caused that has not gone yet (migration
// 042): with the SMTP server down from the close of turn 1 until after its rollback, nobody later
// receives the withdrawn results, the void hand of turn 2 or its moved deadline, in the outbox or
// in a held digest; what the rollback does not touch still goes: the GM's draft mail of turn 1
// (queued before it was published), a message, and the rollback mail itself. Publishing again
// deals again, and that hand is mailed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { preferencesRepository } from '../../src/server/mail/preferences.js'
import { retryDelay } from '../../src/server/mail/worker.js'
import type { Client } from '../server/helpers.js'
import { closeTurn, gameOf, someProgram, startedGame } from '../gm/helpers.js'
import { mailsTo, mailWorld, type MailWorld } from './helpers.js'

let w: MailWorld
let gm: Client, bob: Client, gameId: string

beforeAll(async () => {
  w = await mailWorld()
  const g = await startedGame(w.t.app)
  ;({ gm, gameId } = g)
  bob = g.players[1]!
  await w.t.app.mailer.deliver()
})
afterAll(async () => { await w.t.close(); await w.smtp.close() })

/** What `email` received, in the order sent (a retried mail goes after newer ones). */
const subjectsTo = (email: string) => mailsTo(w.smtp, email).map((m) => m.subject.replace(/ due .*/, ' due …'))
const unsent = () => w.t.app.services.outbox.all().filter((r) => r.game_id === gameId && r.status !== 'sent')

describe('a rollback and the mail not yet sent', () => {
  it('withdraws the results, the next hand and its deadline; keeps the rest', async () => {
    w.smtp.outOfService()
    await closeTurn(w.t.app, w.t.clock, gm, gameId)
    // Ann wants a daily digest from now: her first is due a day later, after the rollback.
    preferencesRepository(w.t.app.services.db).setMode('ann@example.org', 'digest', w.t.clock.now)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'looks right' })).status).toBe(200)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/deadline`, { extendHours: 6, reason: 'weekend' })).status).toBe(200)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/messages`, { body: 'Turn 2 is open.' })).status).toBe(201)
    w.t.app.runDueWork() // the message notices
    expect(await w.t.app.mailer.deliver()).toBe(0) // the server is down: all of it waits
    const kinds = unsent().map((r) => `${r.kind} ${r.recipient}`)
    for (const kind of ['draft-ready gm@', 'hand bob@', 'hand cid@', 'results gm@', 'deadline bob@', 'messages bob@']) {
      expect(kinds.some((k) => k.startsWith(kind)), kind).toBe(true)
    }
    expect(w.t.app.services.outbox.held('ann@example.org').map((m) => m.kind)).toEqual(['hand', 'deadline', 'messages'])

    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/rollback`, { reason: 'a wall was missing' })).status).toBe(200)
    expect(unsent().map((r) => r.kind).sort()).toEqual(['draft-ready', 'messages', 'messages', 'rollback', 'rollback', 'rollback'])
    const log = w.t.app.services.games.actions(gameId).find((a) => a.action === 'rollback')!
    expect(JSON.parse(log.detail_json!)).toMatchObject({ turn: 1, mailWithdrawn: expect.any(Number) })

    w.smtp.restart()
    w.t.clock.now += retryDelay(1)
    await w.t.app.mailer.deliver()
    expect(subjectsTo('bob@example.org').sort()).toEqual(['BotWars "Test game": 1 new message', 'BotWars "Test game": turn 1 is rolled back'])
    expect(subjectsTo('gm@example.org').sort()).toEqual(['BotWars "Test game" turn 1: draft ready for review', 'BotWars "Test game": turn 1 is rolled back'])
    const rolledBack = mailsTo(w.smtp, 'bob@example.org').find((m) => /rolled back/.test(m.subject))!
    expect(rolledBack.text.replace(/\s+/g, ' ')).toContain('The hand of turn 2, if you were mailed one, is void')
    expect(unsent()).toEqual([])

    // Ann's digest holds the message and the rollback, not the withdrawn turn.
    w.t.clock.now += 24 * 3600_000
    expect(w.t.app.runDueWork().digests).toBe(1)
    await w.t.app.mailer.deliver()
    const digest = mailsTo(w.smtp, 'ann@example.org')
    expect(digest).toHaveLength(1)
    const text = digest[0]!.text.replace(/\s+/g, ' ')
    for (const shown of ['Turn 2 is open.', 'turn 1 is rolled back']) expect(text).toContain(shown)
    for (const withdrawn of ['Turn 2 of', 'deadline of turn 2', 'Your program is due']) expect(text).not.toContain(withdrawn)
  })

  it('deals and mails the hand again when the turn is published anew', async () => {
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'wall fixed' })).status).toBe(200)
    await w.t.app.mailer.deliver()
    expect(subjectsTo('bob@example.org').at(-1)).toBe('Turn 2 of "Test game" — your program is due …')
    expect((await bob.call('GET', `/api/v1/games/${gameId}/turns/2`)).status).toBe(200)
  })

  it('marks every mail of a turn with the published turn it stands on', async () => {
    // Not Ann's digest: what it holds was marked when it was held (the first test).
    const queued = () => w.t.app.services.outbox.all().filter((r) => r.game_id === gameId && r.status === 'pending' && r.kind !== 'digest')
    const standsOn = (rows: ReturnType<typeof queued>) => Object.fromEntries(rows.map((r) => [r.kind, r.rests_on_turn]))
    await w.t.app.mailer.deliver()
    // Turn 2 (dealt when turn 1 was published): its reminder, draft, correction and reopening stand on turn 1.
    w.t.clock.now = Date.parse((await gameOf(gm, gameId)).currentTurn.deadline) - 11 * 3600_000
    w.t.app.runDueWork()
    await closeTurn(w.t.app, w.t.clock, gm, gameId)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/2/corrections`, { player: 'P2', cards: await someProgram(bob, gameId, 2, true), reason: 'by phone' })).status).toBe(201)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/2/reopen`, { player: 'P3', reason: 'asked to' })).status).toBe(200)
    expect(standsOn(queued())).toEqual({ reminder: 1, 'draft-ready': 1, correction: 1, reopened: 1 })
    await w.t.app.mailer.deliver()
    // Its results, and turn 3's hands, stand on turn 2.
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/2/publish`, { reason: 'ok' })).status).toBe(200)
    expect(standsOn(queued())).toEqual({ hand: 2, results: 2 })
    // What no rollback makes untrue stands on none.
    expect(w.t.app.services.outbox.all().filter((r) => r.kind === 'messages' || r.kind === 'rollback').map((r) => r.rests_on_turn)).toEqual([null, null, null, null, null])
  })
})
