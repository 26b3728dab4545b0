// Crash safety with the real server process: it kills itself (SIGKILL) inside the transaction
// that closes a turn; after a restart the turn is closed exactly once, with no submission lost
// and no mail lost or doubled. Also: two server processes on one database close a turn once.
import Database from '../../src/server/plugins/sqlite.js'
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DAY, PLAYERS, setUpGame, tempDir, testApp, type Client } from '../server/helpers.js'
import { startSmtp } from '../server/smtp.js'

let smtp: Awaited<ReturnType<typeof startSmtp>>
beforeAll(async () => { smtp = await startSmtp() })
afterAll(async () => { await smtp.close() })

/** A game whose turn 1 deadline passed five days ago, two of three programs in, every mail so far sent. */
async function gameWithDueTurn(dir: string) {
  const clock = { now: Date.now() - 10 * DAY }
  const t = await testApp({ dir, smtpUrl: smtp.url, clock })
  const { gm, gameId, players } = await setUpGame(t.app, PLAYERS, { reviewWindowHours: 0, closeEarly: false })
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`)).status).toBe(200)
  for (const c of players.slice(0, 2) as Client[]) {
    const me = (await c.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me
    expect((await c.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: me.hand.slice(0, 5) })).status).toBe(201)
  }
  await t.app.mailer.deliver()
  await t.close()
  return gameId
}

function startServer(dir: string, extra: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    cwd: join(import.meta.dirname, '../..'),
    env: {
      ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'botwars.db'), SMTP_URL: smtp.url,
      BASE_URL: 'http://botwars.test', LOG_LEVEL: 'warn', BOTWARS_CRASH_POINT: '', ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

function snapshot(dir: string) {
  const db = new Database(join(dir, 'botwars.db'), { readonly: true })
  try {
    return {
      turns: db.prepare('SELECT number, status, result_json IS NOT NULL AS resolved FROM turns ORDER BY number').all() as { number: number; status: string; resolved: number }[],
      submissions: db.prepare('SELECT id, turn_id, player_id, version, cards_json, submitted_at FROM submissions ORDER BY id').all(),
      outbox: db.prepare('SELECT id, kind, recipient, status, created_at FROM outbox ORDER BY id').all() as { id: number; kind: string; recipient: string; status: string; created_at: number }[],
      game: db.prepare('SELECT status, state_json FROM games').get() as { status: string; state_json: string },
    }
  } finally {
    db.close()
  }
}

/** Polls the database until `check` holds; `ms` only guards against a hang (two tsx servers start on a loaded 2-CPU machine). */
async function until(check: () => boolean, ms = 90_000) {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 200))
  }
}

const outboxIdsReceived = () => smtp.received.map((m) => Number(/outbox-(\d+)-/.exec(m.messageId)?.[1]))

describe('crash in the middle of closing a turn', () => {
  it('leaves the turn fully open, then closes it exactly once after a restart', async () => {
    const dir = tempDir()
    await gameWithDueTurn(dir)
    const before = snapshot(dir)
    const receivedBefore = smtp.received.length
    expect(before.turns).toEqual([{ number: 1, status: 'open', resolved: 0 }])
    expect(before.outbox.every((m) => m.status === 'sent')).toBe(true)

    const crashing = startServer(dir, { BOTWARS_CRASH_POINT: 'close-turn' })
    const crash = await exited(crashing)
    expect(crash.signal).toBe('SIGKILL')

    const afterCrash = snapshot(dir)
    expect(afterCrash.turns).toEqual(before.turns) // nothing of the close survived
    expect(afterCrash.submissions).toEqual(before.submissions)
    expect(afterCrash.outbox).toEqual(before.outbox)
    expect(afterCrash.game.state_json).toBe(before.game.state_json)
    expect(smtp.received.length).toBe(receivedBefore)

    const server = startServer(dir)
    await until(() => {
      const s = snapshot(dir)
      return s.turns.length === 2 && s.outbox.length > before.outbox.length && s.outbox.every((m) => m.status === 'sent')
    })
    server.kill('SIGTERM')
    expect(await exited(server)).toEqual({ code: 0, signal: null })

    const after = snapshot(dir)
    expect(after.turns).toEqual([{ number: 1, status: 'published', resolved: 1 }, { number: 2, status: 'open', resolved: 0 }])
    expect(after.submissions).toEqual(before.submissions)
    const added = after.outbox.slice(before.outbox.length)
    // One turn mail per player (results and new hand together); the GM, who does not play, the results.
    expect(added.filter((m) => m.kind === 'results').map((m) => m.recipient).sort()).toEqual(['gm@example.org'])
    expect(added.filter((m) => m.kind === 'hand').map((m) => m.recipient).sort()).toEqual(['ann@example.org', 'bob@example.org', 'cid@example.org'])
    // Every message sent exactly once: each outbox row arrived once, nothing else arrived.
    const ids = outboxIdsReceived()
    expect(ids.slice().sort((a, b) => a - b)).toEqual(after.outbox.map((m) => m.id))
  }, 120_000)
})

describe('two server processes on one database', () => {
  it('close a due turn once and send each mail once', async () => {
    const dir = tempDir()
    smtp.received.length = 0
    await gameWithDueTurn(dir)
    const before = snapshot(dir)
    const servers = [startServer(dir), startServer(dir)]
    await until(() => {
      const s = snapshot(dir)
      return s.turns.length === 2 && s.outbox.length > before.outbox.length && s.outbox.every((m) => m.status === 'sent')
    })
    // Give both a further tick to do anything they might do twice.
    await new Promise((r) => setTimeout(r, 6000))
    for (const s of servers) s.kill('SIGTERM')
    await Promise.all(servers.map(exited))
    const after = snapshot(dir)
    expect(after.turns.map((t) => t.status)).toEqual(['published', 'open'])
    expect(after.outbox.filter((m) => m.kind === 'results')).toHaveLength(1)
    const ids = outboxIdsReceived()
    expect(ids.slice().sort((a, b) => a - b)).toEqual(after.outbox.map((m) => m.id))
  }, 120_000)
})
