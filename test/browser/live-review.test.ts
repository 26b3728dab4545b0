// A turn under the GM's review, in Chromium: the players table's Program column said "not yet" for
// every player (found following the README: both programs were in and the turn had closed). The
// page rendered "–", then the live stream's first update, whose list of submissions is empty once
// the turn is no longer open, marked every row as owing a program.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLAYERS, setUpGame, type Client } from '../server/helpers.js'
import { hasChromium, startStack, type Stack } from './harness.js'
import { pageFor, text } from './people.js'

describe.skipIf(!hasChromium)('the game page while the GM reviews a turn', () => {
  let stack: Stack
  let gameId: string
  let players: Client[]
  beforeAll(async () => {
    stack = await startStack()
    const set = await setUpGame(stack.app, PLAYERS.slice(0, 2), { reviewWindowHours: 48 })
    ;({ gameId, players } = set)
    expect((await set.gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: '' })).status).toBe(200)
    for (const who of players) {
      const hand = (await who.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me.hand as string[]
      expect((await who.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: hand.slice(0, 5) })).status).toBe(201)
    }
    await stack.app.runDueWork()
    expect(stack.app.services.turns.current(gameId)!.status).toBe('draft')
  })
  afterAll(async () => { await stack?.close() })

  it('does not tell a player that programs already in are "not yet" in', { timeout: 60_000 }, async () => {
    const page = await pageFor(stack, players[0]!)
    await page.goto(`${stack.origin}/games/${gameId}`)
    // The live script marks the body once the stream's first update has been applied.
    await page.locator('body[data-live-state]').waitFor({ state: 'attached' })
    expect(await text(page.locator('.turn-box, main').first())).toContain('under GM review')
    const cells = await page.locator('table.players td.submitted').allInnerTexts()
    expect(cells).toHaveLength(2)
    expect(cells.map((c) => c.trim())).toEqual(['–', '–'])
    await stack.shot(page, 'live-review-players-table', 'table.players')
  })
})
