// Which of the app's GET routes are pages a person opens, as the app registers them (buildApp's
// onRoute): everything but the JSON API, static files, pictures and live event streams. The
// accessibility sweep (a11y-routes.test.ts) must open each of them, so a new page cannot be
// added without its check.
import { testApp } from '../server/helpers.js'

/** Routes that are not pages, each with why. A route is a page unless one of these says otherwise. */
const NOT_PAGES: { why: string; test: (url: string) => boolean }[] = [
  { why: 'the JSON API', test: (url) => url.startsWith('/api/') },
  { why: 'a static file', test: (url) => url.startsWith('/static/') },
  { why: 'a picture', test: (url) => url.startsWith('/boards/') || url.split('/').includes('pictures') },
  { why: 'a live event stream', test: (url) => url.endsWith('/live') },
]

export const notAPage = (url: string): string | undefined => NOT_PAGES.find((n) => n.test(url))?.why

/** The GET page routes of the app as built now, as Fastify has them (`/games/:gameId/turns/:turn`). */
export async function registeredPageRoutes(): Promise<string[]> {
  const urls: string[] = []
  const t = await testApp({ onRoute: (route) => { if ([route.method].flat().includes('GET')) urls.push(route.url) } })
  await t.close()
  return [...new Set(urls)].filter((url) => !notAPage(url)).sort()
}

/**
 * The route of `patterns` that serves `path` (no query), as Fastify's router picks it: a static
 * segment before a parameter (`/games/new` before `/games/:gameId`), a wildcard (`/*`) last.
 */
export function routeOf(patterns: readonly string[], path: string): string | undefined {
  const segments = path.split('/')
  const fits = patterns.filter((p) => {
    const parts = p.split('/')
    if (parts.at(-1) === '*') return segments.length >= parts.length && parts.slice(0, -1).every((part, i) => part === segments[i])
    return parts.length === segments.length && parts.every((part, i) => part.startsWith(':') ? segments[i] !== '' : part === segments[i])
  })
  const rank = (p: string) => p.split('/').map((part) => (part === '*' ? '0' : part.startsWith(':') ? '1' : '2')).join('').padEnd(20, '0')
  return fits.sort((a, b) => rank(b).localeCompare(rank(a)))[0]
}
