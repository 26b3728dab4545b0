// How much memory the published turn page cache (services/published-pages.ts) holds when many
// different report pages are asked for: each published turn of up to --pages games is viewed once
// by one of its players (a page per turn and seat), through the real app (inject, no network).
// Prints the cache's pages and bytes and the process's RSS and heap as it fills, then after a
// garbage collection. Figures, never assertions.
//
//   node --expose-gc --import tsx bench/page-cache-memory.ts [--db FILE] [--pages 4000] [--games 300]
// With --db (e.g. data/seed-10k.db from `npm run seed`) a copy of FILE is used and its published
// turns are viewed; without it, --games 4-player games with 5 published turns each are made first.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { buildApp } from '../src/server/app.js'
import { SESSION_TTL_MS } from '../src/server/services/auth.js'
import { PUBLISHED_PAGES_MAX_BYTES, PUBLISHED_PAGES_MAX_ENTRIES, publishedPages } from '../src/server/services/published-pages.js'
import { playTurn, seatedGame, start, user } from '../src/testkit/games.js'

const { values } = parseArgs({ options: { db: { type: 'string' }, pages: { type: 'string', default: '4000' }, games: { type: 'string', default: '300' } } })
const dir = mkdtempSync(join(tmpdir(), 'botwars-cache-mem-'))
const dbPath = join(dir, 'botwars.db')
if (values.db) {
  copyFileSync(values.db, dbPath)
  for (const ext of ['-wal', '-shm']) if (existsSync(values.db + ext)) copyFileSync(values.db + ext, dbPath + ext)
}
const app = await buildApp({
  config: { databasePath: dbPath, dataDir: dir, smtpUrl: undefined, baseUrl: 'http://127.0.0.1', sessionSecret: 'm'.repeat(40), mailFrom: 'BotWars <bench@127.0.0.1>' },
  logger: false, loginRateLimit: 1_000_000,
})
const ctx = app.services
const gc = (globalThis as { gc?: () => void }).gc
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`

try {
  if (!values.db) {
    const gm = user(ctx, 'mem-gm@example.org', 'GM')
    app.db.transaction(() => {
      for (let g = 0; g < Number(values.games); g++) {
        const game = seatedGame(ctx, gm, Array.from({ length: 4 }, (_, i) => user(ctx, `mem-${g}-${i}@example.org`)), { name: `Memory ${g}` })
        start(ctx, game, gm)
        for (let t = 0; t < 5; t++) playTurn(ctx, game.id)
      }
    })()
  }
  const gamesInDb = (app.db.prepare('SELECT count(*) AS n FROM games').get() as { n: number }).n
  // One viewer per published turn: its first seated player (a page is kept per turn and seat).
  const views = app.db.prepare(`SELECT t.game_id AS gameId, t.number AS number, min(s.user_id) AS userId FROM turns t
      JOIN seats s ON s.game_id = t.game_id AND s.user_id IS NOT NULL WHERE t.status = 'published' GROUP BY t.id LIMIT ?`)
    .all(Number(values.pages)) as { gameId: string; number: number; userId: number }[]
  const cookies = new Map<number, string>()
  const cookieOf = (userId: number) => {
    let c = cookies.get(userId)
    if (!c) cookies.set(userId, c = `botwars_session=${app.signCookie(ctx.users.createSession(userId, ctx.now(), SESSION_TTL_MS))}`)
    return c
  }
  const store = publishedPages(ctx)
  gc?.()
  const start0 = process.memoryUsage()
  console.log(`cache memory: ${gamesInDb.toLocaleString('en')} games in the database, ${views.length.toLocaleString('en')} published turns to view; bound ${PUBLISHED_PAGES_MAX_ENTRIES.toLocaleString('en')} pages, ${mb(PUBLISHED_PAGES_MAX_BYTES)}`)
  console.log(`cache memory: before: RSS ${mb(start0.rss)}, heap ${mb(start0.heapUsed)}, buffers ${mb(start0.arrayBuffers)}`)
  let n = 0
  for (const v of views) {
    const res = await app.inject({ method: 'GET', url: `/games/${v.gameId}/turns/${v.number}`, headers: { cookie: cookieOf(v.userId), 'accept-encoding': 'gzip' } })
    if (res.statusCode !== 200) throw new Error(`/games/${v.gameId}/turns/${v.number}: ${res.statusCode}`)
    if (++n % 500 === 0 || n === views.length) {
      const m = process.memoryUsage()
      console.log(`cache memory: ${n.toLocaleString('en')} pages viewed: cache ${store.size.toLocaleString('en')} pages, ${mb(store.bytes)}; RSS ${mb(m.rss)}, heap ${mb(m.heapUsed)}, buffers ${mb(m.arrayBuffers)}`)
    }
  }
  gc?.()
  const end = process.memoryUsage()
  console.log(`cache memory: after a collection: cache ${store.size.toLocaleString('en')} pages, ${mb(store.bytes)} (${mb(store.bytes / Math.max(1, store.size))} a page); RSS ${mb(end.rss)} (+${mb(end.rss - start0.rss)}), heap ${mb(end.heapUsed)}, buffers ${mb(end.arrayBuffers)} (+${mb(end.arrayBuffers - start0.arrayBuffers)})`)
} finally {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
}
