// A digest already made but not yet sent when its turn is rolled back (migration 043): the SMTP
// server is down from the digests' making until after the rollback. Ann's digest holds a message
// as well as the withdrawn results and hand: it goes, made again without them. Cid's held only
// the withdrawn turn: it is withdrawn whole, and the next one, with the rollback's notice, is due
// at once. Once a digest has gone, its parts are dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { preferencesRepository } from '../../src/server/mail/preferences.js'
import { retryDelay } from '../../src/server/mail/worker.js'
import type { Client } from '../server/helpers.js'
import { closeTurn, startedGame } from '../gm/helpers.js'
import { mailsTo, mailWorld, type MailWorld } from './helpers.js'

let w: MailWorld
let gm: Client, gameId: string

beforeAll(async () => {
  w = await mailWorld()
  ;({ gm, gameId } = await startedGame(w.t.app))
  await w.t.app.mailer.deliver()
})
afterAll(async () => { await w.t.close(); await w.smtp.close() })

// A player's turn mail: the results of turn 1 and the hand of turn 2 in one.
const WITHDRAWN = ['Turn 2 of', 'Your hand', 'Your program is due']
const digestRow = (email: string) => w.t.app.services.outbox.all().find((r) => r.kind === 'digest' && r.recipient === email)
const partsKept = () => w.t.app.services.db.prepare('SELECT COUNT(*) FROM mail_digest WHERE digest_id IS NOT NULL').pluck().get()

describe('a rollback and a digest made but not sent', () => {
  it('makes the digest again without the withdrawn mail, or withdraws it when nothing else is in it', async () => {
    await closeTurn(w.t.app, w.t.clock, gm, gameId)
    // Both choose a digest now: their first is due a day later.
    const prefs = preferencesRepository(w.t.app.services.db)
    prefs.setMode('ann@example.org', 'digest', w.t.clock.now)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/messages`, { body: 'Good luck, robots.' })).status).toBe(201)
    w.t.app.runDueWork() // the message notices: Ann's is held, Cid's queued
    prefs.setMode('cid@example.org', 'digest', w.t.clock.now)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'looks right' })).status).toBe(200)

    w.smtp.outOfService()
    w.t.clock.now += 24 * 3600_000
    expect(w.t.app.runDueWork().digests).toBe(2)
    expect(await w.t.app.mailer.deliver()).toBe(0) // the server is down: both digests wait
    for (const email of ['ann@example.org', 'cid@example.org']) {
      const made = digestRow(email)!.body.replace(/\s+/g, ' ')
      for (const withdrawn of WITHDRAWN) expect(made, `${email}: ${withdrawn}`).toContain(withdrawn)
    }
    expect(digestRow('ann@example.org')!.body).toContain('Good luck, robots.')

    const unsentRestingOnTurn1 = () => w.t.app.services.db.prepare(`SELECT (SELECT COUNT(*) FROM outbox WHERE game_id = ? AND rests_on_turn >= 1 AND status = 'pending')
      + (SELECT COUNT(*) FROM mail_digest WHERE game_id = ? AND rests_on_turn >= 1)`).pluck().get(gameId, gameId) as number
    const willBeWithdrawn = unsentRestingOnTurn1() + 1 // and Cid's digest
    const rollback = await gm.call('POST', `/api/v1/games/${gameId}/turns/1/rollback`, { reason: 'a wall was missing' })
    expect(rollback.status).toBe(200)
    const ann = digestRow('ann@example.org')!
    expect(ann.status).toBe('pending')
    expect(ann.subject).not.toContain('Turn 2 of')
    expect(ann.body).toContain('Your BotWars digest: 1 mail')
    expect(digestRow('cid@example.org')).toBeUndefined()
    const log = w.t.app.services.games.actions(gameId).find((a) => a.action === 'rollback')!
    expect(JSON.parse(log.detail_json!).mailWithdrawn).toBe(willBeWithdrawn)
    expect(unsentRestingOnTurn1()).toBe(0)

    w.smtp.restart()
    w.t.clock.now += retryDelay(1)
    await w.t.app.mailer.deliver()
    const received = mailsTo(w.smtp, 'ann@example.org')
    expect(received.map((m) => m.subject)).toEqual([expect.stringMatching(/^BotWars digest: /)])
    const text = received[0]!.text.replace(/\s+/g, ' ')
    expect(text).toContain('Good luck, robots.')
    for (const withdrawn of WITHDRAWN) expect(text).not.toContain(withdrawn)
    expect(mailsTo(w.smtp, 'cid@example.org').filter((m) => m.subject.startsWith('BotWars digest'))).toEqual([])
    expect(partsKept()).toBe(0)
    // Cid's digest never went, so the next is due at once: the rollback's notice, without a day's wait.
    expect(w.t.app.runDueWork().digests).toBe(1)
    await w.t.app.mailer.deliver()
    const cid = mailsTo(w.smtp, 'cid@example.org').filter((m) => m.subject.startsWith('BotWars digest'))
    expect(cid).toHaveLength(1)
    expect(cid[0]!.text).toContain('turn 1 is rolled back')
    for (const withdrawn of WITHDRAWN) expect(cid[0]!.text).not.toContain(withdrawn)
  })

  it('leaves a digest that has gone alone, and drops its parts', async () => {
    // Published again: the results and the new hand are held for Ann's next digest.
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'wall fixed' })).status).toBe(200)
    w.t.clock.now += 24 * 3600_000
    expect(w.t.app.runDueWork().digests).toBe(2)
    await w.t.app.mailer.deliver()
    expect(partsKept()).toBe(0)
    const before = mailsTo(w.smtp, 'ann@example.org').length
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/rollback`, { reason: 'again' })).status).toBe(200)
    await w.t.app.mailer.deliver()
    expect(mailsTo(w.smtp, 'ann@example.org')).toHaveLength(before) // the rollback mail is held for her next digest
    expect(w.t.app.services.outbox.held('ann@example.org').map((m) => m.kind)).toEqual(['rollback'])
  })

  it('drops the parts of a digest given up for good', () => {
    const { outbox, db } = w.t.app.services
    preferencesRepository(db).setMode('dee@example.org', 'digest', w.t.clock.now)
    outbox.add({ kind: 'messages', gameId, to: 'dee@example.org', subject: 'A message', body: 'Hello.' }, w.t.clock.now)
    w.t.clock.now += 24 * 3600_000
    w.t.app.runDueWork()
    const digest = digestRow('dee@example.org')!
    expect(outbox.digestParts(digest.id)).toHaveLength(1)
    // As the worker leaves it when it gives up (mail/worker.ts): claimed, then undeliverable.
    db.prepare("UPDATE outbox SET status = 'sending' WHERE id = ?").run(digest.id)
    outbox.markUndeliverable(digest.id, { as: 'refused', error: '550 no such mailbox', replyCode: '550' })
    expect(digestRow('dee@example.org')!.status).toBe('failed')
    expect(outbox.digestParts(digest.id)).toEqual([])
  })
})
