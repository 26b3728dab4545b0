// Programs by reply through a real IMAP mailbox (dovecot on 127.0.0.1, started by the test):
// a whole turn played by mail, each message handled exactly once and moved (or flagged) when
// done, also when the server process is killed in the middle of a poll and started again.
import Database from '../../src/server/plugins/sqlite.js'
import { ImapFlow } from 'imapflow'
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DONE_FLAG, pollImapOnce } from '../../src/server/inbound/imap-poller.js'
import { PLAYERS, tempDir, testApp, type Client } from '../server/helpers.js'
import { startSmtp } from '../server/smtp.js'
import { hasDovecot, startDovecot, type Dovecot } from './dovecot.js'
import { firstCards, startedGame } from './helpers.js'

const BOX = 'botwars@example.org'
let dovecot: Dovecot
let smtp: Awaited<ReturnType<typeof startSmtp>>
beforeAll(async () => {
  smtp = await startSmtp()
  if (hasDovecot) dovecot = await startDovecot()
})
afterAll(async () => { await dovecot?.stop(); await smtp.close() })

async function imap<T>(work: (c: ImapFlow) => Promise<T>): Promise<T> {
  const c = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: dovecot.user, pass: dovecot.pass }, logger: false })
  await c.connect()
  try {
    return await work(c)
  } finally {
    await c.logout()
  }
}
const count = (mailbox: string) => imap(async (c) => { const s = await c.status(mailbox, { messages: true }); return s ? s.messages ?? 0 : 0 })

/** A started game whose turn mails carry plus addresses on BOX; the players' replies, ready to deliver. */
async function gameWithReplies(dir: string) {
  const t = await testApp({ dir, smtpUrl: smtp.url })
  t.app.services.mailDomain = BOX
  const { gameId, players } = await startedGame(t.app)
  const replies = await Promise.all(PLAYERS.map(async (p, i) => {
    const row = t.app.services.outbox.all().filter((r) => r.recipient === p.email && r.kind === 'hand').at(-1)!
    const to = JSON.parse(row.headers_json!)['Reply-To'] as string
    const cards = await firstCards(players[i] as Client, gameId, 1)
    return { player: `P${i + 1}`, cards, raw: `From: ${p.name} <${p.email}>\r\nTo: ${to}\r\nSubject: Re: Turn 1\r\nMessage-ID: <reply-${gameId}-${i}@example.org>\r\n\r\n${cards.join('\r\n')}\r\n\r\n> the quoted turn mail\r\n` }
  }))
  return { t, gameId, replies }
}

const programs = (db: Database.Database) => db.prepare('SELECT player_id, version, cards_json FROM submissions ORDER BY id').all() as { player_id: string; version: number; cards_json: string }[]

describe.skipIf(!hasDovecot)('programs by reply over IMAP', () => {
  it('plays a whole turn from the mailbox, answers each player, and moves each message once', async () => {
    const { t, replies } = await gameWithReplies(tempDir())
    try {
      await imap(async (c) => { for (const r of replies) await c.append('INBOX', r.raw) })
      const options = { url: dovecot.url(), doneMailbox: 'BotWars-done', log: { warn: () => {} } }
      expect(await pollImapOnce(t.app.services, options)).toBe(3)
      expect(await pollImapOnce(t.app.services, options)).toBe(0)
      expect(await count('INBOX')).toBe(0)
      expect(await count('BotWars-done')).toBe(3)
      expect(programs(t.app.services.db).map((p) => [p.player_id, p.version, JSON.parse(p.cards_json)])).toEqual(replies.map((r) => [r.player, 1, r.cards]))
      expect(t.app.services.outbox.all().filter((r) => r.kind === 'reply-confirmation').map((r) => r.recipient).sort()).toEqual(PLAYERS.map((p) => p.email).sort())
      expect(t.app.runDueWork().closed).toBe(1) // every program in: the turn closes early
    } finally {
      await t.close()
    }
  })

  it('without a done mailbox, flags handled mail and leaves it in place', async () => {
    const { t, replies } = await gameWithReplies(tempDir())
    try {
      await imap(async (c) => { for (const r of replies.slice(0, 2)) await c.append('INBOX', r.raw) })
      const options = { url: dovecot.url(), log: { warn: () => {} } }
      expect(await pollImapOnce(t.app.services, options)).toBe(2)
      const flagged = await imap(async (c) => {
        const lock = await c.getMailboxLock('INBOX')
        try { return await c.search({ keyword: DONE_FLAG, seen: true }, { uid: true }) } finally { lock.release() }
      })
      expect(flagged || []).toHaveLength(2)
      expect(await pollImapOnce(t.app.services, options)).toBe(0)
      expect(programs(t.app.services.db)).toHaveLength(2)
      await imap(async (c) => {
        const lock = await c.getMailboxLock('INBOX')
        try { await c.messageDelete('1:*', { uid: true }) } finally { lock.release() }
      })
    } finally {
      await t.close()
    }
  })

  it('reads only the headers of a mail over 1 MB, refuses it politely, and stores nothing', async () => {
    const { t, replies } = await gameWithReplies(tempDir())
    try {
      const big = replies[0]!.raw.replace('\r\n\r\n', '\r\n\r\n' + 'padding line of a huge mail\r\n'.repeat(60_000))
      await imap(async (c) => { await c.append('INBOX', big) })
      expect(await pollImapOnce(t.app.services, { url: dovecot.url(), doneMailbox: 'Big-done', log: { warn: () => {} } })).toBe(1)
      expect(programs(t.app.services.db)).toEqual([])
      const refusal = t.app.services.outbox.all().filter((r) => r.kind === 'reply-refusal').at(-1)!
      expect(refusal.recipient).toBe(PLAYERS[0]!.email)
      expect(refusal.body.replace(/\s+/g, ' ')).toMatch(/it was 1\.\d MB, and only mails up to 1 MB are read/)
    } finally {
      await t.close()
    }
  })

  it('handles each message exactly once across a kill -9 of the server in the middle of a poll', async () => {
    const dir = tempDir()
    const { t, replies } = await gameWithReplies(dir)
    await t.close()
    await imap(async (c) => { for (const r of replies) await c.append('INBOX', r.raw) })
    const env = { IMAP_URL: dovecot.url(), IMAP_DONE_MAILBOX: 'Done-restart', MAIL_DOMAIN: BOX }

    // Killed right after the first message's transaction committed, before it was moved.
    const first = startServer(dir, { ...env, BOTWARS_CRASH_POINT: 'imap-after-commit' })
    expect(await exited(first)).toMatchObject({ signal: 'SIGKILL' })
    const db = new Database(join(dir, 'botwars.db'), { readonly: true })
    try {
      expect(programs(db)).toHaveLength(1)
      expect(await count('INBOX')).toBe(3) // handled but not moved: the restart must not handle it again

      const second = startServer(dir, env)
      await until(async () => programs(db).length === 3 && (await count('INBOX')) === 0)
      second.kill('SIGTERM')
      expect(await exited(second)).toMatchObject({ code: 0 })
      expect(programs(db).map((p) => [p.player_id, p.version, JSON.parse(p.cards_json)])).toEqual(replies.map((r) => [r.player, 1, r.cards]))
      expect(await count('Done-restart')).toBe(3)
      const handled = db.prepare("SELECT outcome, COUNT(*) AS n FROM inbound_messages GROUP BY outcome").all()
      expect(handled).toEqual([{ outcome: 'stored', n: 3 }])
      expect(db.prepare("SELECT COUNT(*) AS n FROM outbox WHERE kind = 'reply-confirmation'").get()).toEqual({ n: 3 })
    } finally {
      db.close()
    }
  }, 120_000)
})

function startServer(dir: string, extra: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    cwd: join(import.meta.dirname, '../..'),
    env: {
      ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'botwars.db'), SMTP_URL: smtp.url,
      BASE_URL: 'http://botwars.test', LOG_LEVEL: 'warn', BOTWARS_CRASH_POINT: '', IMAP_POLL_SECONDS: '5', ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(d))
  return child
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

async function until(check: () => Promise<boolean>, ms = 60_000) {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 250))
  }
}
