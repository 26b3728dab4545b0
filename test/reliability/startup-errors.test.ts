// A server that cannot start says why in one line naming what to change, never a stack trace: under a
// supervisor that restarts it, the trace repeated every few seconds hides the cause (server.ts
// startupProblem, config.ts). Found by a hostile review: a port in use, a file that is no database
// and an unknown log level each ended in a Node stack trace.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'

const dir = mkdtempSync(join(tmpdir(), 'botwars-startup-'))
let busy: Server
let busyPort = 0
beforeAll(async () => {
  busy = createServer()
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
  busyPort = (busy.address() as { port: number }).port
})
afterAll(() => { busy.close(); rmSync(dir, { recursive: true, force: true }) })

function start(env: Record<string, string>) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    // Vitest sets BASE_URL=/ for the code it runs (Vite's base); the server is given its own.
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', BASE_URL: 'http://127.0.0.1:3000', ...env }, encoding: 'utf8', timeout: 60_000,
  })
  return { status: run.status, stderr: run.stderr.trim() }
}

it.each([
  ['the port is in use', () => ({ PORT: String(busyPort), DATABASE_PATH: join(dir, 'a', 'botwars.db') }), /^BotWars could not start: PORT \d+: .*already in use/],
  ['the database file is no SQLite database', () => {
    writeFileSync(join(dir, 'text.db'), 'not a database at all, just text\n'.repeat(200))
    return { DATABASE_PATH: join(dir, 'text.db') }
  }, /^BotWars could not start: DATABASE_PATH .*text\.db: the file is not an SQLite database$/],
  ['the log level is unknown', () => ({ LOG_LEVEL: 'verbose', DATABASE_PATH: join(dir, 'b', 'botwars.db') }), /^Bad environment variable LOG_LEVEL: /],
  // Node's mkdirSync(…, { recursive: true }) never returns there (mkdir answers ENOENT with the parent present): the server hung at 100 % CPU, silent.
  ['the data folder is under /proc', () => ({ DATABASE_PATH: '/proc/botwars-no-such-folder/botwars.db' }), /^Bad environment variable DATABASE_PATH: its folder \/proc\/botwars-no-such-folder cannot be made/],
  ['BASE_URL is no URL', () => ({ BASE_URL: '/', DATABASE_PATH: join(dir, 'c', 'botwars.db') }), /^Bad environment variable BASE_URL: /],
])('when %s, it stops with one line naming it', (_what, env, line) => {
  const run = start(env())
  expect(run.status).toBe(1)
  expect(run.stderr.split('\n'), run.stderr).toHaveLength(1)
  expect(run.stderr).toMatch(line)
})
