// `npx tsx scripts/tick-latency.ts [--db data/seed-10k.db] [--seconds 60]`
// The real server process (with its 5-second clockwork) on a copy of a database, and one reader
// loading a spectator page one request at a time: the latency distribution shows what the
// clockwork's ticks cost the people using the site. Nothing is due in the seeded database, so
// the ticks only look.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { quantile } from '../src/testkit/stats.js'
import { startServer } from '../src/testkit/server-process.js'
import { readDb } from '../src/testkit/world.js'

const { values } = parseArgs({ options: { db: { type: 'string', default: 'data/seed-10k.db' }, seconds: { type: 'string', default: '60' } } })
const dir = mkdtempSync(join(tmpdir(), 'botwars-tick-'))
const dbPath = join(dir, 'botwars.db')
copyFileSync(values.db!, dbPath)
for (const ext of ['-wal', '-shm']) if (existsSync(values.db + ext)) copyFileSync(values.db + ext, dbPath + ext)
const token = readDb(dbPath, (db) => (db.prepare("SELECT public_token FROM games WHERE status = 'running' LIMIT 1").get() as { public_token: string }).public_token)
const games = readDb(dbPath, (db) => (db.prepare('SELECT count(*) AS n FROM games').get() as { n: number }).n)
const server = await startServer({ databasePath: dbPath })
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const times: number[] = []
const end = Date.now() + Number(values.seconds) * 1000
try {
  while (Date.now() < end) {
    const t0 = performance.now()
    await new Promise<void>((resolve, reject) => {
      http.get(`${server.url}/watch/${token}`, { agent }, (res) => { res.resume(); res.on('end', () => resolve()) }).on('error', reject)
    })
    times.push(performance.now() - t0)
  }
} finally {
  agent.destroy()
  await server.stop()
  rmSync(dir, { recursive: true, force: true })
}
const over = (ms: number) => times.filter((t) => t > ms).length
console.log(`tick latency: real server on a copy of ${values.db} (${games.toLocaleString('en')} games), spectator page one at a time for ${values.seconds} s: ` +
  `${times.length} requests, median ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms, max ${Math.max(...times).toFixed(0)} ms; ` +
  `${over(100)} over 100 ms, ${over(500)} over 500 ms`)
