// The HTML turn mail drawn by Chromium, as a mail client would: the inline picture shown from
// its attachment (cid: resolved the way a client does), nothing fetched from the network, no
// script run. The screenshot is kept for CI under test-results/mail/ and was looked at.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, hasChromium } from '../browser/harness.js'
import { PLAYERS } from '../server/helpers.js'
import type { Received } from '../server/smtp.js'
import { firstCards, lastTo, mailWorld, startedGame, type MailWorld } from './helpers.js'

const OUT = join(process.cwd(), 'test-results', 'mail')
let w: MailWorld
let mail: Received
beforeAll(async () => {
  w = await mailWorld()
  const { gameId, players } = await startedGame(w.t.app)
  for (const c of players) await c.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await firstCards(c, gameId, 1) })
  w.t.app.runDueWork()
  await w.t.app.mailer.deliver()
  mail = lastTo(w.smtp, PLAYERS[0]!.email)
  mkdirSync(OUT, { recursive: true })
  writeFileSync(join(OUT, 'turn-mail.txt'), mail.text)
  writeFileSync(join(OUT, 'turn-mail.eml'), mail.raw)
})
afterAll(async () => { await w.close() })

describe.skipIf(!hasChromium)('the HTML turn mail in Chromium', () => {
  it('renders with its inline picture and fetches nothing', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] })
    try {
      const context = await browser.newContext({ viewport: { width: 700, height: 900 }, javaScriptEnabled: false })
      const page = await context.newPage()
      const requests: string[] = []
      page.on('request', (r) => { if (!r.url().startsWith('data:')) requests.push(r.url()) })
      const picture = mail.attachments.find((a) => a.contentId === '<board@botwars>')!
      const html = mail.html.replace('cid:board@botwars', `data:image/png;base64,${picture.content.toString('base64')}`)
      await page.setContent(html, { waitUntil: 'load' })
      const shown = await page.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)
      expect(shown).toBe(560)
      expect(await page.textContent('body')).toContain('Your hand for turn 2')
      await page.screenshot({ path: join(OUT, 'turn-mail.png'), fullPage: true })
      const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, javaScriptEnabled: false })
      const small = await phone.newPage()
      await small.setContent(html, { waitUntil: 'load' })
      // Nothing wider than a phone: no sideways scrolling in a phone's mail app.
      const wide = await small.locator('body *').evaluateAll((els) => els
        .map((e) => e as unknown as { tagName: string; className: string; getBoundingClientRect(): { right: number } })
        .filter((e) => e.getBoundingClientRect().right > 376).map((e) => `${e.tagName}.${e.className}`))
      expect(wide).toEqual([])
      await small.screenshot({ path: join(OUT, 'turn-mail-phone.png'), fullPage: true })
      expect(requests).toEqual([])
    } finally {
      await browser.close()
    }
  })
})
