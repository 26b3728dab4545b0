// Graceful shutdown of the real server process: SIGTERM stops it (exit 0) even while clients hold
// keep-alive connections open, idle or half-way through sending a request.
import { spawn, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../server/helpers.js'

/** Starts the server on a free port; resolves with the process and its port once it listens. */
async function startServer(): Promise<{ child: ChildProcess; port: number; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    cwd: join(import.meta.dirname, '../..'),
    env: {
      ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(tempDir(), 'botwars.db'), SMTP_URL: '',
      BASE_URL: 'http://botwars.test', LOG_LEVEL: 'info', BOTWARS_CRASH_POINT: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
      if (m) resolve(Number(m[1]))
    })
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${out}`)))
  })
  return { child, port, exit }
}

function get(agent: http.Agent, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode!))
    }).on('error', reject)
  })
}

describe('SIGTERM', () => {
  it('exits 0 while a client holds an idle keep-alive connection', async () => {
    const { child, port, exit } = await startServer()
    const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 })
    try {
      expect(await get(agent, port, '/api/v1/openapi.json')).toBe(200)
      expect(Object.values(agent.freeSockets).flat()).toHaveLength(1) // the connection stays open
      child.kill('SIGTERM')
      expect(await exit).toEqual({ code: 0, signal: null })
    } finally {
      agent.destroy()
      child.kill('SIGKILL')
    }
  }, 120_000)

  it('exits 0 while a client is half-way through sending a request', async () => {
    const { child, port, exit } = await startServer()
    const agent = new http.Agent({ keepAlive: true })
    const socket = connect(port, '127.0.0.1')
    socket.on('error', () => {})
    try {
      expect(await get(agent, port, '/api/v1/openapi.json')).toBe(200)
      // Headers begun, never finished: Node alone would keep this connection until its 60-s
      // headersTimeout, and the process with it.
      await new Promise<void>((resolve) => socket.write('GET /api/v1/openapi.json HTTP/1.1\r\nHost: botwars.test\r\n', () => resolve()))
      await new Promise((r) => setTimeout(r, 200))
      child.kill('SIGTERM')
      expect(await exit).toEqual({ code: 0, signal: null })
    } finally {
      socket.destroy()
      agent.destroy()
      child.kill('SIGKILL')
    }
  }, 120_000)
})
