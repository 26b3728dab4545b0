// Memory of the real server over a large database (issue 17: "memory stays bounded with 10,000
// games in the database"). Copies the database to a temp directory, makes sessions and API tokens
// for players spread over as many games as possible, starts src/server/server.ts unchanged (with
// bench/memory-sampler.ts loaded beside it, which writes process.memoryUsage() every few seconds),
// and drives it for a while with requests that touch many games: game pages, published turn
// reports (members and spectators), pictures (SVG, some PNG), the JSON API, program submissions
// and live streams that come and go. Prints the samples and a summary (start, plateau, max).
//
//   flock /work/notes/bench.lock nice npx tsx bench/memory-10k.ts --db data/seed-10k.db [--seconds 300]
//     [--connections 8] [--players 4000] [--sample-ms 2000] [--gc] [--server DIR] [--json FILE]
// `--gc`: a full collection before each sample (node --expose-gc), so heapUsed is the live data.
// `--server DIR`: run DIR/src/server/server.ts instead of this checkout's (a copy of an older
// commit, to compare). The database given is never written.
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { sign } from '@fastify/cookie'
import { Generator, seedRandom } from '../src/engine/random.js'
import { openDatabase } from '../src/server/plugins/db.js'
import { SESSION_COOKIE } from '../src/server/plugins/session.js'
import { SESSION_TTL_MS } from '../src/server/services/auth.js'
import { createContext } from '../src/server/services/context.js'
import { legalProgram } from '../src/testkit/games.js'

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'data/seed-10k.db' }, seconds: { type: 'string', default: '300' },
    connections: { type: 'string', default: '8' }, players: { type: 'string', default: '4000' },
    'sample-ms': { type: 'string', default: '2000' }, server: { type: 'string' }, json: { type: 'string' },
    gc: { type: 'boolean', default: false },
  },
})
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SECRET = 'm'.repeat(40)
const seconds = Number(values.seconds)
const connections = Number(values.connections)

// ---- the database copy, and who plays -----------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), 'botwars-memory-'))
const dbPath = join(dir, 'botwars.db')
copyFileSync(values.db!, dbPath)
for (const ext of ['-wal', '-shm']) if (existsSync(values.db + ext)) copyFileSync(values.db + ext, dbPath + ext)

interface Seat { gameId: string; player: string; cookie: string; token: string; published: number[]; open: { turn: number; body: string } | null }
interface Game { id: string; publicToken: string; published: number[] }

const db = openDatabase(dbPath)
const ctx = createContext({ db, now: Date.now, baseUrl: 'http://127.0.0.1', boardsDir: join(ROOT, 'boards') })
const publishedOf = new Map<string, number[]>()
for (const row of db.prepare("SELECT game_id, number FROM turns WHERE status = 'published' ORDER BY game_id, number").all() as { game_id: string; number: number }[]) {
  let list = publishedOf.get(row.game_id)
  if (!list) publishedOf.set(row.game_id, (list = []))
  list.push(row.number)
}
const games: Game[] = (db.prepare('SELECT id, public_token FROM games').all() as { id: string; public_token: string }[])
  .map((g) => ({ id: g.id, publicToken: g.public_token, published: publishedOf.get(g.id) ?? [] }))
// One seat per game first (as many games as possible), in a fixed pseudo-random order.
const seatRows = db.prepare(`SELECT game_id, player_id, user_id FROM (
    SELECT s.game_id, s.player_id, s.user_id, row_number() OVER (PARTITION BY s.game_id ORDER BY s.seat_no) AS k
    FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id IS NOT NULL AND g.status = 'running')
  ORDER BY k, (abs(user_id * 2654435761) % 1000003) LIMIT ?`).all(Number(values.players)) as { game_id: string; player_id: string; user_id: number }[]
const seats: Seat[] = db.transaction(() => seatRows.map((s) => {
  const program = legalProgram(ctx, s.game_id, s.player_id)
  return {
    gameId: s.game_id, player: s.player_id,
    cookie: `${SESSION_COOKIE}=${sign(ctx.users.createSession(s.user_id, Date.now(), SESSION_TTL_MS), SECRET)}`,
    token: ctx.users.createApiToken(s.user_id, s.game_id, Date.now()),
    published: publishedOf.get(s.game_id) ?? [],
    open: program ? { turn: program.turn, body: JSON.stringify({ cards: program.cards }) } : null,
  }
}))()
db.pragma('wal_checkpoint(TRUNCATE)')
db.close()
console.log(`${games.length} games in the database; driving ${seats.length} players in ${new Set(seats.map((s) => s.gameId)).size} games and spectators of all games`)

// ---- the server ---------------------------------------------------------------------------
const port = await new Promise<number>((done) => {
  const probe = createServer().listen(0, '127.0.0.1', () => { const { port } = probe.address() as { port: number }; probe.close(() => done(port)) })
})
const samplesFile = join(dir, 'samples.jsonl')
const serverRoot = resolve(values.server ?? ROOT)
const spawnedAt = Date.now()
const server = spawn(process.execPath, [...(values.gc ? ['--expose-gc'] : []), '--import', 'tsx', '--import', join(ROOT, 'bench/memory-sampler.ts'), join(serverRoot, 'src/server/server.ts')], {
  cwd: serverRoot,
  env: {
    ...process.env, DATABASE_PATH: dbPath, PORT: String(port), HOST: '127.0.0.1', SESSION_SECRET: SECRET, LOG_LEVEL: 'warn',
    BASE_URL: `http://127.0.0.1:${port}`, BOTWARS_MEMORY_SAMPLES: samplesFile, BOTWARS_MEMORY_SAMPLE_MS: values['sample-ms'],
    BOTWARS_MEMORY_GC: values.gc ? '1' : '0',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
})
const base = `http://127.0.0.1:${port}`
for (let i = 0; ; i++) {
  try { if ((await fetch(`${base}/`)).ok) break } catch { /* not listening yet */ }
  if (i > 600) throw new Error('the server did not start')
  await new Promise((r) => setTimeout(r, 100))
}
const startedAt = Date.now()

// ---- the requests -------------------------------------------------------------------------
// The engine's seeded generator (an LCG in doubles loses its low bits past 2^53 and revisits few games).
const generator = new Generator(seedRandom(20261123))
const rand = (n: number) => generator.int(0, n - 1)
const pick = <T>(list: readonly T[]): T => list[rand(list.length)]!
const PICTURES = ['start', 'after-1', 'after-2', 'after-3', 'after-4', 'after-5', 'end']
const gamesWithTurns = games.filter((g) => g.published.length > 0)
const seatsWithTurns = seats.filter((s) => s.published.length > 0)
const seatsOpen = seats.filter((s) => s.open)

type Request = { kind: string; game: string; url: string; init?: RequestInit }
const KINDS: [weight: number, make: () => Request][] = [
  [20, () => { const s = pick(seats); return { kind: 'game page', game: s.gameId, url: `/games/${s.gameId}`, init: { headers: { cookie: s.cookie } } } }],
  [20, () => { const s = pick(seatsWithTurns); return { kind: 'turn report (member)', game: s.gameId, url: `/games/${s.gameId}/turns/${pick(s.published)}`, init: { headers: { cookie: s.cookie, 'accept-encoding': 'gzip' } } } }],
  [12, () => { const g = pick(gamesWithTurns); return { kind: 'turn report (spectator)', game: g.id, url: `/watch/${g.publicToken}/turns/${pick(g.published)}`, init: { headers: { 'accept-encoding': 'gzip' } } } }],
  [6, () => { const g = pick(games); return { kind: 'watch page', game: g.id, url: `/watch/${g.publicToken}` } }],
  [10, () => { const s = pick(seatsWithTurns); return { kind: 'picture svg', game: s.gameId, url: `/games/${s.gameId}/turns/${pick(s.published)}/pictures/${pick(PICTURES)}.svg`, init: { headers: { cookie: s.cookie } } } }],
  [4, () => { const g = pick(gamesWithTurns); return { kind: 'picture svg (spectator)', game: g.id, url: `/watch/${g.publicToken}/turns/${pick(g.published)}/pictures/${pick(PICTURES)}.svg` } }],
  [1, () => { const g = pick(gamesWithTurns); return { kind: 'picture png', game: g.id, url: `/watch/${g.publicToken}/turns/${pick(g.published)}/pictures/end.png` } }],
  [10, () => { const s = pick(seats); return { kind: 'api game', game: s.gameId, url: `/api/v1/games/${s.gameId}`, init: { headers: { authorization: `Bearer ${s.token}` } } } }],
  [5, () => { const s = pick(seats); return { kind: 'api history', game: s.gameId, url: `/api/v1/games/${s.gameId}/history`, init: { headers: { authorization: `Bearer ${s.token}` } } } }],
  [10, () => {
    const s = pick(seatsOpen)
    return { kind: 'api submission', game: s.gameId, url: `/api/v1/games/${s.gameId}/turns/${s.open!.turn}/submission`, init: { method: 'POST', body: s.open!.body, headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' } } }
  }],
]
const totalWeight = KINDS.reduce((n, [w]) => n + w, 0)
const nextRequest = (): Request => {
  let r = rand(totalWeight)
  for (const [w, make] of KINDS) { if (r < w) return make(); r -= w }
  throw new Error('unreachable')
}

const counts = new Map<string, Map<number, number>>()
const touched = new Set<string>()
const count = (kind: string, status: number) => {
  let byStatus = counts.get(kind)
  if (!byStatus) counts.set(kind, (byStatus = new Map()))
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1)
}
const until = startedAt + seconds * 1000
let done = 0
const worker = async () => {
  while (Date.now() < until) {
    const request = nextRequest()
    touched.add(request.game)
    try {
      const res = await fetch(base + request.url, { redirect: 'manual', ...request.init })
      await res.arrayBuffer()
      count(request.kind, res.status)
    } catch {
      count(request.kind, 0)
    }
    done++
  }
}
// Live streams that come and go: 16 at a time, each followed for about 5 seconds.
const live = async () => {
  while (Date.now() < until) {
    const s = pick(seats)
    const abort = new AbortController()
    try {
      const res = await fetch(`${base}/games/${s.gameId}/live`, { headers: { cookie: s.cookie, accept: 'text/event-stream' }, signal: abort.signal })
      count('live stream', res.status)
      const reader = res.body!.getReader()
      const stop = setTimeout(() => abort.abort(), 4000 + rand(2000))
      try { for (;;) { const { done: end } = await reader.read(); if (end) break } } catch { /* aborted */ }
      clearTimeout(stop)
    } catch {
      count('live stream', 0)
    }
  }
}
const progress = setInterval(() => console.log(`${Math.round((Date.now() - startedAt) / 1000)} s: ${done} requests, ${touched.size} games touched`), 30_000)
await Promise.all([...Array.from({ length: connections }, worker), ...Array.from({ length: 16 }, live)])
clearInterval(progress)
const elapsed = (Date.now() - startedAt) / 1000
await new Promise((r) => setTimeout(r, Number(values['sample-ms']) + 500))
server.kill('SIGTERM')
await new Promise((r) => server.once('exit', r))

// ---- the report ---------------------------------------------------------------------------
interface Sample { t: number; rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number }
const samples = readFileSync(samplesFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Sample)
const MiB = (n: number) => (n / 1048576).toFixed(1)
const fields = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'] as const
console.log(`\n${done} requests in ${elapsed.toFixed(0)} s (${(done / elapsed).toFixed(0)}/s) over ${touched.size} games; statuses:`)
for (const [kind, byStatus] of counts) console.log(`  ${kind}: ${[...byStatus].map(([s, n]) => `${s}×${n}`).join(' ')}`)
console.log('\nuptime(s) ' + fields.map((f) => f.padStart(12)).join('') + '   (MiB)')
const every = Math.ceil(samples.length / 40)
samples.forEach((s, i) => { if (i % every === 0 || i === samples.length - 1) console.log(String(Math.round(s.t / 1000)).padStart(9) + ' ' + fields.map((f) => MiB(s[f]).padStart(12)).join('')) })
// The drive, in the server's uptime: from the first request to the last.
const driveFrom = startedAt - spawnedAt
const driveTo = driveFrom + elapsed * 1000
const drive = samples.filter((s) => s.t >= driveFrom && s.t <= driveTo)
const lastThird = drive.slice(Math.floor((drive.length * 2) / 3))
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const summary = Object.fromEntries(fields.map((f) => [f, {
  start: Number(MiB(drive[0]![f])), plateau: Number(MiB(median(lastThird.map((s) => s[f])))), max: Number(MiB(Math.max(...samples.map((s) => s[f])))),
}]))
console.log(`\nsummary (MiB): start = first sample of the drive (server uptime ${(driveFrom / 1000).toFixed(0)} s), plateau = median of the drive's last third, max = of the whole run`)
for (const f of fields) console.log(`  ${f.padEnd(12)} start ${String(summary[f]!.start).padStart(7)}  plateau ${String(summary[f]!.plateau).padStart(7)}  max ${String(summary[f]!.max).padStart(7)}`)
if (values.json) writeFileSync(values.json, JSON.stringify({ db: values.db, seconds: elapsed, requests: done, games: touched.size, counts: Object.fromEntries([...counts].map(([k, v]) => [k, Object.fromEntries(v)])), summary, samples }, null, 1))
rmSync(dir, { recursive: true, force: true })
