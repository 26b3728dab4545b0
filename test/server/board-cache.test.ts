// The compiled boards the server keeps (services/board-cache.ts) are bounded however many games
// are read: they hold at most BOARD_CACHE_SQUARES squares together, games on the same board file
// share one, and a game whose board was let go gets the same board again (issue 17: memory stays
// bounded with 10,000 games in the database).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/server/config.js'
import { parseBoard } from '../../src/engine/board.js'
import { BOARD_CACHE_SQUARES, boardCache } from '../../src/server/services/board-cache.js'
import { seatedGame, start, user } from '../../src/testkit/games.js'
import { tempDir, testApp, type TestApp } from './helpers.js'

const BOARDS = fileURLToPath(new URL('../../boards/', import.meta.url))
const FLOOR_SQUARES = 8 * 8

let t: TestApp | undefined
afterEach(async () => { await t?.close(); t = undefined })

/** A boards folder with `count` different boards (training-floor under other names: other text). */
function boardsFolder(count: number): { dir: string; ids: string[] } {
  const dir = join(tempDir(), 'boards')
  mkdirSync(dir)
  const file = JSON.parse(readFileSync(join(BOARDS, 'training-floor.json'), 'utf8')) as { name: string }
  const ids = Array.from({ length: count }, (_, i) => `floor-${i}`)
  for (const id of ids) writeFileSync(join(dir, `${id}.json`), JSON.stringify({ ...file, name: `Floor ${id}` }))
  return { dir, ids }
}

it('keeps at most BOARD_CACHE_SQUARES squares of boards while pictures of many games on many boards are drawn', async () => {
  const { dir, ids } = boardsFolder(10)
  const squares = 3 * FLOOR_SQUARES
  const data = tempDir()
  t = await testApp({
    dir: data, boardsDir: dir,
    config: { databasePath: join(data, 'botwars.db'), dataDir: data, smtpUrl: undefined, baseUrl: 'http://botwars.test', sessionSecret: 's'.repeat(40), mailFrom: 'BotWars <gm@botwars.test>', boardCacheSquares: squares },
  })
  const ctx = t.app.services
  const gm = user(ctx, 'gm@example.org', 'GM')
  const games = Array.from({ length: 30 }, (_, g) => {
    const game = seatedGame(ctx, gm, [user(ctx, `a${g}@example.org`), user(ctx, `b${g}@example.org`)], { name: `G${g}`, board: ids[g % ids.length] })
    start(ctx, game, gm)
    return ctx.games.byId(game.id)!
  })
  const pictures: string[] = []
  for (const game of games) {
    const picture = await t.app.inject({ method: 'GET', url: `/watch/${game.public_token}/pictures/board.svg` })
    expect(picture.statusCode).toBe(200)
    pictures.push(picture.body)
    expect(ctx.boards.squares).toBeLessThanOrEqual(squares)
    expect(ctx.boards.boards).toBe(3)
  }
  // A game whose board was let go gets it again, the same as before.
  const first = games[0]!
  const again = await t.app.inject({ method: 'GET', url: `/watch/${first.public_token}/pictures/board.svg` })
  expect(again.statusCode).toBe(200)
  expect(again.body).toBe(pictures[0])
  expect(ctx.board(first).name).toBe('Floor floor-0')
})

it('lets games on the same board file share one compiled board', async () => {
  t = await testApp()
  const ctx = t.app.services
  const gm = user(ctx, 'gm@example.org', 'GM')
  const [a, b, c] = ['conveyor-works', 'conveyor-works', 'the-foundry'].map((board, g) =>
    seatedGame(ctx, gm, [user(ctx, `a${g}@example.org`), user(ctx, `b${g}@example.org`)], { name: `G${g}`, board }))
  expect(ctx.board(a!)).toBe(ctx.board(b!))
  expect(ctx.board(c!)).not.toBe(ctx.board(a!))
  expect(ctx.boards.boards).toBe(2)
})

it('keeps the board just used even when it alone is over the bound', () => {
  const cache = boardCache(1)
  const file = readFileSync(join(BOARDS, 'training-floor.json'), 'utf8')
  const parsed = parseBoard(JSON.parse(file))
  if (!parsed.ok) throw new Error(parsed.error)
  const a = cache.get({ id: 'a', board_json: file }, () => parsed.value)
  expect(cache.get({ id: 'b', board_json: file }, () => { throw new Error('compiled again') })).toBe(a)
  expect([cache.boards, cache.squares]).toEqual([1, FLOOR_SQUARES])
})

it('reads BOARD_CACHE_SQUARES from the environment, and refuses a bound below one', () => {
  const env = { DATABASE_PATH: join(tempDir(), 'x.db'), SESSION_SECRET: 's'.repeat(40) }
  expect(loadConfig(env).boardCacheSquares).toBe(BOARD_CACHE_SQUARES)
  expect(loadConfig({ ...env, BOARD_CACHE_SQUARES: '2500' }).boardCacheSquares).toBe(2500)
  expect(() => loadConfig({ ...env, BOARD_CACHE_SQUARES: '0' })).toThrow(ConfigError)
  expect(() => loadConfig({ ...env, BOARD_CACHE_SQUARES: '0' })).toThrow(/BOARD_CACHE_SQUARES/)
})
