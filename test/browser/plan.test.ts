// Planning on the board (issue 13): the "my turn" form shows the board with the player's robot
// ringed, and with JavaScript a preview plays the program so far on the project's own rules
// engine, bundled for the browser. What the preview shows after each register is checked against
// what the engine resolves in Node for that robot alone on that board; the form still works with
// plain selects and a static picture without JavaScript; the GM can turn the preview off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileBoard, parseBoard } from '../../src/engine/board.js'
import { parseCard } from '../../src/engine/deck.js'
import { formatSquare } from '../../src/engine/geometry.js'
import { resolveTurn } from '../../src/engine/turn.js'
import type { Card, GameState } from '../../src/engine/types.js'
import { dealtState } from '../../src/server/services/deal.js'
import { PLAYERS, setUpGame, type Client } from '../server/helpers.js'
import { hasChromium, PHONE, DESKTOP, startStack, type Stack } from './harness.js'
import { go, pageFor, text } from './people.js'

/** Moves first, so the robot goes somewhere: the hand's order otherwise. */
const ORDER = ['FWD3', 'FWD2', 'FWD1', 'RT90', 'LF90', 'RVS1', 'UTRN']
const rank = (text: string) => { const i = ORDER.indexOf(text.split(':')[0]!); return i < 0 ? ORDER.length : i }

describe.skipIf(!hasChromium)('planning on the board in Chromium', () => {
  let stack: Stack
  let gameId: string
  let ann: Client
  let gm: Client
  beforeAll(async () => {
    stack = await startStack()
    const set = await setUpGame(stack.app, PLAYERS.slice(0, 2), { board: 'conveyor-works' })
    gameId = set.gameId
    ann = set.players[0]!
    gm = set.gm
    const started = await set.gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: '' })
    expect(started.status).toBe(200)
    // Ann's robot stands south of an express conveyor (r4c8 runs west), a real robot facing north,
    // so her moves meet board elements; the other robot stays on the start square.
    const turn = stack.app.services.turns.current(gameId)!
    const dealt = dealtState(turn)
    const annId = dealt.robots[0]!.player
    dealt.robots = dealt.robots.map((r) => (r.player === annId ? { ...r, at: { row: 3, col: 8 }, facing: 'N', mode: 'real' } : r))
    stack.app.db.prepare('UPDATE turns SET dealt_state_json = ? WHERE id = ?').run(JSON.stringify(dealt), turn.id)
  })
  afterAll(async () => { await stack?.close() })

  it('predicts, register by register, the square the engine resolves for the robot alone', { timeout: 120_000 }, async () => {
    const page = await pageFor(stack, ann)
    await page.goto(`${stack.origin}/games/${gameId}/turns/1/submit`)
    expect(await page.locator('.plan-board svg .robot.mine').getAttribute('data-square')).toBe('r3c8')
    await page.locator('#plan-preview').waitFor({ state: 'visible' })
    expect(await text(page.locator('#plan-preview'))).toContain('Other robots are not predicted')
    // The preview script never holds up the first paint.
    expect(await page.locator('script[src*="/static/plan.js"]').getAttribute('defer')).not.toBeNull()

    // What the engine says in Node: the dealt state with Ann's robot alone, her five cards.
    const turn = stack.app.services.turns.current(gameId)!
    const dealt = dealtState(turn)
    const me = dealt.robots[0]!
    const hand = [...(dealt.hands[me.player] ?? [])].map((c) => `${c.kind}:${c.priority}`).sort((a, b) => rank(a) - rank(b))
    const program = hand.slice(0, 5)
    const game = stack.app.services.games.byId(gameId)!
    const parsed = parseBoard(JSON.parse(game.board_json))
    if (!parsed.ok) throw new Error(parsed.error)
    const alone: GameState = { ...dealt, robots: [me], hands: {} }
    const engine = resolveTurn(compileBoard(parsed.value), alone, { [me.player]: { cards: program.map((c) => parseCard(c)!) as Card[], rebootNext: false } })
    // The page hands the preview only the board, its state, Ann's own robot and where the others stand.
    const handed = JSON.parse((await page.locator('#preview-data').textContent())!) as Record<string, unknown>
    expect(Object.keys(handed).sort()).toEqual(['board', 'boardState', 'colours', 'me', 'names', 'others', 'title', 'turn'])
    expect((handed.others as object[]).map((o) => Object.keys(o).sort())).toEqual([['at', 'facing', 'hp', 'mode', 'player', 'rebooting']])
    const bobsHand = dealt.hands[dealt.robots[1]!.player]!.map((c) => `${c.kind}:${c.priority}`)
    const html = await page.content()
    for (const card of bobsHand) if (!hand.includes(card)) expect(html).not.toContain(card)
    const expected = engine.stages.map((s) => (s.robots[0]!.at ? formatSquare(s.robots[0]!.at) : 'destroyed'))

    for (let k = 1; k <= expected.length; k++) {
      await page.locator(`#r${k}`).selectOption(program[k - 1]!)
      const step = page.locator(`.plan-steps li[data-stage="${k}"][data-card="yes"]`)
      await step.waitFor()
      expect(await step.getAttribute('data-square'), `after register ${k}`).toBe(expected[k - 1])
      expect(await step.getAttribute('data-facing')).toBe(engine.stages[k - 1]!.robots[0]!.facing)
      // The picture shows the stage just filled, with the robot's numbered stop where the engine put it.
      if (expected[k - 1] !== 'destroyed') {
        expect(await page.locator(`.plan-board .preview-stop.current[data-stage="${k}"]`).getAttribute('data-square')).toBe(expected[k - 1])
      }
    }
    expect(await text(page.locator('.plan-summary'))).toContain(`After stage ${expected.length}`)
    await stack.shot(page, 'plan-desktop-1-all-registers')

    // Step through the stages: the picture follows, and says which stage it shows.
    await page.getByRole('button', { name: 'Stage 2' }).click()
    expect(await page.getByRole('button', { name: 'Stage 2' }).getAttribute('aria-pressed')).toBe('true')
    expect(await page.locator('.plan-board svg title').first().textContent()).toBe('Your plan: after stage 2')
    expect(await text(page.locator('.plan-summary'))).toContain('After stage 2')
    await stack.shot(page, 'plan-desktop-2-stage-2', '.plan-board-col')
    await page.getByRole('button', { name: 'Now' }).click()
    expect(await page.locator('.plan-board svg .robot.mine').getAttribute('data-square')).toBe('r3c8')

    // A card already in another register swaps places, and the page says so.
    const first = await page.locator('#r1').inputValue()
    const second = await page.locator('#r2').inputValue()
    await page.locator('#r2').selectOption(first)
    expect(await page.locator('#r1').inputValue()).toBe(second)
    expect(await text(page.locator('#register-note'))).toMatch(/^Swapped: .+ went to register 2, and .+ to register 1\.$/)
    expect(await text(page.locator('#register-note'))).not.toMatch(/[A-Z]{3}\d:\d/)

    // On a phone the board comes below the registers, and the Store button stays on screen.
    await page.setViewportSize(PHONE)
    const registersBottom = (await page.locator('.registers').boundingBox())!.y
    expect((await page.locator('.plan-board').boundingBox())!.y).toBeGreaterThan(registersBottom)
    await page.locator('.plan-board').scrollIntoViewIfNeeded()
    const store = (await page.locator('#store-program').boundingBox())!
    expect(store.y + store.height).toBeLessThanOrEqual(PHONE.height + 1)
    expect(store.y).toBeGreaterThan(0)
    await stack.shot(page, 'plan-phone-1-form')
    await page.screenshot({ path: `${process.cwd()}/test-results/screenshots/plan-phone-2-viewport.png` })
    await page.setViewportSize(DESKTOP)
  })

  it('stays under 200 KB on a first visit, pictures and the preview included', { timeout: 120_000 }, async () => {
    const page = await pageFor(stack, ann)
    const sizes: Promise<number>[] = []
    page.on('requestfinished', (request) => { sizes.push(request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize)) })
    await page.goto(`${stack.origin}/games/${gameId}/turns/1/submit`)
    await page.locator('#plan-preview').waitFor({ state: 'visible' })
    const total = (await Promise.all(sizes)).reduce((a, b) => a + b, 0)
    console.log(`form page, first visit: ${(total / 1024).toFixed(1)} KiB transferred in ${sizes.length} responses`)
    expect(total).toBeLessThan(200 * 1024)
  })

  it('works without JavaScript, with the static picture and no preview', { timeout: 120_000 }, async () => {
    const page = await pageFor(stack, ann, { phone: true, javaScript: false })
    await page.goto(`${stack.origin}/games/${gameId}/turns/1/submit`)
    expect(await page.locator('.plan-board svg .robot.mine').getAttribute('data-square')).toBe('r3c8')
    expect(await page.locator('#plan-preview').isVisible()).toBe(false)
    const options = await page.locator('#r1 option').allTextContents()
    expect(options.slice(1).every((o) => /^[A-Z][a-z -]+ \d?\s?\(\d+\)$|^[A-Z][A-Za-z -]+ \(\d+\)$/.test(o.trim()))).toBe(true)
    for (let k = 1; k <= 5; k++) await page.locator(`#r${k}`).selectOption({ index: k })
    await go(page, () => page.locator('#store-program').click())
    expect(await text(page.locator('#stored'))).toContain('Your program is stored')
    await stack.shot(page, 'plan-phone-3-no-js-stored')
  })

  it('shows no preview when the GM turned it off', { timeout: 120_000 }, async () => {
    const gm = stack.app.services
    const other = await setUpGame(stack.app, [{ email: 'dee@example.org', name: 'Dee', colour: 'teal' }, { email: 'eve@example.org', name: 'Eve', colour: 'pink' }], { pathPreview: false })
    expect((await other.gm.call('POST', `/api/v1/games/${other.gameId}/start`, { reason: '' })).status).toBe(200)
    expect(gm.games.byId(other.gameId)!.path_preview).toBe(0)
    const page = await pageFor(stack, other.players[0]!)
    await page.goto(`${stack.origin}/games/${other.gameId}/turns/1/submit`)
    expect(await page.locator('.plan-board svg .robot.mine').count()).toBe(1)
    expect(await page.locator('#preview-data').count()).toBe(0)
    expect(await page.locator('script[src*="plan.js"]').count()).toBe(0)
    expect(await text(page.locator('.plan-board-col'))).toContain('The GM has turned the path preview off for this game.')
  })

  it('lets the GM turn the preview off and on again in the console at any time, logged', { timeout: 120_000 }, async () => {
    const gmPage = await pageFor(stack, gm)
    const annPage = await pageFor(stack, ann)
    const form = `${stack.origin}/games/${gameId}/turns/1/submit`
    await annPage.goto(form)
    await annPage.locator('#plan-preview').waitFor({ state: 'visible' })

    // Off, mid-game, from the console.
    await gmPage.goto(`${stack.origin}/games/${gameId}/gm`)
    expect(await text(gmPage.locator('#preview-state'))).toContain('Players see where their program would take their robot')
    await gmPage.locator('#preview-reason').fill('Too much help for this table')
    await go(gmPage, () => gmPage.getByRole('button', { name: 'Turn the preview off' }).click())
    expect(await text(gmPage.locator('#done'))).toContain('The path preview setting is saved')
    expect(await text(gmPage.locator('#preview-state'))).toContain('Players do not see where')
    expect(await text(gmPage.locator('ol.log li').first())).toContain('preview-off: Too much help for this table')
    await stack.shot(gmPage, 'plan-desktop-4-console-preview-off', 'section[aria-labelledby="preview-heading"]')
    expect(stack.app.services.games.byId(gameId)!.path_preview).toBe(0)

    // Ann's form: the static board only, and it says why.
    await annPage.goto(form)
    expect(await annPage.locator('.plan-board svg .robot.mine').count()).toBe(1)
    expect(await annPage.locator('#preview-data').count()).toBe(0)
    expect(await annPage.locator('#plan-preview').count()).toBe(0)
    expect(await annPage.locator('script[src*="plan.js"]').count()).toBe(0)
    expect(await text(annPage.locator('.plan-board-col'))).toContain('The GM has turned the path preview off for this game.')
    await stack.shot(annPage, 'plan-desktop-5-preview-off')

    // On again: the preview is back.
    await go(gmPage, () => gmPage.getByRole('button', { name: 'Turn the preview on' }).click())
    expect(await text(gmPage.locator('ol.log li').first())).toMatch(/preview-on:/)
    await annPage.goto(form)
    await annPage.locator('#plan-preview').waitFor({ state: 'visible' })
    expect(await text(annPage.locator('.plan-board-col'))).not.toContain('turned the path preview off')
  })

  it('lets the GM change the preview through the API settings, and nobody else', async () => {
    const off = await gm.call('POST', `/api/v1/games/${gameId}/settings`, { pathPreview: false, reason: 'API' })
    expect(off.status).toBe(200)
    expect(off.json.pathPreview).toBe(false)
    const actions = stack.app.services.games.actions(gameId).map((a) => a.action)
    expect(actions.at(-1)).toBe('preview-off')
    expect(actions.at(-2)).not.toBe('settings') // only the preview changed: logged once, as that
    const refused = await ann.call('POST', `/api/v1/games/${gameId}/settings`, { pathPreview: true })
    expect(refused.status).toBe(403)
    expect(stack.app.services.games.byId(gameId)!.path_preview).toBe(0)
    const bad = await gm.call('POST', `/api/v1/games/${gameId}/settings`, { pathPreview: 'yes' })
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('pathPreview')
    const on = await gm.call('POST', `/api/v1/games/${gameId}/settings`, { pathPreview: true })
    expect(on.json.pathPreview).toBe(true)
  })
})
