// The process the server benchmark loads (bench/server.ts spawns it, so autocannon and the server
// do not share an event loop): the real app (buildApp) on a real SQLite file, listening on
// 127.0.0.1 port 0, with many started games prepared through the services, and beside it a bare
// Fastify app with one GET and one POST route as the yardstick. Prints one JSON line describing
// the targets, then serves until stdin closes.
//
// Program submissions go to games of their own (`--submit-games`, 4 players each): a player may send
// at most 100 versions of a program per turn (services/turns.ts MAX_VERSIONS), so a few seconds of
// load at thousands of submissions a second would otherwise be refused (409) after the first
// hundred per player, and the runs measured refusals. Before each run the bench writes `advance`
// on stdin: every submission game's open turn is closed and published (as its deadline would) and
// the next dealt, and one JSON line answers with each player's turn and a legal program of the new
// hand. The page games are never advanced, so their kept report pages stay what they were.
// `copy-report-pages` copies each player's report page as sent, for the bare route's /pages/:i.
// `cpu` answers the process's CPU time so far (µs). `profile-start` and `profile-stop FILE` record a CPU profile of this process between them (the
// bench's --profile: one profile per measured run, so setup and the other runs stay out of it).
//
//   node --import tsx bench/server-target.ts [--db FILE] [--games N] [--players N] [--submit-games N]
// With --db, FILE is copied to a temp directory first (the original is never written).
import Fastify from 'fastify'
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Session } from 'node:inspector/promises'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { buildApp } from '../src/server/app.js'
import { openDatabase } from '../src/server/plugins/db.js'
import { startCheckpointer } from '../src/server/plugins/checkpointer.js'
import { groupCommit } from '../src/server/services/group-commit.js'
import { SESSION_TTL_MS } from '../src/server/services/auth.js'
import { closeTurn } from '../src/server/services/turns.js'
import { legalProgram, playTurn, seatedGame, start, user } from '../src/testkit/games.js'

export interface Target {
  app: string
  bare: string
  gamesBefore: number
  /** One entry per (game, player) of the page games: what a player reads. */
  players: { gameId: string; playerId: string; token: string; cookie: string; turn: number; body: string; reportTurn: number }[]
  /** The submission games' players, as after the last `advance`. */
  submitters: Submitter[]
}

/** A player of a submission game: their API token, the open turn, and a legal program for it (JSON body). */
export interface Submitter { gameId: string; token: string; turn: number; body: string }

const { values } = parseArgs({ options: {
  db: { type: 'string' }, games: { type: 'string', default: '250' }, players: { type: 'string', default: '4' }, 'submit-games': { type: 'string', default: '500' },
} })
const dir = mkdtempSync(join(tmpdir(), 'botwars-bench-'))
const dbPath = join(dir, 'botwars.db')
if (values.db) {
  copyFileSync(values.db, dbPath)
  for (const ext of ['-wal', '-shm']) if (existsSync(values.db + ext)) copyFileSync(values.db + ext, dbPath + ext)
}

const app = await buildApp({
  config: {
    databasePath: dbPath, dataDir: dir, smtpUrl: undefined, baseUrl: 'http://127.0.0.1', sessionSecret: 'b'.repeat(40),
    mailFrom: 'BotWars <bench@127.0.0.1>',
  },
  logger: false,
  loginRateLimit: 1_000_000,
})
const ctx = app.services
const gamesBefore = (app.db.prepare('SELECT count(*) AS n FROM games').get() as { n: number }).n

const gameCount = Number(values.games)
const perGame = Number(values.players)
const gm = user(ctx, 'bench-gm@example.org', 'Bench GM')
const players: Target['players'] = []
const batch = app.db.transaction((g: number) => {
  const seated = Array.from({ length: perGame }, (_, i) => user(ctx, `bench-${g}-${i}@example.org`))
  const game = seatedGame(ctx, gm, seated, { name: `Bench ${g}` })
  start(ctx, game, gm)
  playTurn(ctx, game.id) // turn 1 published: its report is what the report views read
  for (const seat of ctx.games.seats(game.id)) {
    const program = legalProgram(ctx, game.id, seat.player_id)
    if (!program) continue
    const token = ctx.users.createApiToken(seat.user_id!, game.id, ctx.now())
    const session = ctx.users.createSession(seat.user_id!, ctx.now(), SESSION_TTL_MS)
    players.push({
      gameId: game.id, playerId: seat.player_id, token, cookie: `botwars_session=${app.signCookie(session)}`,
      turn: program.turn, body: JSON.stringify({ cards: program.cards }), reportTurn: program.turn - 1,
    })
  }
})
for (let g = 0; g < gameCount; g++) batch(g)

// The submission games: started, turn 1 open, one API token per seat.
const submitGames: { gameId: string; tokens: Map<string, string> }[] = []
const submitBatch = app.db.transaction((g: number) => {
  const seated = Array.from({ length: 4 }, (_, i) => user(ctx, `bench-submit-${g}-${i}@example.org`))
  const game = seatedGame(ctx, gm, seated, { name: `Bench submissions ${g}` })
  start(ctx, game, gm)
  const tokens = new Map(ctx.games.seats(game.id).map((seat) => [seat.player_id, ctx.users.createApiToken(seat.user_id!, game.id, ctx.now())]))
  submitGames.push({ gameId: game.id, tokens })
})
for (let g = 0; g < Number(values['submit-games']); g++) submitBatch(g)

function submitters(): Submitter[] {
  return submitGames.flatMap(({ gameId, tokens }) => [...tokens].flatMap(([playerId, token]) => {
    const program = legalProgram(ctx, gameId, playerId)
    return program ? [{ gameId, token, turn: program.turn, body: JSON.stringify({ cards: program.cards }) }] : []
  }))
}

/** Closes (and so publishes: no review window) every submission game's open turn; the next turn is dealt. */
function advance(): Submitter[] {
  for (const { gameId } of submitGames) {
    const turn = ctx.turns.current(gameId)
    if (turn?.status === 'open') closeTurn(ctx, turn.id)
  }
  return submitters()
}

const bare = Fastify({ logger: false })
bare.get('/bare', async () => ({ ok: true }))
// The measuring client's ceiling for the report pages (bench/server.ts): each player's report page
// as the app sent it (gzipped bytes and headers, copied by `copy-report-pages`), sent again as it is
// by a bare route, so that a page of the same bytes costs the server nothing but the send. autocannon
// decodes every response body as text, which costs it ~10 µs a kilobyte of gzipped (random-looking)
// bytes that differ from response to response: with ~6 KB pages the client, not the server, sets the pace.
const copiedPages: { headers: Record<string, string>; body: Buffer }[] = []
bare.get<{ Params: { i: string } }>('/pages/:i', (request, reply) => {
  const page = copiedPages[Number(request.params.i) % Math.max(1, copiedPages.length)]
  if (!page) return reply.status(404).send()
  reply.headers(page.headers).send(page.body)
})
async function copyReportPages(): Promise<{ pages: number; meanBytes: number }> {
  copiedPages.length = 0
  for (const p of players) {
    const res = await app.inject({ method: 'GET', url: `/games/${p.gameId}/turns/${p.reportTurn}`, headers: { cookie: p.cookie, 'accept-encoding': 'gzip, deflate, br, zstd', accept: 'text/html' } })
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(res.headers)) {
      if (!['set-cookie', 'date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name) && typeof value === 'string') headers[name] = value
    }
    copiedPages.push({ headers, body: res.rawPayload })
  }
  return { pages: copiedPages.length, meanBytes: Math.round(copiedPages.reduce((n, page) => n + page.body.length, 0) / Math.max(1, copiedPages.length)) }
}
bare.post('/bare', async (request, reply) => reply.status(201).send({ ok: true, got: (request.body as { cards?: unknown[] }).cards?.length ?? 0 }))
// The durable write alone: the same body stored as one row by a group commit (services/group-commit.ts)
// in a SQLite file opened as the app opens its own (WAL, synchronous=NORMAL, checkpointed by a worker thread), into a table shaped like
// `submissions` (its unique index on turn, player and version, over as many turns as the submission
// games have), and answered only after the COMMIT, as a submission is. What a submission costs beyond
// this is the app's own work: who is asking, the checks, the context read.
const yardstick = openDatabase(join(dir, 'yardstick.db'))
const yardstickCheckpointer = startCheckpointer(yardstick, join(dir, 'yardstick.db'), (message) => console.error(message))
yardstick.exec(`CREATE TABLE writes (id INTEGER PRIMARY KEY, turn_id INTEGER NOT NULL, player_id TEXT NOT NULL,
  version INTEGER NOT NULL, cards_json TEXT NOT NULL, submitted_at INTEGER NOT NULL, UNIQUE (turn_id, player_id, version))`)
const writeRow = yardstick.prepare('INSERT INTO writes (turn_id, player_id, version, cards_json, submitted_at) VALUES (?, ?, ?, ?, ?)')
const writeSoon = groupCommit(yardstick)
let written = 0
bare.post('/bare-write', async (request, reply) => {
  // Round the submission games' players, as the bench's submissions do: one turn per game, four players.
  const n = written++
  const seat = n % (4 * submitGames.length)
  const cards = JSON.stringify((request.body as { cards?: unknown[] }).cards ?? [])
  const id = await writeSoon(() => writeRow.run(Math.floor(seat / 4), `P${(seat % 4) + 1}`, n, cards, Date.now()).lastInsertRowid)
  return reply.status(201).send({ ok: true, id: Number(id) })
})

const appUrl = await app.listen({ port: 0, host: '127.0.0.1' })
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' })
const target: Target = { app: appUrl, bare: bareUrl, gamesBefore, players, submitters: submitters() }
process.stdout.write(JSON.stringify(target) + '\n')

const stop = async () => {
  await Promise.allSettled([app.close(), bare.close()])
  await yardstickCheckpointer.stop()
  yardstick.close()
  rmSync(dir, { recursive: true, force: true })
  process.exit(0)
}
let profiler: Session | null = null
async function profileStart(): Promise<object> {
  profiler ??= new Session()
  profiler.connect()
  await profiler.post('Profiler.enable')
  await profiler.post('Profiler.start')
  return {}
}
async function profileStop(file: string): Promise<object> {
  if (!profiler) throw new Error('profile-stop without profile-start')
  const { profile } = await profiler.post('Profiler.stop')
  writeFileSync(file, JSON.stringify(profile))
  profiler.disconnect()
  return { file }
}
const answer = (work: Promise<object>) => void work.then((value) => process.stdout.write(JSON.stringify(value) + '\n'))
createInterface({ input: process.stdin }).on('line', (line) => {
  // A command, and after one space its argument (a file's path may hold spaces).
  const text = line.trim()
  const space = text.indexOf(' ')
  const command = space < 0 ? text : text.slice(0, space)
  const argument = space < 0 ? '' : text.slice(space + 1)
  if (command === 'advance') process.stdout.write(JSON.stringify(advance()) + '\n')
  if (command === 'copy-report-pages') answer(copyReportPages())
  // The process's CPU time so far, threads included (the WAL checkpointer's too): the bench reads it
  // around each measured run for the server's CPU per request, which the client's speed does not move.
  if (command === 'cpu') { const used = process.cpuUsage(); process.stdout.write(JSON.stringify({ micros: used.user + used.system }) + '\n') }
  if (command === 'profile-start') answer(profileStart())
  if (command === 'profile-stop' && argument) answer(profileStop(argument))
})
process.stdin.on('end', () => void stop())
process.stdin.on('close', () => void stop())
process.on('SIGTERM', () => void stop())
