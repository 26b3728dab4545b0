// Fault runs against the real server process (src/server/server.ts) on a temp database, with a
// real SMTP server on 127.0.0.1 counting what it accepts by Message-ID:
//  - killRun: players submit over HTTP while the server closes turns and sends mail; kill -9 at a
//    random moment (or, with crashPoint, inside the turn-closing transaction); restart; check.
//  - twoProcessRun: two server processes on one database file, both ticking and taking programs.
//  - smtpOutageRun: the mail server refuses, then drops, connections for a while; then accepts.
// Each returns what it checked and the problems it found (an empty list is a pass).
import Database from '../server/plugins/sqlite.js'
import { setMaxListeners } from 'node:events'
import http from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sleep, startServer, waitFor, type ServerProcess } from './server-process.js'
import { freePort, startDropper, startMailbox, type Mailbox } from './smtp.js'
import { chooser, playOnce, prepareWorld, readDb, type Ack, type Player, type World } from './world.js'

const SECRET = 'chaos-secret-'.repeat(4)

export interface RunReport {
  name: string
  problems: string[]
  stats: Record<string, number>
}

/** Players act in parallel (each: read the turn, submit, pause 0–250 ms) until `stop` is aborted. */
function drive(world: World, baseOf: (p: Player, i: number) => string, seed: number, acks: Ack[], stop: AbortSignal) {
  const pick = chooser(seed)
  const agent = new http.Agent({ keepAlive: true })
  setMaxListeners(1000, stop)
  // The players' keep-alive connections are cut when they stop (see docs/performance.md: an idle
  // keep-alive connection holds the server's graceful shutdown open).
  return Promise.all(world.players.map(async (p, i) => {
    while (!stop.aborted) {
      try {
        const ack = await playOnce(agent, baseOf(p, i), p, pick, stop)
        if (ack) acks.push(ack)
      } catch { /* connection refused or reset: the server is down; not acknowledged */ }
      await sleep(pick(250))
    }
  })).finally(() => agent.destroy())
}

const count = (db: Database.Database, sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n

function pendingMail(dbPath: string): number {
  return readDb(dbPath, (db) => count(db, "SELECT count(*) AS n FROM outbox WHERE status = 'pending'"))
}

/** Open turns whose programs are all in (the next tick closes them), counted from the stored rows. */
function closableTurns(dbPath: string): number {
  return readDb(dbPath, (db) => {
    const open = db.prepare<[], { id: number; dealt_state_json: string }>(
      "SELECT turns.id, dealt_state_json FROM turns JOIN games ON games.id = turns.game_id WHERE turns.status = 'open' AND games.status = 'running'").all()
    return open.filter((t) => {
      const robots = (JSON.parse(t.dealt_state_json) as { robots: { player: string; mode: string; at: unknown; rebooting: boolean }[] }).robots
      const inNow = new Set(db.prepare<[number], { player_id: string }>('SELECT DISTINCT player_id FROM submissions WHERE turn_id = ?').all(t.id).map((r) => r.player_id))
      return robots.every((r) => r.mode === 'destroyed' || r.at === null || r.rebooting || inNow.has(r.player))
    }).length
  })
}

/** Waits until nothing is left for the clockwork: no closable turn and no pending mail. */
async function settle(dbPath: string, timeoutMs: number): Promise<boolean> {
  return waitFor(() => closableTurns(dbPath) === 0 && pendingMail(dbPath) === 0, timeoutMs, 250)
}

/**
 * The checks, on the database after the run and the mailbox's count:
 * every acknowledged submission stored; every turn either open, or closed and published whole
 * (review window 0 publishes in the closing transaction, so a draft left over is a half close);
 * the game's state is its last published turn's next state; no mail queued twice for one event;
 * every sent row received, once (a row in flight at a kill may arrive twice: reported apart).
 */
export function check(dbPath: string, acks: readonly Ack[], mailbox: Mailbox, inFlightAtKill: ReadonlySet<number> = new Set()): string[] {
  const problems: string[] = []
  readDb(dbPath, (db) => {
    const submission = db.prepare<[string, number, string, number], { cards_json: string }>(
      'SELECT s.cards_json FROM submissions s JOIN turns t ON t.id = s.turn_id WHERE t.game_id = ? AND t.number = ? AND s.player_id = ? AND s.version = ?')
    for (const a of acks) {
      const row = submission.get(a.gameId, a.turn, a.playerId, a.version)
      if (!row) problems.push(`lost submission: game ${a.gameId} turn ${a.turn} ${a.playerId} v${a.version}`)
      else if (row.cards_json !== JSON.stringify(a.cards)) problems.push(`submission changed: game ${a.gameId} turn ${a.turn} ${a.playerId} v${a.version}`)
    }
    const games = db.prepare<[], { id: string; status: string; state_json: string | null }>('SELECT id, status, state_json FROM games').all()
    for (const g of games) {
      const turns = db.prepare<[string], { id: number; number: number; status: string; result_json: string | null; next_state_json: string | null; closed_at: number | null; published_at: number | null }>(
        'SELECT id, number, status, result_json, next_state_json, closed_at, published_at FROM turns WHERE game_id = ? ORDER BY number').all(g.id)
      turns.forEach((t, i) => {
        if (t.number !== i + 1) problems.push(`game ${g.id}: turn numbers not contiguous at ${t.number}`)
        const last = i === turns.length - 1
        if (t.status === 'draft') problems.push(`game ${g.id} turn ${t.number}: left as a draft (half closed)`)
        if (t.status === 'published' && (!t.result_json || !t.next_state_json || !t.closed_at || !t.published_at)) problems.push(`game ${g.id} turn ${t.number}: published without its result`)
        if (t.status === 'open' && (t.result_json || t.closed_at)) problems.push(`game ${g.id} turn ${t.number}: open but holds a result`)
        if (!last && t.status !== 'published') problems.push(`game ${g.id} turn ${t.number}: ${t.status} before the last turn`)
        if (last && t.status === 'published' && g.status === 'running') problems.push(`game ${g.id}: last turn ${t.number} published but no next turn dealt`)
      })
      const lastPublished = turns.filter((t) => t.status === 'published').at(-1)
      if (lastPublished && g.status === 'running' && g.state_json !== lastPublished.next_state_json) problems.push(`game ${g.id}: state is not the last published turn's result`)
      const recipients = count(db, `SELECT count(*) AS n FROM (SELECT lower(users.email) FROM seats JOIN users ON users.id = seats.user_id WHERE seats.game_id = ?
        UNION SELECT lower(users.email) FROM games JOIN users ON users.id = games.gm_user_id WHERE games.id = ?)`, g.id, g.id)
      for (const t of turns.filter((x) => x.status === 'published')) {
        // Each recipient hears a turn's results once: in their next turn mail, or a results-only or
        // game-over mail; each of those carries the turn's picture (outbox.picture_json).
        const results = count(db, "SELECT count(*) AS n FROM outbox WHERE game_id = ? AND json_extract(picture_json, '$.turn') = ?", g.id, t.number)
        if (results !== recipients) problems.push(`game ${g.id} turn ${t.number}: ${results} results mails queued for ${recipients} recipients`)
      }
    }
    const dupes = db.prepare<[], { kind: string; game_id: string; recipient: string; subject: string; n: number }>(
      "SELECT kind, game_id, recipient, subject, count(*) AS n FROM outbox WHERE kind != 'sign-in' GROUP BY kind, game_id, recipient, subject HAVING n > 1").all()
    for (const d of dupes) problems.push(`mail queued ${d.n} times: ${d.kind} to ${d.recipient}: ${d.subject}`)
    const rows = db.prepare<[], { id: number; created_at: number; status: string }>('SELECT id, created_at, status FROM outbox').all()
    const known = new Set<string>()
    for (const r of rows) {
      const ids = [...mailbox.received.keys()].filter((k) => k.startsWith(`<outbox-${r.id}-${r.created_at}@`))
      ids.forEach((k) => known.add(k))
      const times = ids.reduce((a, k) => a + mailbox.received.get(k)!, 0)
      if (r.status !== 'sent') problems.push(`mail ${r.id} still ${r.status} at the end`)
      else if (times === 0) problems.push(`mail ${r.id} marked sent but never received (lost)`)
      if (times > 1) problems.push(`mail ${r.id} received ${times} times${inFlightAtKill.has(r.id) ? ' (it was in flight at the kill: accepted by SMTP, not yet marked sent; same Message-ID)' : ''}`)
    }
    for (const k of mailbox.received.keys()) if (!known.has(k)) problems.push(`mail received that no outbox row holds: ${k}`)
  })
  return problems
}

function tempDb(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, dbPath: join(dir, 'botwars.db'), remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export interface KillOptions {
  seed: number
  /** Kill inside the turn-closing transaction (BOTWARS_CRASH_POINT=close-turn) instead of at a random moment. */
  crashPoint?: boolean
  /** The latest moment of the kill, after the server listens (ms). */
  maxKillMs?: number
  sizes?: number[]
}

/**
 * How long a restarted server may take to finish the work that is due (close turns, send the
 * outbox). A liveness bound, not a speed test: on a loaded 2-core machine rendering every turn
 * mail's board picture took over 20 s, and a slow machine is not a lost submission.
 */
const SETTLE_MS = 60_000

export async function killRun(options: KillOptions): Promise<RunReport> {
  const { dir, dbPath, remove } = tempDb('botwars-chaos-')
  const pick = chooser(options.seed)
  const mailbox = await startMailbox()
  const servers: ServerProcess[] = []
  try {
    const world = await prepareWorld(dir, SECRET, options.sizes ?? [2, 3, 4, 3], {}, `k${options.seed}`)
    const acks: Ack[] = []
    const env = options.crashPoint ? { BOTWARS_CRASH_POINT: 'close-turn' } : undefined
    const first = await startServer({ databasePath: dbPath, smtpUrl: mailbox.url, sessionSecret: SECRET, env })
    servers.push(first)
    const killAfter = 200 + pick((options.maxKillMs ?? 7000) - 200)
    const stop1 = new AbortController()
    const driving = drive(world, () => first.url, options.seed, acks, stop1.signal)
    const selfKilled = await Promise.race([sleep(options.crashPoint ? 20_000 : killAfter).then(() => false), first.exited.then(() => true)])
    await first.kill9()
    stop1.abort()
    await driving
    const inFlight = new Set(readDb(dbPath, (db) => db.prepare<[], { id: number }>("SELECT id FROM outbox WHERE status = 'sending'").all().map((r) => r.id)))
    const acksBefore = acks.length

    // Restart; players go on for a while; then let the clockwork finish what is due.
    const second = await startServer({ databasePath: dbPath, smtpUrl: mailbox.url, sessionSecret: SECRET })
    servers.push(second)
    const stop2 = new AbortController()
    const driving2 = drive(world, () => second.url, options.seed + 1, acks, stop2.signal)
    await sleep(1500)
    stop2.abort()
    await driving2
    const settled = await settle(dbPath, SETTLE_MS)
    await second.stop()

    // A message in flight at the kill keeps its lease (2 minutes); expire it, as time would, and let a third start send it.
    if (inFlight.size > 0) {
      const db = new Database(dbPath)
      db.prepare("UPDATE outbox SET lease_until = 0 WHERE status = 'sending'").run()
      db.close()
      const third = await startServer({ databasePath: dbPath, smtpUrl: mailbox.url, sessionSecret: SECRET })
      servers.push(third)
      await waitFor(() => readDb(dbPath, (d) => count(d, "SELECT count(*) AS n FROM outbox WHERE status != 'sent'")) === 0, SETTLE_MS, 250)
      await third.stop()
    }
    const problems = check(dbPath, acks, mailbox, inFlight)
    if (!settled) problems.push(`the restarted server did not finish the due work within ${SETTLE_MS / 1000} s`)
    const stats = readDb(dbPath, (db) => ({
      killAfterMs: options.crashPoint ? -1 : killAfter,
      selfKilled: selfKilled ? 1 : 0,
      acksBeforeKill: acksBefore,
      acks: acks.length,
      turnsPublished: count(db, "SELECT count(*) AS n FROM turns WHERE status = 'published'"),
      mails: count(db, 'SELECT count(*) AS n FROM outbox'),
      received: mailbox.total(),
      inFlightAtKill: inFlight.size,
    }))
    return { name: `kill ${options.crashPoint ? 'inside close-turn' : `after ${killAfter} ms`} (seed ${options.seed})`, problems, stats }
  } finally {
    for (const s of servers) await s.kill9()
    await mailbox.close()
    remove()
  }
}

export async function twoProcessRun(seed: number, seconds = 12): Promise<RunReport> {
  const { dir, dbPath, remove } = tempDb('botwars-two-')
  const mailbox = await startMailbox()
  const servers: ServerProcess[] = []
  try {
    const world = await prepareWorld(dir, SECRET, [2, 3, 4, 2, 3, 4], {}, `two${seed}`)
    const acks: Ack[] = []
    servers.push(await startServer({ databasePath: dbPath, smtpUrl: mailbox.url, sessionSecret: SECRET }))
    servers.push(await startServer({ databasePath: dbPath, smtpUrl: mailbox.url, sessionSecret: SECRET }))
    const stop = new AbortController()
    let turn = 0
    const driving = drive(world, () => servers[turn++ % 2]!.url, seed, acks, stop.signal)
    await sleep(seconds * 1000)
    stop.abort()
    await driving
    const settled = await settle(dbPath, SETTLE_MS)
    for (const s of servers) await s.stop()
    const problems = check(dbPath, acks, mailbox)
    if (!settled) problems.push(`the due work was not finished within ${SETTLE_MS / 1000} s`)
    const stats = readDb(dbPath, (db) => ({
      acks: acks.length,
      turnsPublished: count(db, "SELECT count(*) AS n FROM turns WHERE status = 'published'"),
      mails: count(db, 'SELECT count(*) AS n FROM outbox'),
      received: mailbox.total(),
    }))
    return { name: `two server processes on one database, ${seconds} s (seed ${seed})`, problems, stats }
  } finally {
    for (const s of servers) await s.kill9()
    await mailbox.close()
    remove()
  }
}

export async function smtpOutageRun(seed: number, refuseMs = 6000, dropMs = 6000): Promise<RunReport> {
  const { dir, dbPath, remove } = tempDb('botwars-smtp-')
  const port = await freePort()
  const servers: ServerProcess[] = []
  let mailbox: Mailbox | undefined
  try {
    const world = await prepareWorld(dir, SECRET, [2, 3, 3], {}, `smtp${seed}`)
    const acks: Ack[] = []
    const server = await startServer({ databasePath: dbPath, smtpUrl: `smtp://127.0.0.1:${port}`, sessionSecret: SECRET })
    servers.push(server)
    const stop = new AbortController()
    const driving = drive(world, () => server.url, seed, acks, stop.signal)
    await sleep(refuseMs) // nothing listens: connections refused
    const dropper = await startDropper(port)
    await sleep(dropMs) // connections accepted and cut at once
    stop.abort()
    await driving
    await dropper.close()
    const during = readDb(dbPath, (db) => ({
      failedAttempts: count(db, 'SELECT count(*) AS n FROM outbox WHERE last_error IS NOT NULL OR attempts > 1'),
      sentDuringOutage: count(db, "SELECT count(*) AS n FROM outbox WHERE status = 'sent'"),
      queued: count(db, 'SELECT count(*) AS n FROM outbox'),
    }))
    mailbox = await startMailbox(port)
    const t0 = Date.now()
    const delivered = await waitFor(() => closableTurns(dbPath) === 0 && readDb(dbPath, (d) => count(d, "SELECT count(*) AS n FROM outbox WHERE status != 'sent'")) === 0, 150_000, 500)
    const afterMs = Date.now() - t0
    await server.stop()
    const problems = check(dbPath, acks, mailbox)
    if (!delivered) problems.push('mail still waiting 150 s after the mail server came back')
    if (during.sentDuringOutage > 0) problems.push(`${during.sentDuringOutage} mails marked sent while no mail server accepted any`)
    if (during.failedAttempts === 0) problems.push('the outage was not felt (no failed attempt recorded)')
    return {
      name: `SMTP refusing ${refuseMs / 1000} s then dropping ${dropMs / 1000} s (seed ${seed})`, problems,
      stats: { ...during, dropped: dropper.dropped(), deliveredAfterMs: afterMs, received: mailbox.total(), acks: acks.length },
    }
  } finally {
    for (const s of servers) await s.kill9()
    await mailbox?.close()
    remove()
  }
}
