// Steps the browser tests share: waiting for the page a click opens, reading text as a person
// sees it, and signing in through the mailed link.
import { expect } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { Stack } from './harness.js'

/** Runs `action` and waits for the page it opens to load. */
export async function go(page: Page, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForEvent('load'), action()])
}

export const text = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim()

/** Signs in through the mailed link; `onPage` sees each page on the way (the sent and confirm pages). */
export async function signIn(stack: Stack, page: Page, email: string, onPage: (name: string) => Promise<void> = async () => {}): Promise<void> {
  await page.locator('#email').fill(email)
  await go(page, () => page.getByRole('button', { name: 'Mail me a sign-in link' }).click())
  expect(await text(page.locator('main'))).toContain(`A sign-in link is on its way to ${email}`)
  await onPage('sign-in-sent')
  await page.goto(await stack.mailLink(email, /sign-in link/))
  // The link only asks (mail scanners open links too); the button signs in.
  expect(await text(page.locator('main'))).toContain(`Sign in to BotWars as ${email.toLowerCase()}?`)
  await onPage('sign-in-confirm')
  await go(page, () => page.getByRole('button', { name: 'Sign in' }).click())
}

/** The text a sighted reader sees: without the visually hidden words meant for screen readers. */
export async function shownText(locator: Locator): Promise<string> {
  const texts = await locator.evaluateAll((els) => els.map((el) => {
    const copy = el.cloneNode(true) as unknown as { querySelectorAll(s: string): { remove(): void; replaceWith(t: string): void }[]; textContent: string | null }
    copy.querySelectorAll('.visually-hidden').forEach((hidden) => hidden.remove())
    copy.querySelectorAll('br').forEach((br) => br.replaceWith(' '))
    return copy.textContent ?? ''
  }))
  return texts.join(' ').replace(/\s+/g, ' ').trim()
}
