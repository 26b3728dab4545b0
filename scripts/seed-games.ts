// `npm run seed -- [--games 10000] [--out data/seed-10k.db] [--force]`
// Fills a database with many games through the server's services (createGame, startGame,
// submitProgram, closeTurn, abandonGame), 50 games per outer transaction, so the benchmarks can
// run against a large database: `npm run bench:server -- --db data/seed-10k.db`.
//
// The mix: every 20th game still in setup, every 20th abandoned after two turns, the rest running
// with 0–5 published turns and about half the programs of the open turn in. 2 to 8 players a
// game, drawn from a pool of players so people sit in several games. The queued mail is marked
// sent at the end (as if delivered), so a server started on the file does not mail 100,000 people.
import { existsSync, rmSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { mkdirSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { Generator, seedRandom } from '../src/engine/random.js'
import { openDatabase } from '../src/server/plugins/db.js'
import { createContext } from '../src/server/services/context.js'
import { abandonGame } from '../src/server/services/games.js'
import { membership } from '../src/server/services/membership.js'
import { submitProgram } from '../src/server/services/turns.js'
import { legalProgram, playTurn, seatedGame, start, user } from '../src/testkit/games.js'

const { values } = parseArgs({
  options: { games: { type: 'string', default: '10000' }, out: { type: 'string', default: 'data/seed-10k.db' }, force: { type: 'boolean', default: false } },
})
const games = Number(values.games)
const out = values.out!
if (existsSync(out)) {
  if (!values.force) {
    console.log(`${out} exists already; use --force to make it again.`)
    process.exit(0)
  }
  for (const ext of ['', '-wal', '-shm']) rmSync(out + ext, { force: true })
}
mkdirSync(dirname(out), { recursive: true })

const db = openDatabase(out)
const ctx = createContext({ db, now: Date.now, baseUrl: 'http://127.0.0.1:3000', boardsDir: fileURLToPath(new URL('../boards/', import.meta.url)) })
const BOARDS = ['training-floor', 'conveyor-works', 'the-foundry', 'grand-factory']
const POOL = Math.max(16, games * 2)

// The engine's seeded generator: the linear congruential one this used before, in doubles, lost its
// low bits past 2^53 (seed × 1103515245 reaches 2^61), so it was not the generator it looked like
// (bench/memory-10k.ts found the same one revisiting few games).
const generator = new Generator(seedRandom(12345))
const rand = (n: number) => generator.int(0, n - 1)

const gms = Array.from({ length: 200 }, (_, i) => user(ctx, `gm-${i}@example.org`, `GM ${i}`))
const t0 = performance.now()
let turnsPlayed = 0
const batch = db.transaction((from: number, to: number) => {
  for (let g = from; g < to; g++) {
    const size = 2 + (g % 7)
    const ids = new Set<number>()
    while (ids.size < size) ids.add(rand(POOL))
    const players = [...ids].map((n) => user(ctx, `player-${n}@example.org`))
    const gm = gms[g % gms.length]!
    const game = seatedGame(ctx, gm, players, { name: `Seed game ${g}`, board: BOARDS[g % BOARDS.length], reviewWindowHours: 0 })
    if (g % 20 === 0) continue
    start(ctx, game, gm)
    const turns = g % 20 === 1 ? 2 : g % 6
    for (let t = 0; t < turns; t++) if (playTurn(ctx, game.id)) turnsPlayed++
    if (g % 20 === 1) {
      abandonGame(ctx, membership(ctx, game.id, { user: gm }), 'seeded')
      continue
    }
    // About half the programs of the open turn are in.
    for (const seat of ctx.games.seats(game.id)) {
      if (rand(2) === 0) continue
      const program = legalProgram(ctx, game.id, seat.player_id)
      if (!program) continue
      submitProgram(ctx, { user: ctx.users.byId(seat.user_id!)! }, game.id, program.turn, { cards: program.cards, rebootNext: false })
    }
  }
})
for (let g = 0; g < games; g += 50) {
  batch(g, Math.min(games, g + 50))
  if ((g + 50) % 1000 === 0) console.log(`${g + 50} games, ${turnsPlayed} turns played, ${((performance.now() - t0) / 1000).toFixed(1)} s`)
}
db.prepare("UPDATE outbox SET status = 'sent', sent_at = created_at WHERE status = 'pending'").run()
const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n
const summary = {
  games: count('SELECT count(*) AS n FROM games'),
  running: count("SELECT count(*) AS n FROM games WHERE status = 'running'"),
  users: count('SELECT count(*) AS n FROM users'),
  turns: count('SELECT count(*) AS n FROM turns'),
  submissions: count('SELECT count(*) AS n FROM submissions'),
  mails: count('SELECT count(*) AS n FROM outbox'),
}
db.pragma('wal_checkpoint(TRUNCATE)')
db.close()
console.log(`seeded ${out} in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${JSON.stringify(summary)}, ${(statSync(out).size / 1e6).toFixed(0)} MB`)
