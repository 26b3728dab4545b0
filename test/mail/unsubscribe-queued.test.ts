// Found by a hostile review: mail queued before the person unsubscribed still went out after.
// Unsubscribe must be honoured at once. The preference is applied only when a mail is queued
// (repositories/outbox.ts add), never when it is sent: mail already in the outbox (waiting out a
// mail server that is down, or just the 5 s until the next tick) still goes after the person pressed
// one-click unsubscribe.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { preferencesRepository, unsubscribePath } from '../../src/server/mail/preferences.js'
import { retryDelay } from '../../src/server/mail/worker.js'
import { testApp, type TestApp } from '../server/helpers.js'
import { startSmtp } from '../server/smtp.js'
import { startedGame } from '../gm/helpers.js'

const CID = 'cid@example.org'
let smtp: Awaited<ReturnType<typeof startSmtp>>
let t: TestApp
beforeAll(async () => {
  smtp = await startSmtp()
  t = await testApp({ smtpUrl: smtp.url })
})
afterAll(async () => { await t.close(); await smtp.close() })

it('a turn mail still in the outbox is not sent after its reader unsubscribed', async () => {
  smtp.outOfService() // the mail server is down when the game starts
  await startedGame(t.app) // the turn 1 mails are queued
  expect(await t.app.mailer.deliver()).toBe(0)
  expect(t.app.services.outbox.all().some((r) => r.recipient === CID && r.kind === 'hand' && r.status === 'pending')).toBe(true)

  // Cid presses one-click unsubscribe (in an earlier mail of another game, or the settings page).
  const url = unsubscribePath(preferencesRepository(t.app.services.db), CID)
  const done = await t.app.inject({ method: 'POST', url, payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  expect(done.statusCode).toBe(200)

  smtp.restart() // the server is back an hour later
  t.clock.now += retryDelay(1) + 3600_000
  await t.app.mailer.deliver()
  expect(smtp.received.some((m) => m.to.includes('ann@example.org'))).toBe(true) // the worker did run
  expect(smtp.received.filter((m) => m.to.includes(CID) && m.subject.startsWith('Turn')).map((m) => m.subject)).toEqual([])
})
