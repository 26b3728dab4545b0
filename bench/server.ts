// Server benchmarks: autocannon against the real app on 127.0.0.1 (spawned by server-target.ts)
// and, in the same run, against a bare Fastify route in that process; each figure is also given
// as a ratio to the bare route. Then the time to close and publish one 8-player turn with its mail
// queued, measured in this process around the service call. Figures, never assertions.
import autocannon from 'autocannon'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { buildApp } from '../src/server/app.js'
import { closeTurn, publishByGm } from '../src/server/services/turns.js'
import { membership } from '../src/server/services/membership.js'
import { seatedGame, start, submitAll, user } from '../src/testkit/games.js'
import { quantile } from '../src/testkit/stats.js'
import { skipBodyText } from './autocannon-bodies.js'
import type { Submitter, Target } from './server-target.js'

export interface ServerBenchOptions {
  /** Seconds of measuring per figure, split over `rounds` runs. */
  seconds?: number
  /** Runs per figure, each after a run of its bare yardstick. */
  rounds?: number
  /** One connection count; by default both 10 and 50 are measured. */
  connections?: number
  connectionCounts?: number[]
  /** An existing database to copy and measure against (e.g. the 10,000-game seed). */
  db?: string
  games?: number
  closeSamples?: number
  /** Leave autocannon's decoding of every body as text in (as shipped): the client then sets the pace for pages (autocannon-bodies.ts). */
  clientDecodesBodies?: boolean
  /** Only these figures (by default all three). */
  only?: Part[]
  /** Writes a CPU profile of the app's process for each measured run of the app into this folder. */
  profileDir?: string
  log?: (line: string) => void
}

export const PARTS = ['submissions', 'game', 'report'] as const
export type Part = (typeof PARTS)[number]

interface Rate {
  name: string; rps: number; p50: number; p99: number; non2xx: number; errors: number; total: number
  /** The target process's CPU time (all threads) per request answered in the measured run, µs. */
  cpu: number
}

async function startTarget(options: ServerBenchOptions) {
  const args = ['--import', 'tsx', join(import.meta.dirname, 'server-target.ts'), '--games', String(options.games ?? 250)]
  if (options.db) args.push('--db', options.db)
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] })
  // The target answers each command with one JSON line, in order.
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = []
  let failed: Error | null = null
  createInterface({ input: child.stdout! }).on('line', (line) => waiting.shift()?.resolve(line))
  child.once('exit', (code) => {
    failed = new Error(`bench target exited with ${code}`)
    for (const w of waiting.splice(0)) w.reject(failed)
  })
  const nextLine = () => new Promise<string>((resolve, reject) => {
    if (failed) return reject(failed)
    waiting.push({ resolve, reject })
  })
  const target = JSON.parse(await nextLine()) as Target
  return {
    target,
    /** A fresh turn in every submission game (server-target.ts): each player has all 100 versions again. */
    advance: async () => {
      const answer = nextLine()
      child.stdin!.write('advance\n')
      return JSON.parse(await answer) as Submitter[]
    },
    /** Copies each player's report page into the bare app (server-target.ts, /pages/:i). */
    copyReportPages: async () => {
      const answer = nextLine()
      child.stdin!.write('copy-report-pages\n')
      return JSON.parse(await answer) as { pages: number; meanBytes: number }
    },
    /** A CPU profile of the target from now until stop(), written to `file` (server-target.ts). */
    profile: async (file: string) => {
      const started = nextLine()
      child.stdin!.write('profile-start\n')
      await started
      return {
        stop: async () => {
          const written = nextLine()
          child.stdin!.write(`profile-stop ${file}\n`)
          await written
        },
      }
    },
    /** The target process's CPU time so far, µs (server-target.ts). */
    cpu: async () => {
      const answer = nextLine()
      child.stdin!.write('cpu\n')
      return (JSON.parse(await answer) as { micros: number }).micros
    },
    stop: () => { child.stdin!.end(); return new Promise((r) => child.once('exit', r)) },
  }
}

/** Starts a CPU profile of the app's process for one measured run; the run stops it. */
type Profile = () => Promise<{ stop: () => Promise<void> }>

/** Reads the target process's CPU time, µs: the app and the bare yardstick share that process. */
type CpuClock = () => Promise<number>

async function cannon(name: string, url: string, seconds: number, connections: number, cpuClock: CpuClock,
  next: () => { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string }, before?: () => Promise<void>,
  profile?: Profile): Promise<Rate> {
  // One second of warm-up (JIT, statement caches), discarded.
  await before?.()
  await autocannon({ url, connections, duration: 1, requests: [{ setupRequest: (req: object) => ({ ...req, ...next() }) }] })
  await before?.()
  const profiling = await profile?.()
  const cpuBefore = await cpuClock()
  const result = await autocannon({
    url, connections, duration: seconds, pipelining: 1,
    requests: [{ setupRequest: (req: object) => ({ ...req, ...next() }) }],
  })
  const cpuUsed = await cpuClock() - cpuBefore
  await profiling?.stop()
  return {
    name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99,
    non2xx: result.non2xx, errors: result.errors + result.timeouts, total: result.requests.total,
    cpu: cpuUsed / Math.max(1, result.requests.total),
  }
}

/** Median (and p90) of one-at-a-time requests, timed with performance.now over a keep-alive connection. */
async function sequentialLatency(url: string, n: number, next: () => { path: string; headers?: Record<string, string> }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const times: number[] = []
  let status = 0
  for (let i = 0; i < n; i++) {
    const req = next()
    const t0 = performance.now()
    status = await new Promise<number>((resolve, reject) => {
      http.get(url + req.path, { agent, headers: req.headers }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)) }).on('error', reject)
    })
    times.push(performance.now() - t0)
    if (status >= 300) throw new Error(`${req.path}: ${status}`)
  }
  agent.destroy()
  return { median: quantile(times, 0.5), p90: quantile(times, 0.9) }
}


/** Whether the web pages are served yet: an HTML 200 for the game page. */
async function pagesExist(target: Target): Promise<boolean> {
  const p = target.players[0]!
  const res = await fetch(`${target.app}/games/${p.gameId}`, { headers: { cookie: p.cookie }, redirect: 'manual' })
  return res.status === 200 && (res.headers.get('content-type') ?? '').includes('text/html')
}

/** Runs of one target alternated with runs of its yardstick, so drift on a shared machine hits both alike. */
interface Pair {
  name: string; rate: Rate; base: Rate; ratio: number
  /** The server's CPU per request, medians over the rounds: the target's and its yardstick's, µs. */
  cpu: { app: number; base: number }
}

async function pairRounds(rounds: number, seconds: number, connections: number, cpuClock: CpuClock, name: string,
  app: { url: string; next: Parameters<typeof cannon>[5]; before?: () => Promise<void>; profile?: (round: number) => Profile | undefined },
  base: { name: string; url: string; next: Parameters<typeof cannon>[5] }): Promise<Pair> {
  const apps: Rate[] = []
  const bases: Rate[] = []
  for (let r = 0; r < rounds; r++) {
    bases.push(await cannon(base.name, base.url, seconds, connections, cpuClock, base.next))
    apps.push(await cannon(name, app.url, seconds, connections, cpuClock, app.next, app.before, app.profile?.(r)))
  }
  const ratios = apps.map((a, i) => a.rps / bases[i]!.rps)
  return {
    name, rate: medianRate(apps), base: medianRate(bases), ratio: quantile(ratios, 0.5),
    cpu: { app: quantile(apps.map((a) => a.cpu), 0.5), base: quantile(bases.map((b) => b.cpu), 0.5) },
  }
}

/** The round with the median rate (its latencies with it); errors summed over all rounds. */
function medianRate(rates: Rate[]): Rate {
  const sorted = [...rates].sort((a, b) => a.rps - b.rps)
  const median = sorted[Math.floor(sorted.length / 2)]!
  return { ...median, non2xx: sum(rates, 'non2xx'), errors: sum(rates, 'errors'), total: sum(rates, 'total') }
}
const sum = (rates: Rate[], key: 'non2xx' | 'errors' | 'total') => rates.reduce((n, r) => n + r[key], 0)

/** What a browser sends with every page request besides its cookies. */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd', accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }

/**
 * Each player's cookies as their browser holds them after a first page: the session, and the CSRF
 * secret the first page set (without it every page would make a new one, which no browser does).
 */
async function browserCookies(target: Target): Promise<Map<string, string>> {
  const cookies = new Map<string, string>()
  const ps = target.players
  for (let i = 0; i < ps.length; i += 50) {
    await Promise.all(ps.slice(i, i + 50).map(async (p) => {
      const res = await fetch(`${target.app}/games/${p.gameId}`, { headers: { cookie: p.cookie }, redirect: 'manual' })
      await res.arrayBuffer()
      const csrf = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('botwars_csrf='))
      cookies.set(`${p.gameId}/${p.playerId}`, csrf ? `${p.cookie}; ${csrf}` : p.cookie)
    }))
  }
  return cookies
}

export interface ServerFigures { connections: number; pairs: Pair[]; submissions: Pair | null; bareWrite: Pair | null; gameView: Pair | null; reports: Pair | null; reportBytes: Pair | null }

export async function benchServer(options: ServerBenchOptions = {}) {
  const log = options.log ?? console.log
  const seconds = options.seconds ?? 12
  const rounds = options.rounds ?? 3
  const connectionCounts = options.connectionCounts ?? [options.connections ?? 10, ...(options.connections ? [] : [50])]
  if (!options.clientDecodesBodies) skipBodyText()
  const { target, advance, copyReportPages, profile, cpu, stop } = await startTarget(options)
  const parts = new Set<Part>(options.only ?? PARTS)
  const profileDir = options.profileDir && resolve(options.profileDir)
  if (profileDir) mkdirSync(profileDir, { recursive: true })
  // One profile per measured run of the app, named by figure, connections and round.
  const profiled = (part: Part, connections: number) => profileDir
    ? (round: number) => () => profile(join(profileDir, `${part}-${connections}c-${round + 1}.cpuprofile`))
    : undefined
  const figures: ServerFigures[] = []
  let pages = false
  let reportLatency: { median: number; p90: number } | null = null
  let gameLatency: { median: number; p90: number } | null = null
  let firstReportLatency: { median: number; p90: number } | null = null
  let copied: { pages: number; meanBytes: number } | null = null
  const runSeconds = Math.max(2, Math.round(seconds / rounds))
  try {
    const ps = target.players
    let i = 0
    const player = () => ps[i++ % ps.length]!
    pages = await pagesExist(target)
    const cookies = await browserCookies(target)
    const pageHeaders = (p: Target['players'][number]) => ({ ...BROWSER_HEADERS, cookie: cookies.get(`${p.gameId}/${p.playerId}`)! })
    const gamePath = (p: Target['players'][number]) => pages ? `/games/${p.gameId}` : `/api/v1/games/${p.gameId}`
    const reportPath = (p: Target['players'][number]) => pages ? `/games/${p.gameId}/turns/${p.reportTurn}` : `/api/v1/games/${p.gameId}/turns/${p.reportTurn}`
    // Each player has read the published report once before the measured runs, as after a real
    // publication (its results mail links it): the page is kept per seat (pages/published-turn.ts),
    // and 1,000 seats' first views would otherwise fill the measured seconds. The first views of
    // 200 of them are timed one at a time: what a reader waits for when the page is not kept yet.
    if (pages && parts.has('report')) {
      const first = ps.slice(0, 200)
      firstReportLatency = await sequentialLatency(target.app, first.length, () => { const p = first.shift()!; return { path: reportPath(p), headers: pageHeaders(p) } })
      for (let k = 200; k < ps.length; k += 50) {
        await Promise.all(ps.slice(k, k + 50).map(async (p) => (await fetch(target.app + reportPath(p), { headers: pageHeaders(p) })).arrayBuffer()))
      }
    }
    if (pages && parts.has('report')) copied = await copyReportPages()
    const bareBody = ps[0]!.body
    const bareGet = { name: 'bare Fastify GET /bare', url: target.bare, next: () => ({ method: 'GET' as const, path: '/bare', headers: BROWSER_HEADERS }) }
    const barePost = {
      name: 'bare Fastify POST /bare (same JSON body)', url: target.bare,
      next: () => ({ method: 'POST' as const, path: '/bare', headers: { 'content-type': 'application/json' }, body: bareBody }),
    }
    let submitters = target.submitters
    let s = 0
    for (const connections of connectionCounts) {
      // Each run (warm-up and measured) starts on a fresh turn of the submission games: a player may
      // send at most 100 versions of a program per turn, and a run sends up to ~50 each.
      const submissions = !parts.has('submissions') ? null : await pairRounds(rounds, runSeconds, connections, cpu,
        `program submissions (${submitters.length} players in ${new Set(submitters.map((p) => p.gameId)).size} games, API token, a fresh turn each run)`, {
        url: target.app,
        profile: profiled('submissions', connections),
        before: async () => { submitters = await advance() },
        next: () => {
          const p = submitters[s++ % submitters.length]!
          return { method: 'POST', path: `/api/v1/games/${p.gameId}/turns/${p.turn}/submission`, headers: { 'content-type': 'application/json', authorization: `Bearer ${p.token}` }, body: p.body }
        },
      }, barePost)
      // The durable write alone (server-target.ts, /bare-write): how much of a submission's cost is
      // storing it, and how much is the app's own work around the write.
      const bareWrite = !parts.has('submissions') ? null : await pairRounds(rounds, runSeconds, connections, cpu,
        'bare Fastify POST /bare-write (the same JSON body stored as one row by a group commit)', {
          url: target.bare, next: () => ({ method: 'POST' as const, path: '/bare-write', headers: { 'content-type': 'application/json' }, body: bareBody }),
        }, barePost)
      const gameView = !parts.has('game') ? null : await pairRounds(rounds, runSeconds, connections, cpu, `game ${pages ? 'page' : 'JSON (no pages yet)'} views`, {
        url: target.app, profile: profiled('game', connections), next: () => { const p = player(); return { method: 'GET', path: gamePath(p), headers: pageHeaders(p) } },
      }, bareGet)
      const reports = !parts.has('report') ? null : await pairRounds(rounds, runSeconds, connections, cpu, `published turn report ${pages ? 'page' : 'JSON (no pages yet)'} views`, {
        url: target.app, profile: profiled('report', connections), next: () => { const p = player(); return { method: 'GET', path: reportPath(p), headers: pageHeaders(p) } },
      }, bareGet)
      // The client's ceiling for those pages: the same bytes, each player's own, from a bare route.
      let c = 0
      const reportBytes = copied ? await pairRounds(rounds, runSeconds, connections, cpu, `bare Fastify GET of the report pages' own bytes (${copied.pages} pages, ${copied.meanBytes.toLocaleString('en')} bytes on average)`, {
        url: target.bare, next: () => ({ method: 'GET', path: `/pages/${c++ % copied!.pages}`, headers: BROWSER_HEADERS }),
      }, bareGet) : null
      const pairs = [submissions, bareWrite, gameView, reports, reportBytes].filter((pair) => pair !== null)
      figures.push({ connections, pairs, submissions, bareWrite, gameView, reports, reportBytes })
    }
    if (parts.has('report')) reportLatency = await sequentialLatency(target.app, 500, () => { const p = player(); return { path: reportPath(p), headers: pageHeaders(p) } })
    if (parts.has('game')) gameLatency = await sequentialLatency(target.app, 500, () => { const p = player(); return { path: gamePath(p), headers: pageHeaders(p) } })
  } finally {
    await stop()
  }
  const pct = (ratio: number) => `${(100 * ratio).toFixed(0)}%`
  // A run with refused or failed requests measured something else: said loudly, never as a figure.
  const rateText = (r: Rate) => `${Math.round(r.rps).toLocaleString('en')} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms` +
    `${r.non2xx || r.errors ? ` — NOT VALID: ${r.non2xx} non-2xx, ${r.errors} errors of ${r.total}` : ''}`
  log(`server: measured with autocannon on 127.0.0.1; each figure the median of ${rounds} runs of ${runSeconds} s, ` +
    `each run right after a run of its bare Fastify yardstick (ratio: median of the ${rounds} pairs); pages asked for as a browser does ` +
    `(its cookies, Accept-Encoding: gzip, br); ${options.clientDecodesBodies ? 'autocannon as shipped (it decodes every body as text)' : 'autocannon without its decoding of every body as text (bench/autocannon-bodies.ts)'}; app database ` +
    `${options.db ? `copy of ${options.db} (${target.gamesBefore.toLocaleString('en')} games before the bench games)` : 'fresh'}`)
  for (const f of figures) {
    const bareGet = (f.gameView ?? f.reports)?.base
    if (bareGet) log(`server, ${f.connections} connections: bare Fastify GET /bare: ${rateText(bareGet)}`)
    if (f.submissions) log(`server, ${f.connections} connections: bare Fastify POST /bare (same JSON body): ${rateText(f.submissions.base)}`)
    for (const pair of f.pairs) {
      log(`server, ${f.connections} connections: ${pair.name}: ${rateText(pair.rate)}, ${pct(pair.ratio)} of bare Fastify ${pair === f.submissions || pair === f.bareWrite ? 'POST' : 'GET'} /bare; ` +
        `server CPU ${pair.cpu.app.toFixed(1)} µs a request, the bare route's ${pair.cpu.base.toFixed(1)} µs`)
    }
    if (f.submissions && f.bareWrite) log(`server, ${f.connections} connections: submissions against the same write from a bare route (the app's own work around the write): ${pct(f.submissions.rate.rps / f.bareWrite.rate.rps)}`)
    if (f.reportBytes && f.reports) log(`server, ${f.connections} connections: report page views against the same bytes from a bare route (what the client can take): ${pct(f.reports.rate.rps / f.reportBytes.rate.rps)}`)
  }
  if (profileDir) log(`server: a CPU profile of the app's process for each measured run in ${profileDir} (npx tsx bench/engine-profile-summary.ts FILE)`)
  if (reportLatency) log(`server: turn report ${pages ? 'page' : 'JSON'} one at a time: median ${reportLatency.median.toFixed(2)} ms, p90 ${reportLatency.p90.toFixed(2)} ms (500 requests)`)
  if (firstReportLatency) log(`server: turn report page, a seat's first view (rendered and kept), one at a time: median ${firstReportLatency.median.toFixed(2)} ms, p90 ${firstReportLatency.p90.toFixed(2)} ms (200 requests)`)
  if (gameLatency) log(`server: game ${pages ? 'page' : 'JSON'} one at a time: median ${gameLatency.median.toFixed(2)} ms, p90 ${gameLatency.p90.toFixed(2)} ms (500 requests)`)
  const closeSamples = options.closeSamples ?? 200
  const close = closeSamples > 0 ? await benchClose(closeSamples) : null
  if (close) {
    log(`server: close + publish one 8-player turn on conveyor-works (resolve, store, ${close.mails} mails queued, next hands dealt), one transaction, in-process: median ${close.oneStep.median.toFixed(2)} ms, p90 ${close.oneStep.p90.toFixed(2)} ms (${close.samples} turns)`)
    log(`server: with a review window: close to draft ${close.toDraft.median.toFixed(2)} ms + GM publish ${close.publish.median.toFixed(2)} ms (medians)`)
  }
  return { figures, pages, reportLatency, gameLatency, close }
}

/** Times closeTurn (and publishByGm) on 8-player games whose programs are all in, in this process, on a real SQLite file. */
export async function benchClose(samples: number) {
  const dir = mkdtempSync(join(tmpdir(), 'botwars-close-'))
  const app = await buildApp({
    config: { databasePath: join(dir, 'botwars.db'), dataDir: dir, smtpUrl: undefined, baseUrl: 'http://127.0.0.1', sessionSecret: 'c'.repeat(40), mailFrom: 'BotWars <bench@127.0.0.1>' },
  })
  const ctx = app.services
  const gm = user(ctx, 'close-gm@example.org', 'GM')
  const mailsBefore = () => (app.db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n
  const oneStep: number[] = []
  const toDraft: number[] = []
  const publish: number[] = []
  let mails = 0
  try {
    for (let s = 0; s < samples; s++) {
      for (const review of [0, 48]) {
        const seated = Array.from({ length: 8 }, (_, i) => user(ctx, `close-${s}-${i}@example.org`))
        const game = seatedGame(ctx, gm, seated, { name: `Close ${s}`, reviewWindowHours: review })
        start(ctx, game, gm)
        submitAll(ctx, game.id)
        const turn = ctx.turns.current(game.id)!
        const before = mailsBefore()
        const t0 = performance.now()
        if (!closeTurn(ctx, turn.id)) throw new Error('closeTurn refused')
        const t1 = performance.now()
        if (review === 0) {
          oneStep.push(t1 - t0)
          mails = mailsBefore() - before
        } else {
          toDraft.push(t1 - t0)
          const m = membership(ctx, game.id, { user: gm })
          const t2 = performance.now()
          publishByGm(ctx, m, turn.number, 'bench')
          publish.push(performance.now() - t2)
        }
      }
    }
  } finally {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  }
  const stat = (xs: number[]) => ({ median: quantile(xs, 0.5), p90: quantile(xs, 0.9) })
  return { samples, mails, oneStep: stat(oneStep), toDraft: stat(toDraft), publish: stat(publish) }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2)
  const flag = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined }
  await benchServer({
    seconds: Number(flag('seconds') ?? 12), rounds: Number(flag('rounds') ?? 3),
    connectionCounts: (flag('connections') ?? '10,50').split(',').map(Number), db: flag('db'),
    games: Number(flag('games') ?? 250), closeSamples: Number(flag('close-samples') ?? 200),
    clientDecodesBodies: args.includes('--client-decodes-bodies'),
    only: flag('only')?.split(',').map((part) => {
      if (!(PARTS as readonly string[]).includes(part)) throw new Error(`--only: "${part}" is none of ${PARTS.join(', ')}`)
      return part as Part
    }),
    profileDir: flag('profile'),
  })
}
