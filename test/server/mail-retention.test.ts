// Sent mail is deleted from the outbox once older than MAIL_RETENTION_DAYS, a bounded batch per
// tick; mail not yet sent is never deleted, however old.
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/server/config.js'
import type { MailTransport } from '../../src/server/mail/transport.js'
import { DAY, START, tempDir, testApp } from './helpers.js'

describe('outbox retention', () => {
  it('deletes sent mail older than the retention period in bounded batches, never unsent mail', async () => {
    const sentTo: string[] = []
    const transport: MailTransport = { async send(mail) { sentTo.push(mail.to) }, close() {} }
    const t = await testApp({ transport })
    try {
      const { outbox } = t.app.services
      const mail = (to: string, at = t.clock.now) => outbox.add({ kind: 'test', to, subject: 'Hello', body: 'A long body '.repeat(100) }, at)
      const left = () => outbox.all().map((r) => `${r.recipient}:${r.status}`)

      t.clock.now = START
      for (const to of ['old1@x.org', 'old2@x.org', 'old3@x.org']) mail(to)
      await t.app.mailer.deliver()
      t.clock.now = START + 10 * DAY
      mail('recent@x.org')
      await t.app.mailer.deliver()
      expect(sentTo).toEqual(['old1@x.org', 'old2@x.org', 'old3@x.org', 'recent@x.org'])
      // Two old messages never sent: one waiting, one claimed by a worker that died mid-send.
      mail('sending@x.org', START)
      mail('pending@x.org', START)
      outbox.claim(START, 60_000)
      expect(left()).toEqual(['old1@x.org:sent', 'old2@x.org:sent', 'old3@x.org:sent', 'recent@x.org:sent', 'sending@x.org:sending', 'pending@x.org:pending'])

      t.clock.now = START + 30 * DAY - 60_000 // not yet 30 days since they were sent
      expect(t.app.mailer.prune(30)).toBe(0)

      t.clock.now = START + 31 * DAY
      expect(t.app.mailer.prune(30, 2)).toBe(2) // bounded: at most the batch size
      expect(t.app.mailer.prune(30, 2)).toBe(1)
      expect(t.app.mailer.prune(30, 2)).toBe(0)
      expect(left()).toEqual(['recent@x.org:sent', 'sending@x.org:sending', 'pending@x.org:pending'])

      t.clock.now = START + 100 * DAY // the unsent ones are never deleted; the recent one's time comes
      expect(t.app.mailer.prune(30)).toBe(1)
      expect(left()).toEqual(['sending@x.org:sending', 'pending@x.org:pending'])
    } finally {
      await t.close()
    }
  })

  it('reads MAIL_RETENTION_DAYS: 30 by default, whole days of at least 1', () => {
    const dir = tempDir()
    expect(loadConfig({ DATABASE_PATH: `${dir}/x.db` }).mailRetentionDays).toBe(30)
    expect(loadConfig({ DATABASE_PATH: `${dir}/x.db`, MAIL_RETENTION_DAYS: '7' }).mailRetentionDays).toBe(7)
    for (const bad of ['0', '-1', '1.5', 'a week']) {
      expect(() => loadConfig({ DATABASE_PATH: `${dir}/x.db`, MAIL_RETENTION_DAYS: bad })).toThrow(/MAIL_RETENTION_DAYS/)
    }
  })
})
