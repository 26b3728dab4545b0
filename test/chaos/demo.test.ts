// `npm run demo` as a newcomer runs it: on an empty data directory it makes the demo game and
// prints sign-in links; run again, it makes no second game; the real server started on that
// database takes the printed link (303 + session) and shows the printed turn report.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { ROOT, startServer } from '../../src/testkit/server-process.js'
import { readDb } from '../../src/testkit/world.js'

const dir = mkdtempSync(join(tmpdir(), 'botwars-demo-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function demo() {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], {
    cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_PATH: join(dir, 'botwars.db') },
  })
  expect(run.status, run.stderr).toBe(0)
  return run.stdout
}

it('makes a demo game once, and its printed links work on the real server', async () => {
  const first = demo()
  expect(first).toMatch(/Made "Demo game".*3 turns published/)
  // It said "npm start", which opens ./data: the newcomer who chose DATABASE_PATH found no demo game.
  expect(first).toContain(`Start the server:            DATABASE_PATH=${join(dir, 'botwars.db')} npm start`)
  const second = demo()
  expect(second).toMatch(/exists already/)
  expect(readDb(join(dir, 'botwars.db'), (db) => db.prepare("SELECT count(*) AS n FROM games WHERE name = 'Demo game'").get())).toEqual({ n: 1 })
  expect(readdirSync(join(dir, 'outbox')).filter((f) => f.endsWith('.eml')).length).toBeGreaterThan(10)

  const server = await startServer({ databasePath: join(dir, 'botwars.db'), baseUrl: 'http://127.0.0.1:3000' })
  try {
    const local = (url: string) => url.replace('http://127.0.0.1:3000', server.url)
    const link = local(/Bob .*?(http\S+)/.exec(second)![1]!)
    // The link shows a button (mail scanners open links too); pressing it signs in.
    const confirm = await fetch(link, { redirect: 'manual' })
    expect(confirm.status).toBe(200)
    const page = await confirm.text()
    expect(page).toContain('Sign in to BotWars as')
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)![1]!
    const signedIn = await fetch(`${server.url}/auth/link`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams({ _csrf: field('_csrf'), token: field('token') }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: confirm.headers.get('set-cookie')!.split(';')[0]! },
    })
    expect(signedIn.status).toBe(303)
    const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('botwars_session='))!.split(';')[0]!
    const report = await fetch(local(/the turn 3 report\s+(http\S+)/.exec(second)![1]!), { headers: { cookie } })
    expect(report.status).toBe(200)
    expect(await report.text()).toContain('Turn 3')
    const watch = await fetch(local(/spectators \(no sign-in\)\s+(http\S+)/.exec(second)![1]!))
    expect(watch.status).toBe(200)
  } finally {
    await server.stop()
  }
}, 120_000)
