// A digest the worker is sending when its turn is rolled back: the rollback makes it again without
// the withdrawn mail (mail/withdraw.ts), but the send in flight carries the text claimed before.
// Sent, the outbox must say what went, not the rewritten text that never did; refused, the retry
// sends the rewritten text. The SMTP server holds Ann's digest (its data received, no answer yet)
// until the rollback has committed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { preferencesRepository } from '../../src/server/mail/preferences.js'
import { retryDelay } from '../../src/server/mail/worker.js'
import type { OutboxRow } from '../../src/server/repositories/outbox.js'
import { startSmtp } from '../server/smtp.js'
import { testApp, type Client, type TestApp } from '../server/helpers.js'
import { closeTurn, startedGame } from '../gm/helpers.js'
import { mailsTo } from './helpers.js'

const ANN = 'ann@example.org'
// A player's turn mail: the results of turn 1 and the hand of turn 2 in one (withdrawn by the rollback).
const WITHDRAWN = ['Turn 2 of', 'Your hand']

/**
 * A gate at the SMTP server for the first mail to Ann once `armed`: `whenArrived` settles once its
 * data is in, and the server answers it when `answer` is called.
 */
function gate() {
  let arrived!: () => void
  const whenArrived = new Promise<void>((resolve) => { arrived = resolve })
  let answer!: (error?: Error) => void
  const answered = new Promise<void>((resolve, reject) => { answer = (error) => (error ? reject(error) : resolve()) })
  let held = false
  return {
    whenArrived, answer, armed: false,
    hold(to: string[]) {
      if (!this.armed || held || !to.includes(ANN)) return Promise.resolve()
      held = true
      arrived()
      return answered
    },
  }
}

let t: TestApp, smtp: Awaited<ReturnType<typeof startSmtp>>, door: ReturnType<typeof gate>
let gm: Client, gameId: string

beforeEach(async () => {
  door = gate()
  smtp = await startSmtp(0, { hold: (to) => door.hold(to) })
  t = await testApp({ smtpUrl: smtp.url })
  ;({ gm, gameId } = await startedGame(t.app))
  await t.app.mailer.deliver()
  await closeTurn(t.app, t.clock, gm, gameId)
  preferencesRepository(t.app.services.db).setMode(ANN, 'digest', t.clock.now)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/messages`, { body: 'Good luck, robots.' })).status).toBe(201)
  t.app.runDueWork()
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: 'looks right' })).status).toBe(200)
  await t.app.mailer.deliver() // everything but Ann's held mail goes now
  t.clock.now += 24 * 3600_000
  expect(t.app.runDueWork().digests).toBe(1)
})
afterEach(async () => { door.answer(); await t.close(); await smtp.close() })

const digest = (): OutboxRow => t.app.services.outbox.all().find((r) => r.kind === 'digest' && r.recipient === ANN)!
const flat = (text: string) => text.replace(/\s+/g, ' ')

/** Starts delivering, waits until Ann's digest is at the SMTP server unanswered, and rolls turn 1 back meanwhile. */
async function rollBackWhileSending(): Promise<{ delivering: Promise<number> }> {
  const claimed = digest().body
  for (const withdrawn of WITHDRAWN) expect(flat(claimed)).toContain(withdrawn)
  door.armed = true
  const delivering = t.app.mailer.deliver()
  await door.whenArrived
  expect(digest().status).toBe('sending')
  expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/rollback`, { reason: 'a wall was missing' })).status).toBe(200)
  // The digest was made again from what is left: the text the worker holds is not the row's now.
  expect(digest().body).not.toBe(claimed)
  // Wrapped: an async function returning the promise itself would wait for it (and the gate).
  return { delivering }
}

describe('a digest in flight when its turn is rolled back', () => {
  it('is recorded as sent with the text that went, not the text written after it was claimed', async () => {
    const { delivering } = await rollBackWhileSending()
    door.answer()
    await delivering
    const received = mailsTo(smtp, ANN).filter((m) => m.subject.startsWith('BotWars digest'))
    expect(received).toHaveLength(1)
    const row = digest()
    expect(row.status).toBe('sent')
    expect(received[0]!.subject).toBe(row.subject)
    expect(flat(received[0]!.text)).toContain('Good luck, robots.')
    for (const withdrawn of WITHDRAWN) {
      expect(flat(received[0]!.text)).toContain(withdrawn) // it was in flight: it went as claimed
      expect(flat(row.body), 'the outbox says what went').toContain(withdrawn)
    }
    // The rollback's notice is held for her next digest, which tells her the turn was rolled back.
    expect(t.app.services.outbox.held(ANN).map((m) => m.kind)).toEqual(['rollback'])
  })

  it('sends the rewritten text when the send in flight is refused and tried again', async () => {
    const { delivering } = await rollBackWhileSending()
    door.answer(Object.assign(new Error('4.3.0 try again later'), { responseCode: 451 }))
    await delivering
    expect(digest().status).toBe('pending')
    t.clock.now += retryDelay(1)
    await t.app.mailer.deliver()
    const received = mailsTo(smtp, ANN).filter((m) => m.subject.startsWith('BotWars digest'))
    expect(received).toHaveLength(1)
    const text = flat(received[0]!.text)
    expect(text).toContain('Good luck, robots.')
    for (const withdrawn of WITHDRAWN) expect(text).not.toContain(withdrawn)
    expect(digest().status).toBe('sent')
    expect(received[0]!.subject).toBe(digest().subject)
    for (const withdrawn of WITHDRAWN) expect(flat(digest().body)).not.toContain(withdrawn)
  })
})
