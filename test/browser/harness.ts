// The browser tests' world: the real server (buildApp + listen on 127.0.0.1, port 0) on a temp
// SQLite file, a real SMTP server on 127.0.0.1 for the sign-in and invitation mails, a clock the
// test drives, and Debian's Chromium through playwright-core. Screenshots go to
// test-results/screenshots/ (CI keeps the folder).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/server/app.js'
import { startSmtp } from '../server/smtp.js'
import { missingTool } from '../required-tool.js'

export const CHROMIUM = '/usr/bin/chromium'
export const hasChromium = existsSync(CHROMIUM)
export const SHOTS = join(process.cwd(), 'test-results', 'screenshots')
export const START = Date.UTC(2030, 0, 7, 12, 0, 0)

if (!hasChromium) missingTool(`BROWSER TESTS: ${CHROMIUM} is missing`, 'apt-get update && apt-get install -y chromium')

export const PHONE = { width: 375, height: 740 }
export const DESKTOP = { width: 1280, height: 900 }

export interface Stack {
  app: FastifyInstance
  clock: { now: number }
  origin: string
  browser: Browser
  /** The newest link in the newest mail to `to` whose subject matches, rewritten to the server's real address. */
  mailLink(to: string, subject: RegExp): Promise<string>
  /** `axe`: let the pages take the injected axe-core script past their Content-Security-Policy (axe.ts). */
  context(options: { phone?: boolean; javaScript?: boolean; timezoneId?: string; axe?: boolean }): Promise<BrowserContext>
  /** A full-page screenshot; with `at`, a screenshot of that element only. */
  shot(page: Page, name: string, at?: string): Promise<void>
  close(): Promise<void>
}

/** `liveHeartbeatMs`: the live streams' heartbeat interval, shortened so a test can wait for one. */
export async function startStack(options: { liveHeartbeatMs?: number } = {}): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), 'botwars-browser-'))
  const smtp = await startSmtp()
  const clock = { now: START }
  const app = await buildApp({
    config: {
      databasePath: join(dir, 'botwars.db'), dataDir: dir, smtpUrl: smtp.url, baseUrl: 'http://botwars.test',
      sessionSecret: 'b'.repeat(40), mailFrom: 'BotWars <gm@botwars.test>',
    },
    now: () => clock.now,
    newSeed: () => 7,
    loginRateLimit: 1000,
    ...options,
  })
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  const origin = address.replace('localhost', '127.0.0.1')
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  })
  mkdirSync(SHOTS, { recursive: true })
  const contexts: BrowserContext[] = []
  return {
    app, clock, origin, browser,
    async mailLink(to, subject) {
      await app.mailer.deliver()
      const mail = smtp.received.filter((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject)).at(-1)
      if (!mail) throw new Error(`no mail to ${to} matching ${subject}; got ${smtp.received.map((m) => `${m.to}: ${m.subject}`).join(' | ')}`)
      // The last link the mail is about: every mail's footer ends with the mail settings.
      const link = (mail.text.match(/https?:\/\/\S+/g) ?? []).filter((l) => !l.endsWith('/settings/mail')).at(-1)
      if (!link) throw new Error(`no link in the mail "${mail.subject}"`)
      const url = new URL(link)
      return `${origin}${url.pathname}${url.search}`
    },
    async context({ phone = false, javaScript = true, timezoneId, axe = false }) {
      const context = await browser.newContext({
        ...(timezoneId ? { timezoneId } : {}),
        viewport: phone ? PHONE : DESKTOP, javaScriptEnabled: javaScript, deviceScaleFactor: phone ? 2 : 1, isMobile: phone, hasTouch: phone,
        bypassCSP: axe,
      })
      contexts.push(context)
      return context
    },
    async shot(page, name, at) {
      if (at) await page.locator(at).first().screenshot({ path: join(SHOTS, `${name}.png`) })
      else await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {})
      await browser.close()
      await app.close()
      await smtp.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
