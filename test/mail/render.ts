// Draws a received HTML mail in Chromium as a mail client would: the inline picture shown from
// its attachment (cid: resolved the way a client does), scripts off, every request outside the
// mail recorded. Screenshots go to test-results/mail/ (kept by CI) and are looked at.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { CHROMIUM } from '../browser/harness.js'
import type { Received } from '../server/smtp.js'

export const MAIL_OUT = join(process.cwd(), 'test-results', 'mail')

export interface Rendered { requests: string[]; tooWideOnPhone: string[]; cutOffOnPhone: string[]; text: string }

/** The HTML part with its cid: pictures made data: URLs, as a client shows them. */
export function htmlWithPictures(mail: Received): string {
  let html = mail.html
  for (const a of mail.attachments) if (a.contentId) html = html.replaceAll(`cid:${a.contentId.replace(/^<|>$/g, '')}`, `data:${a.contentType};base64,${a.content.toString('base64')}`)
  return html
}

/** Renders at 700 px and at a phone's 375 px; screenshots `<name>.png` and `<name>-phone.png`. */
export async function renderMail(mail: Received, name: string, check?: (page: Page) => Promise<void>): Promise<Rendered> {
  mkdirSync(MAIL_OUT, { recursive: true })
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] })
  try {
    const requests: string[] = []
    const html = htmlWithPictures(mail)
    const page = await (await browser.newContext({ viewport: { width: 700, height: 900 }, javaScriptEnabled: false })).newPage()
    page.on('request', (r) => { if (!r.url().startsWith('data:')) requests.push(r.url()) })
    await page.setContent(html, { waitUntil: 'load' })
    await check?.(page)
    const text = (await page.textContent('body')) ?? ''
    await page.screenshot({ path: join(MAIL_OUT, `${name}.png`), fullPage: true })
    const small = await (await browser.newContext({ viewport: { width: 375, height: 740 }, javaScriptEnabled: false })).newPage()
    small.on('request', (r) => { if (!r.url().startsWith('data:')) requests.push(r.url()) })
    await small.setContent(html, { waitUntil: 'load' })
    // Nothing wider than a phone: no sideways scrolling in a phone's mail app.
    const tooWideOnPhone = await small.locator('body *').evaluateAll((els) => els
      .map((e) => e as unknown as { tagName: string; className: string; getBoundingClientRect(): { right: number } })
      .filter((e) => e.getBoundingClientRect().right > 376).map((e) => `${e.tagName}.${e.className}`))
    // Nor anything whose content runs past its own box (hidden, or to be scrolled inside it).
    const cutOffOnPhone = await small.locator('body *').evaluateAll((els) => els
      .map((e) => e as unknown as { tagName: string; className: string; scrollWidth: number; clientWidth: number })
      .filter((e) => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1).map((e) => `${e.tagName}.${e.className}`))
    await small.screenshot({ path: join(MAIL_OUT, `${name}-phone.png`), fullPage: true })
    return { requests, tooWideOnPhone, cutOffOnPhone, text }
  } finally {
    await browser.close()
  }
}
