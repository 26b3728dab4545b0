// People in the browser tests who are already signed in: a game is set up through the JSON API
// (test/server/helpers.ts, the real sign-in links), and each person's session cookie is handed
// to their own Chromium context, so a test starts on the page it is about.
import type { Locator, Page } from 'playwright-core'
import type { Client } from '../server/helpers.js'
import type { Stack } from './harness.js'

export const text = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim()

export async function go(page: Page, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForEvent('load'), action()])
}

/** A page signed in as the client's person, in a new context (phone or desktop, with or without JavaScript; `axe`: see harness.ts). */
export async function pageFor(stack: Stack, who: Client, options: { phone?: boolean; javaScript?: boolean; timezoneId?: string; axe?: boolean } = {}): Promise<Page> {
  const context = await stack.context(options)
  const value = /botwars_session=([^;]+)/.exec(who.headers.cookie ?? '')?.[1]
  if (!value) throw new Error(`${who.email} has no session cookie`)
  await context.addCookies([{ name: 'botwars_session', value, url: stack.origin, httpOnly: true }])
  return context.newPage()
}
