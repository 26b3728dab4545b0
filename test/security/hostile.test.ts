// Hostile names and board files: script tags in a person's name, a robot's name, a game's name and
// an uploaded board's name and teleporter colour are shown as text on every page and picture;
// boards too large, with too many elements, deeply nested or not boards at all are refused (400),
// and a board at the limits is taken and drawn.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PLAYERS, setUpGame, testApp, type Client, type TestApp } from '../server/helpers.js'
import { MAX_BOARD_ELEMENTS, MAX_BOARD_SIDE } from '../../src/engine/board.js'
import { MAX_BOARD_NAME, MAX_TELEPORTER_COLOUR } from '../../src/server/services/games.js'

const SCRIPT = '<script>alert(1)</script>'
const ATTR = '"><img src=x onerror=alert(2)>'
let t: TestApp
let gm: Client
let gameId: string
const training = JSON.parse(readFileSync(new URL('../../boards/training-floor.json', import.meta.url), 'utf8'))

beforeAll(async () => {
  t = await testApp()
  const players = PLAYERS.slice(0, 2).map((p, i) => ({ ...p, name: i === 0 ? SCRIPT : ATTR }))
  const set = await setUpGame(t.app, players, { name: `Game ${SCRIPT}`, board: undefined, boardFile: { ...training, name: `Board ${ATTR}`, elements: [...training.elements, { type: 'teleporter', at: 'r2c2', colour: SCRIPT }] } })
  gm = set.gm
  gameId = set.gameId
  await gm.call('PATCH', '/api/v1/me', { name: `GM ${SCRIPT}` })
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: SCRIPT })).status).toBe(200)
  // One published turn, so the report pages exist.
  t.clock.now += 6 * 24 * 3600_000
  t.app.runDueWork()
  await gm.call('POST', `/api/v1/games/${gameId}/turns/1/publish`, { reason: ATTR })
})
afterAll(async () => { await t.close() })

it('keeps hostile names as data in the API', async () => {
  const game = (await gm.call('GET', `/api/v1/games/${gameId}`)).json
  expect(game.name).toBe(`Game ${SCRIPT}`)
  expect(game.seats.map((s: { name: string }) => s.name)).toEqual([SCRIPT, ATTR])
})

it('shows hostile names as text on every page and picture', async () => {
  const game = (await gm.call('GET', `/api/v1/games/${gameId}`)).json
  const urls = [`/games/${gameId}`, `/games/${gameId}/gm`, `/games/${gameId}/turns/1`, `/games/${gameId}/turns/2/submit`, `/games/${gameId}/turns/1/replay/1`,
    `/watch/${game.publicToken}`, `/watch/${game.publicToken}/turns/1`, '/', `/games/${gameId}/pictures/board.svg`, `/games/${gameId}/turns/1/pictures/1.svg`]
  let pages = 0
  for (const url of urls) {
    const res = await t.app.inject({ method: 'GET', url, headers: { cookie: gm.headers.cookie! } })
    if (res.statusCode === 404 || (res.statusCode >= 300 && res.statusCode < 400)) continue
    expect(res.statusCode, url).toBe(200)
    pages++
    expect(res.body, url).not.toContain('<script>alert')
    expect(res.body, url).not.toContain('<img src=x')
    expect(res.body, url).not.toMatch(/onerror=alert\(2\)>/)
  }
  expect(pages).toBeGreaterThanOrEqual(7)
  const page = await t.app.inject({ method: 'GET', url: `/games/${gameId}`, headers: { cookie: gm.headers.cookie! } })
  expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
})

it('refuses boards too large, with too many elements, nested or not boards at all', async () => {
  const create = (boardFile: unknown) => gm.call('POST', '/api/v1/games', { name: 'Hostile board', seats: 2, boardFile })
  const many = Array.from({ length: MAX_BOARD_ELEMENTS + 1 }, (_, i) => ({ type: 'pit', at: `r${1 + (i % 8)}c${1 + ((i >> 3) % 8)}` }))
  const cases: [string, unknown][] = [
    ['a side over the limit', { ...training, rows: MAX_BOARD_SIDE + 1 }],
    ['a million squares', { ...training, rows: 1000, cols: 1000 }],
    ['negative size', { ...training, rows: -8 }],
    [`${MAX_BOARD_ELEMENTS + 1} elements`, { ...training, elements: many }],
    ['an element off the board', { ...training, elements: [{ type: 'pit', at: 'r99c99' }] }],
    ['a board name longer than a game shows', { ...training, name: 'n'.repeat(MAX_BOARD_NAME + 1) }],
    ['a teleporter colour longer than a game shows', { ...training, elements: [...training.elements, { type: 'teleporter', at: 'r2c2', colour: 'c'.repeat(MAX_TELEPORTER_COLOUR + 1) }] }],
    ['a misspelt board field', { ...training, elments: [] }],
    ['an element with a misspelt field', { ...training, elements: [{ type: 'laser', at: 'r2c2', dir: 'N', colour: 'red', strenght: 3 }] }],
    ['an unknown element', { ...training, elements: [{ type: '__proto__', at: 'r2c2' }] }],
    ['a deeply nested element', { ...training, elements: [JSON.parse('['.repeat(500) + ']'.repeat(500))] }],
    ['a string', 'not a board'],
    ['null', null],
    ['a switch with a thousand targets', { ...training, elements: [{ type: 'switch', at: 'r2c2', kind: 'conveyors', targets: Array(1000).fill('r3c3') }] }],
  ]
  for (const [what, board] of cases) {
    const res = await create(board)
    expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBe(400)
    expect(res.json.field).toMatch(/^boardFile/)
  }
})

it('takes a board at the limits and draws it', async () => {
  const side = MAX_BOARD_SIDE
  const elements: unknown[] = []
  for (let r = 2; r <= side && elements.length < 2400; r++) for (let c = 1; c <= side && elements.length < 2400; c++) elements.push({ type: 'wall', at: `r${r}c${c}`, side: 'N' })
  const res = await gm.call('POST', '/api/v1/games', { name: 'Big board', seats: 2, boardFile: { ...training, name: 'Big', rows: side, cols: side, elements: [...training.elements, ...elements] } })
  expect(res.status, res.text.slice(0, 200)).toBe(201)
  const picture = await t.app.inject({ method: 'GET', url: `/games/${res.json.id}/pictures/board.svg`, headers: { cookie: gm.headers.cookie! } })
  expect([200, 404]).toContain(picture.statusCode)
  const page = await t.app.inject({ method: 'GET', url: `/games/${res.json.id}`, headers: { cookie: gm.headers.cookie! } })
  expect(page.statusCode).toBe(200)
})
