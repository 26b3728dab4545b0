// `npm run soak -- [--minutes 10] [--games 60]`
// A bounded memory soak of the real server process (src/server/server.ts) on a temp database, with
// mail going to a real SMTP server on 127.0.0.1: players submit programs over HTTP (turns close
// every tick and are published at once, the next hands are dealt and mailed), and readers view game
// pages and turn report pages. The server's resident set size (VmRSS) is sampled every 10 s;
// printed: at the start, the end, the lowest and the highest, with how much work was done.
import { setMaxListeners } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { sleep, startServer } from '../src/testkit/server-process.js'
import { startMailbox } from '../src/testkit/smtp.js'
import { chooser, playOnce, prepareWorld, readDb, request } from '../src/testkit/world.js'

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' }, games: { type: 'string', default: '60' } } })
const minutes = Number(values.minutes)
const dir = mkdtempSync(join(tmpdir(), 'botwars-soak-'))
const dbPath = join(dir, 'botwars.db')
const secret = 'soak-secret-'.repeat(4)
const mailbox = await startMailbox()
const sizes = Array.from({ length: Number(values.games) }, (_, i) => 2 + (i % 7))
const boards = ['grand-factory', 'conveyor-works', 'the-foundry']
const world = { gameIds: [] as string[], players: [] as Awaited<ReturnType<typeof prepareWorld>>['players'] }
for (const [b, board] of boards.entries()) {
  const part = await prepareWorld(dir, secret, sizes.filter((_, i) => i % boards.length === b), { board }, `soak${b}`)
  world.gameIds.push(...part.gameIds)
  world.players.push(...part.players)
}
const server = await startServer({ databasePath: dbPath, smtpUrl: mailbox.url, sessionSecret: secret })
const agent = new http.Agent({ keepAlive: true })
const stop = new AbortController()
setMaxListeners(1000, stop.signal)
const counts = { submissions: 0, pageViews: 0, reportViews: 0, errors: 0 }
const pick = chooser(99)

const players = Promise.all(world.players.map(async (p) => {
  while (!stop.signal.aborted) {
    try {
      if (await playOnce(agent, server.url, p, pick, stop.signal)) counts.submissions++
    } catch { if (!stop.signal.aborted) counts.errors++ }
    await sleep(500 + pick(1500))
  }
}))
const readers = Promise.all(Array.from({ length: 4 }, async () => {
  while (!stop.signal.aborted) {
    const p = world.players[pick(world.players.length)]!
    try {
      const game = await request(agent, 'GET', `${server.url}/games/${p.gameId}`, { cookie: p.cookie }, undefined, stop.signal)
      if (game.status === 200) counts.pageViews++; else counts.errors++
      const turns = await request(agent, 'GET', `${server.url}/api/v1/games/${p.gameId}`, { cookie: p.cookie }, undefined, stop.signal)
      const published = (turns.json?.publishedTurns ?? []) as number[]
      if (published.length) {
        const report = await request(agent, 'GET', `${server.url}/games/${p.gameId}/turns/${published[pick(published.length)]}`, { cookie: p.cookie }, undefined, stop.signal)
        if (report.status === 200) counts.reportViews++; else counts.errors++
      }
    } catch { if (!stop.signal.aborted) counts.errors++ }
    await sleep(50)
  }
}))

const samples: { at: number; rss: number }[] = []
const t0 = Date.now()
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
while (Date.now() - t0 < minutes * 60_000) {
  samples.push({ at: Date.now() - t0, rss: server.rss() })
  const last = samples.at(-1)!
  if (samples.length % 6 === 1) console.log(`${(last.at / 1000).toFixed(0)} s: rss ${mb(last.rss)}, ${JSON.stringify(counts)}`)
  await sleep(10_000)
}
samples.push({ at: Date.now() - t0, rss: server.rss() })
stop.abort()
await Promise.allSettled([players, readers])
agent.destroy()
const work = readDb(dbPath, (db) => ({
  turnsPublished: (db.prepare("SELECT count(*) AS n FROM turns WHERE status = 'published'").get() as { n: number }).n,
  gamesFinished: (db.prepare("SELECT count(*) AS n FROM games WHERE status = 'finished'").get() as { n: number }).n,
  mailsQueued: (db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n,
}))
await server.stop()
await mailbox.close()
rmSync(dir, { recursive: true, force: true })
const rss = samples.map((s) => s.rss)
// Least-squares trend of the resident size after the first minute (warm-up), in MB per minute.
const late = samples.filter((s) => s.at >= 60_000)
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const [mx, my] = [mean(late.map((s) => s.at)), mean(late.map((s) => s.rss))]
const slope = late.reduce((a, s) => a + (s.at - mx) * (s.rss - my), 0) / late.reduce((a, s) => a + (s.at - mx) ** 2, 0)
console.log(`samples (s: MB): ${samples.map((s) => `${Math.round(s.at / 1000)}: ${(s.rss / 1024 / 1024).toFixed(0)}`).join(', ')}`)
console.log(`trend after the first minute: ${((slope * 60_000) / 1024 / 1024).toFixed(2)} MB/min; mean ${mb(my)}`)
console.log(`soak: ${minutes} min, ${world.gameIds.length} games, ${world.players.length} players: rss start ${mb(rss[0]!)}, end ${mb(rss.at(-1)!)}, ` +
  `min ${mb(Math.min(...rss))}, max ${mb(Math.max(...rss))}; ${counts.submissions} submissions, ${counts.pageViews} game pages, ` +
  `${counts.reportViews} turn report pages, ${work.turnsPublished} turns published, ${work.gamesFinished} games finished, ` +
  `${work.mailsQueued} mails queued, ${mailbox.total()} received, ${counts.errors} errors`)
