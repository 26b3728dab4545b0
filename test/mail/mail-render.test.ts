// The HTML turn mail drawn by Chromium, as a mail client would (test/mail/render.ts): the inline
// picture shown from its attachment, nothing fetched from the network, no script run. The screenshot is kept for CI under test-results/mail/ and was looked at.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium } from '../browser/harness.js'
import { PLAYERS } from '../server/helpers.js'
import type { Received } from '../server/smtp.js'
import { firstCards, lastTo, mailWorld, startedGame, type MailWorld } from './helpers.js'
import { MAIL_OUT, renderMail } from './render.js'

let w: MailWorld
let mail: Received
beforeAll(async () => {
  w = await mailWorld()
  const { gameId, players } = await startedGame(w.t.app)
  for (const c of players) await c.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await firstCards(c, gameId, 1) })
  w.t.app.runDueWork()
  await w.t.app.mailer.deliver()
  mail = lastTo(w.smtp, PLAYERS[0]!.email)
  mkdirSync(MAIL_OUT, { recursive: true })
  writeFileSync(join(MAIL_OUT, 'turn-mail.txt'), mail.text)
  writeFileSync(join(MAIL_OUT, 'turn-mail.eml'), mail.raw)
})
afterAll(async () => { await w.close() })

describe.skipIf(!hasChromium)('the HTML turn mail in Chromium', () => {
  it('renders with its inline picture and fetches nothing', async () => {
    const shown = await renderMail(mail, 'turn-mail', async (page) => {
      expect(await page.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(560)
    })
    expect(shown.text).toContain('Your hand for turn 2')
    expect(shown.tooWideOnPhone).toEqual([])
    expect(shown.requests).toEqual([])
  })
})
