// The real server process (src/server/server.ts, as `npm start` runs it) on a given database, for
// the soak and chaos runs: started with node + tsx directly so its pid is the server's own (kill -9
// hits the server, not a wrapper), listening on 127.0.0.1 port 0; the address is read from its log.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createInterface } from 'node:readline'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const SERVER_ENTRY = fileURLToPath(new URL('../server/server.ts', import.meta.url))

export interface ServerProcess {
  url: string
  pid: number
  child: ChildProcess
  /** The latest log lines (pino JSON) the process printed. The address is read from the info-level log, so LOG_LEVEL must stay info or lower. */
  log: string[]
  exited: Promise<number | null>
  kill9(): Promise<void>
  /** SIGTERM: the graceful shutdown; resolves when the process is gone. */
  stop(): Promise<void>
  /** Resident set size in bytes, from /proc. */
  rss(): number
}

export interface StartOptions {
  databasePath: string
  smtpUrl?: string
  baseUrl?: string
  sessionSecret?: string
  env?: Record<string, string>
  timeoutMs?: number
}

export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '',
      PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: options.databasePath, LOG_LEVEL: 'info',
      BASE_URL: options.baseUrl ?? 'http://127.0.0.1', SESSION_SECRET: options.sessionSecret ?? 'x'.repeat(40),
      ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log: string[] = []
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${log.join('\n')}`)), options.timeoutMs ?? 30_000)
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        log.push(line)
        if (log.length > 400) log.splice(0, 200) // keep the latest lines only
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)
        if (m) { clearTimeout(timer); resolve(m[1]!) }
      })
    }
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`server exited (${code}) before listening:\n${log.join('\n')}`)) })
  })
  return {
    url, pid: child.pid!, child, log, exited,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
    rss() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024
    },
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Waits until `check` is true, polling; false if the time ran out. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 200): Promise<boolean> {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (await check()) return true
    await sleep(everyMs)
  }
  return await check()
}
