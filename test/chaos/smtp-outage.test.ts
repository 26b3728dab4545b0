// The mail server refuses connections, then accepts and drops them, for a while: mail waits in the
// outbox (nothing marked sent) and goes out once when the mail server is back.
import { expect, it } from 'vitest'
import { smtpOutageRun } from '../../src/testkit/chaos.js'

it('keeps mail through an SMTP outage and sends each message once afterwards', async () => {
  const report = await smtpOutageRun(301, 5500, 5500)
  expect(report.problems).toEqual([])
  expect(report.stats.failedAttempts).toBeGreaterThan(0)
  expect(report.stats.dropped).toBeGreaterThan(0)
}, 200_000)
