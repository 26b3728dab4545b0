/// <reference lib="dom" />
// Every page the app has, checked for accessibility, and a list that cannot fall behind. The
// pages are the app's own GET routes (page-routes.ts: all but the API, static files, pictures and
// streams); VISITS opens each of them as the person who sees it (player, the GM who plays,
// spectator, signed out, a newcomer, an invitee, a practice player) in a world with a running
// game, a published turn, a draft under review with a withdrawn report, a finished game, a game
// in setup, a practice game and a series. On a phone (375 px) and on a desktop, each page has no
// axe violation (WCAG 2.1 A/AA and the landmark names, axe.ts), one h1 and a title of its own, a
// visible label on every control, a visible focus on all the keyboard reaches, and no sideways
// scrolling (page-checks.ts). The first test fails when a page route has no visit: the next new
// page is added to VISITS, and so gets checked. Screenshots: a11y-routes-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { preferencesRepository, unsubscribePath } from '../../src/server/mail/preferences.js'
import { playTurn, startedGame } from '../gm/helpers.js'
import { inviteToken, lastMailTo, linksIn, PLAYERS, signIn, type Client } from '../server/helpers.js'
import { axeViolations, landmarkProblems } from './axe.js'
import { hasChromium, startStack, type Stack } from './harness.js'
import { headingProblems, invisibleFocus, sidewaysScroll, siteFrameProblems, unlabelledControls } from './page-checks.js'
import { registeredPageRoutes, routeOf } from './page-routes.js'
import { pageFor } from './people.js'

type Who = 'signed out' | 'player' | 'GM who plays' | 'newcomer' | 'invitee' | 'practice player'

interface World {
  /** Running, the GM plays: turn 1 published, turn 2 open, a message on the table. */
  race: string
  raceToken: string
  /** Turn 1 published, then rolled back: a draft under the GM's review, and withdrawn report 1. */
  review: string
  /** Ended with placings after turn 1. */
  finished: string
  finishedToken: string
  /** Created, one seat offered to the invitee. */
  setup: string
  invite: string
  practice: string
  series: string
  /** A mailed sign-in link, not yet used. */
  signInLink: string
  unsubscribe: string
}

interface Visit {
  name: string
  who: Who
  /** The route it opens, as the app registers it (`/*`: an address no other route has). */
  route: string
  path: (w: World) => string
  status?: number
}

const VISITS: Visit[] = [
  { name: 'welcome', who: 'signed out', route: '/', path: () => '/' },
  { name: 'sign-in', who: 'signed out', route: '/sign-in', path: () => '/sign-in' },
  { name: 'sign-in link, to confirm', who: 'signed out', route: '/auth/link', path: (w) => w.signInLink },
  { name: 'sign-in link, refused', who: 'signed out', route: '/auth/link', path: () => '/auth/link?token=nope', status: 400 },
  { name: 'legend', who: 'signed out', route: '/legend', path: () => '/legend' },
  { name: 'unsubscribe from a mail', who: 'signed out', route: '/mail/unsubscribe', path: (w) => w.unsubscribe },
  { name: 'invitation, signed out', who: 'signed out', route: '/invites/:token', path: (w) => `/invites/${w.invite}` },
  { name: 'not found', who: 'signed out', route: '/*', path: () => '/no-such-page', status: 404 },
  { name: 'not found, deeper', who: 'player', route: '/*', path: (w) => `/games/${w.race}/no-such-page`, status: 404 },
  { name: 'spectator: game', who: 'signed out', route: '/watch/:publicToken', path: (w) => `/watch/${w.raceToken}` },
  { name: 'spectator: report', who: 'signed out', route: '/watch/:publicToken/turns/:turn', path: (w) => `/watch/${w.raceToken}/turns/1` },
  { name: 'spectator: replay', who: 'signed out', route: '/watch/:publicToken/turns/:turn/replay/:step', path: (w) => `/watch/${w.raceToken}/turns/1/replay/1` },
  { name: 'spectator: replay, end of turn', who: 'signed out', route: '/watch/:publicToken/turns/:turn/replay/:step', path: (w) => `/watch/${w.raceToken}/turns/1/replay/end` },
  { name: 'spectator: finished game', who: 'signed out', route: '/watch/:publicToken', path: (w) => `/watch/${w.finishedToken}` },

  { name: 'my games', who: 'player', route: '/', path: () => '/' },
  { name: 'mail settings', who: 'player', route: '/settings/mail', path: () => '/settings/mail' },
  { name: 'game running', who: 'player', route: '/games/:gameId', path: (w) => `/games/${w.race}` },
  { name: 'program form', who: 'player', route: '/games/:gameId/turns/:turn/submit', path: (w) => `/games/${w.race}/turns/2/submit` },
  { name: 'published report', who: 'player', route: '/games/:gameId/turns/:turn', path: (w) => `/games/${w.race}/turns/1` },
  { name: 'replay', who: 'player', route: '/games/:gameId/turns/:turn/replay/:step', path: (w) => `/games/${w.race}/turns/1/replay/2` },
  { name: 'standings', who: 'player', route: '/games/:gameId/standings', path: (w) => `/games/${w.race}/standings` },
  { name: 'the console, not allowed', who: 'player', route: '/games/:gameId/gm', path: (w) => `/games/${w.race}/gm`, status: 403 },
  { name: 'turn waiting for the GM', who: 'player', route: '/games/:gameId/turns/:turn', path: (w) => `/games/${w.review}/turns/1` },
  { name: 'withdrawn report', who: 'player', route: '/games/:gameId/turns/:turn/withdrawn/:version', path: (w) => `/games/${w.review}/turns/1/withdrawn/1` },
  { name: 'finished game', who: 'player', route: '/games/:gameId', path: (w) => `/games/${w.finished}` },
  { name: 'final standings', who: 'player', route: '/games/:gameId/standings', path: (w) => `/games/${w.finished}/standings` },
  { name: 'a game not found', who: 'player', route: '/games/:gameId', path: () => '/games/nope', status: 404 },

  { name: 'new game', who: 'GM who plays', route: '/games/new', path: () => '/games/new' },
  { name: 'game running, GM plays', who: 'GM who plays', route: '/games/:gameId', path: (w) => `/games/${w.race}` },
  { name: 'GM\'s program form', who: 'GM who plays', route: '/games/:gameId/turns/:turn/submit', path: (w) => `/games/${w.race}/turns/2/submit` },
  { name: 'console, open turn', who: 'GM who plays', route: '/games/:gameId/gm', path: (w) => `/games/${w.race}/gm` },
  { name: 'console, draft under review', who: 'GM who plays', route: '/games/:gameId/gm', path: (w) => `/games/${w.review}/gm` },
  { name: 'draft report', who: 'GM who plays', route: '/games/:gameId/turns/:turn', path: (w) => `/games/${w.review}/turns/1` },
  { name: 'console, game over', who: 'GM who plays', route: '/games/:gameId/gm', path: (w) => `/games/${w.finished}/gm` },
  { name: 'game in setup', who: 'GM who plays', route: '/games/:gameId', path: (w) => `/games/${w.setup}` },
  { name: 'series', who: 'GM who plays', route: '/series/:seriesId', path: (w) => `/series/${w.series}` },

  { name: 'join form', who: 'invitee', route: '/invites/:token', path: (w) => `/invites/${w.invite}` },
  { name: 'asked for a name', who: 'newcomer', route: '/', path: () => '/' },
  { name: 'practice game', who: 'practice player', route: '/games/:gameId', path: (w) => `/games/${w.practice}` },
  { name: 'practice program form', who: 'practice player', route: '/games/:gameId/turns/:turn/submit', path: (w) => `/games/${w.practice}/turns/1/submit` },
]

describe('the accessibility sweep\'s list of pages', () => {
  it('opens every GET page route the app registers, and only real ones', async () => {
    const routes = await registeredPageRoutes()
    const visited = new Set(VISITS.map((v) => v.route))
    expect(routes.filter((r) => !visited.has(r)), 'page routes with no visit in a11y-routes.test.ts VISITS: add one').toEqual([])
    expect([...visited].filter((r) => !routes.includes(r)), 'visits of routes the app does not have').toEqual([])
  })
})

describe.skipIf(!hasChromium)('accessibility of every page in Chromium', () => {
  let stack: Stack
  let world: World
  let routes: string[]
  const people = new Map<Who, Client | null>([['signed out', null]])

  async function built(app: Stack['app'], clock: Stack['clock']): Promise<World> {
    const [ann, bob] = PLAYERS
    const race = await startedGame(app, { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow' }, [ann!, bob!])
    people.set('player', race.players[0]!).set('GM who plays', race.gm)
    await playTurn(app, clock, race.gm, race.gameId)
    await race.players[0]!.call('POST', `/api/v1/games/${race.gameId}/messages`, { body: 'Good luck, all.' })

    const review = await startedGame(app, {}, [ann!, bob!])
    await playTurn(app, clock, review.gm, review.gameId)
    const rolledBack = await review.gm.call('POST', `/api/v1/games/${review.gameId}/turns/1/rollback`, { reason: 'a rules fix' })
    expect(rolledBack.status, rolledBack.text).toBe(200)

    const finished = await startedGame(app, {}, [ann!, bob!])
    await playTurn(app, clock, finished.gm, finished.gameId)
    const ended = await finished.gm.call('POST', `/api/v1/games/${finished.gameId}/end`, { reason: 'time is up' })
    expect(ended.status, ended.text).toBe(200)

    const setup = await race.gm.call('POST', '/api/v1/games', { name: 'Next table', board: 'training-floor', seats: 2 })
    await race.gm.call('POST', `/api/v1/games/${setup.json.id}/invites`, { email: 'dee@example.org' })
    const invite = inviteToken(app, 'dee@example.org')
    people.set('invitee', await signIn(app, 'dee@example.org', 'Dee'))
    people.set('newcomer', await signIn(app, 'newcomer@example.org'))

    const solo = await signIn(app, 'solo@example.org', 'Solo')
    people.set('practice player', solo)
    const practice = await solo.call('POST', '/api/v1/practice', { board: 'training-floor', bots: ['greedy'] })
    const series = await race.gm.call('POST', '/api/v1/series', { name: 'Winter cup', boards: ['training-floor'], seats: ['strong', 'greedy'] })
    expect([practice.status, series.status]).toEqual([201, 201])

    await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'eve@example.org' } })
    const link = new URL(linksIn(lastMailTo(app, 'eve@example.org', 'sign-in')!.body)[0]!)
    const publicToken = (id: string) => app.services.games.byId(id)!.public_token
    return {
      race: race.gameId, raceToken: publicToken(race.gameId), review: review.gameId, finished: finished.gameId,
      finishedToken: publicToken(finished.gameId), setup: setup.json.id, invite, practice: practice.json.id,
      series: series.json.id, signInLink: `${link.pathname}${link.search}`,
      unsubscribe: unsubscribePath(preferencesRepository(app.db), 'ann@example.org'),
    }
  }

  beforeAll(async () => {
    routes = await registeredPageRoutes()
    stack = await startStack()
    world = await built(stack.app, stack.clock)
  }, 120_000)
  afterAll(async () => { await stack?.close() })

  it('finds a second h1, an untitled page, a page without skip link or menu, an unlabelled field, a focus with no ring and a page too wide', async () => {
    const page = await (await stack.context({ phone: true })).newPage()
    await page.goto(`${stack.origin}/legend`)
    const reachable = await page.evaluate(() => document.querySelectorAll('a[href], button, summary').length)
    expect(reachable).toBeGreaterThan(3)
    expect([...await headingProblems(page), ...await siteFrameProblems(page), ...await unlabelledControls(page), ...await invisibleFocus(page), ...await sidewaysScroll(page)]).toEqual([])
    await page.evaluate(() => {
      document.title = 'BotWars'
      document.querySelector('.skip')!.remove()
      document.querySelector('nav[aria-label="Main"]')!.removeAttribute('aria-label')
      document.querySelector('main')!.insertAdjacentHTML('beforeend',
        '<h1>Another</h1><input id="probe-field" aria-label="Heard only"><button id="probe-ringless" style="outline:none">Go</button><div style="width:900px">wide</div>')
    })
    expect(await headingProblems(page)).toEqual(['2 h1 headings: ["Legend","Another"]', 'the title "BotWars" does not name the page'])
    expect(await siteFrameProblems(page)).toEqual(['no skip link to the main content first in the tab order', 'no Main navigation'])
    expect(await unlabelledControls(page)).toEqual([expect.stringContaining('id="probe-field"')])
    expect(await invisibleFocus(page)).toEqual([expect.stringContaining('id="probe-ringless"')])
    expect(await sidewaysScroll(page)).toEqual([expect.stringMatching(/^the page is \d+ px wide on a 375 px screen$/)])
  })

  for (const phone of [true, false]) {
    it(`every page passes on a ${phone ? 'phone (375 px)' : 'desktop'}`, { timeout: 600_000 }, async () => {
      const pages = new Map<Who, Page>()
      const pageOf = async (who: Who) => {
        if (!pages.has(who)) {
          const client = people.get(who)
          pages.set(who, client ? await pageFor(stack, client, { phone, axe: true }) : await (await stack.context({ phone, axe: true })).newPage())
        }
        return pages.get(who)!
      }
      const problems: string[] = []
      for (const visit of VISITS) {
        const page = await pageOf(visit.who)
        const path = visit.path(world)
        const response = await page.goto(`${stack.origin}${path}`)
        const where = `${visit.who}: ${visit.name} (${path})`
        expect(response?.status(), where).toBe(visit.status ?? 200)
        expect(routeOf(routes, path.split('?')[0]!), `${where} opens its route`).toBe(visit.route)
        await stack.shot(page, `a11y-routes-${phone ? 'phone' : 'desktop'}-${visit.who}-${visit.name}`.replace(/[^a-z0-9-]+/gi, '-').toLowerCase())
        const found = [
          ...(await axeViolations(page)).lines,
          ...(await landmarkProblems(page)).problems.map((p) => `landmarks: ${p}`),
          ...await headingProblems(page),
          ...await siteFrameProblems(page),
          ...await unlabelledControls(page),
          ...await sidewaysScroll(page),
          ...await invisibleFocus(page),
        ]
        problems.push(...found.map((p) => `${where}: ${p}`))
      }
      expect(problems).toEqual([])
    })
  }
})
