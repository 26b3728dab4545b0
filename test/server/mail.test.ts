// Mail through a real SMTP server on 127.0.0.1: recipients, subjects, each hand mail holding
// exactly its player's cards; a server that is down delays mail but loses none; sent once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardLabel } from '../../src/render/cards.js'
import type { GameState } from '../../src/engine/types.js'
import { GIVE_UP_AFTER_MS, retryDelay } from '../../src/server/mail/worker.js'
import { PLAYERS, setUpGame, tempDir, testApp, type TestApp } from './helpers.js'
import { startSmtp } from './smtp.js'

let smtp: Awaited<ReturnType<typeof startSmtp>>
let t: TestApp
let dir: string
beforeAll(async () => {
  smtp = await startSmtp()
  dir = tempDir()
  t = await testApp({ dir, smtpUrl: smtp.url })
})
afterAll(async () => { await t.close(); await smtp.close() })

describe('mail through SMTP', () => {
  it('sends the sign-in, invitation and hand mails, each hand with exactly its player\'s cards', async () => {
    const { gm, gameId } = await setUpGame(t.app, PLAYERS)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/start`)).status).toBe(200)
    await t.app.mailer.deliver()
    expect(t.app.services.outbox.all().every((r) => r.status === 'sent')).toBe(true)

    const signIns = smtp.received.filter((m) => m.subject === 'Your BotWars sign-in link')
    expect(signIns.map((m) => m.to[0]).sort()).toEqual(['ann@example.org', 'bob@example.org', 'cid@example.org', 'gm@example.org'])
    const invitations = smtp.received.filter((m) => m.subject === 'Invitation to the BotWars game "Test game"')
    expect(invitations.map((m) => m.to[0])).toEqual(PLAYERS.map((p) => p.email))

    const dealt = JSON.parse((t.app.services.db.prepare('SELECT dealt_state_json FROM turns WHERE game_id = ?').get(gameId) as { dealt_state_json: string }).dealt_state_json) as GameState
    const hands = smtp.received.filter((m) => m.subject.startsWith('Turn 1 of "Test game" — your program is due '))
    expect(hands).toHaveLength(3)
    // Cards in words, as on the pages: "Move 2 (700)".
    const everyCard = Object.values(dealt.hands).flat().map(cardLabel)
    PLAYERS.forEach((p, seat) => {
      const mail = hands.find((m) => m.to.length === 1 && m.to[0] === p.email)!
      const own = dealt.hands[`P${seat + 1}`]!.map(cardLabel)
      const shown = everyCard.filter((c) => mail.text.includes(c))
      expect(shown.sort()).toEqual([...own].sort())
      expect(mail.text).toMatch(/HP: +10/)
      expect(mail.text).toMatch(/Robots left: +3/)
      expect(mail.text).toMatch(/Your program is due \w{3} \d+ \w{3} \d\d:\d\d UTC\./)
      expect(mail.text).toContain(`http://botwars.test/games/${gameId}/turns/1/submit`)
    })
  })

  it('keeps mail while the server is down, retries with backoff, and sends each message once', async () => {
    const before = smtp.received.length
    smtp.outOfService()
    const gm = (await import('./helpers.js')).client(t.app, 'x')
    for (const email of ['d1@example.org', 'd2@example.org']) expect((await gm.call('POST', '/api/v1/auth/login', { email })).status).toBe(202)

    expect(await t.app.mailer.deliver()).toBe(0)
    let pending = t.app.services.outbox.all().filter((r) => r.status !== 'sent')
    expect(pending).toHaveLength(2)
    expect(pending[0]!.attempts).toBe(1)
    expect(pending[0]!.next_attempt_at).toBe(t.clock.now + retryDelay(1))
    expect(pending[0]!.last_error).toBeTruthy()

    // Not yet due: nothing is tried.
    expect(await t.app.mailer.deliver()).toBe(0)
    expect(t.app.services.outbox.all().find((r) => r.id === pending[0]!.id)!.attempts).toBe(1)
    t.clock.now += retryDelay(1)
    expect(await t.app.mailer.deliver()).toBe(0)
    pending = t.app.services.outbox.all().filter((r) => r.status !== 'sent')
    expect(pending[0]!.attempts).toBe(2)
    expect(pending[0]!.next_attempt_at).toBe(t.clock.now + retryDelay(2))
    expect(retryDelay(2)).toBe(2 * retryDelay(1))

    smtp.restart()
    t.clock.now += retryDelay(2)
    expect(await t.app.mailer.deliver()).toBe(2)
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(['d1@example.org', 'd2@example.org'])
    expect(await t.app.mailer.deliver()).toBe(0)
    expect(smtp.received).toHaveLength(2)
    expect(before).toBeGreaterThan(0)
  })

  it('gives up a message the server refuses for good, sends the rest, and shows it on the GM console', async () => {
    smtp.restart({ refuse: (address) => address.endsWith('@refused.example') })
    const { gm, gameId } = await setUpGame(t.app, PLAYERS.slice(0, 1), { seats: 2 })
    expect((await gm.call('POST', `/api/v1/games/${gameId}/invites`, { email: 'typo@refused.example' })).status).toBe(201)
    const ok = await gm.call('POST', '/api/v1/auth/login', { email: 'fine@example.org' })
    expect(ok.status).toBe(202)
    await t.app.mailer.deliver()
    const rows = t.app.services.outbox.all()
    const refused = rows.find((r) => r.recipient === 'typo@refused.example')!
    expect(refused).toMatchObject({ status: 'failed', attempts: 1 })
    expect(refused.last_error).toMatch(/550|no such mailbox/)
    expect(rows.find((r) => r.recipient === 'fine@example.org')!.status).toBe('sent') // sent after the refusal, same round
    t.clock.now += 10 * retryDelay(10)
    await t.app.mailer.deliver()
    expect(t.app.services.outbox.all().find((r) => r.id === refused.id)).toMatchObject({ status: 'failed', attempts: 1 })
    const page = await t.app.inject({ method: 'GET', url: `/games/${gameId}/gm`, headers: { cookie: gm.headers.cookie! } })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('Mail that could not be delivered')
    expect(page.body).toContain('typo@refused.example')
    smtp.restart()
  })

  it('gives up a message that could not be sent for three days (the server down all along)', async () => {
    smtp.outOfService()
    const gm = (await import('./helpers.js')).client(t.app, 'x')
    expect((await gm.call('POST', '/api/v1/auth/login', { email: 'patient@example.org' })).status).toBe(202)
    const id = t.app.services.outbox.all().at(-1)!.id
    const row = () => t.app.services.outbox.all().find((r) => r.id === id)!
    const queuedAt = t.clock.now
    while (t.clock.now - queuedAt < GIVE_UP_AFTER_MS) {
      expect(await t.app.mailer.deliver()).toBe(0)
      expect(row().status).toBe('pending')
      t.clock.now = row().next_attempt_at
    }
    await t.app.mailer.deliver()
    expect(row().status).toBe('failed')
    expect(row().last_error).toMatch(/not sent for 3 days/)
    smtp.restart()
    await t.app.mailer.deliver()
    expect(smtp.received.some((m) => m.to.includes('patient@example.org'))).toBe(false)
  })

  it('two workers on one database never send a message twice', async () => {
    const other = await testApp({ dir, smtpUrl: smtp.url, clock: t.clock })
    try {
      const anon = (await import('./helpers.js')).client(t.app, 'x')
      for (let i = 0; i < 20; i++) await anon.call('POST', '/api/v1/auth/login', { email: `w${i}@example.org` })
      const start = smtp.received.length
      const [a, b] = await Promise.all([t.app.mailer.deliver(), other.app.mailer.deliver()])
      expect(a + b).toBe(20)
      const got = smtp.received.slice(start)
      expect(got).toHaveLength(20)
      expect(new Set(got.map((m) => m.messageId)).size).toBe(20)
    } finally {
      await other.app.close()
    }
  })
})

describe('a backlog', () => {
  it('goes out in one deliver() call while batches come back full, over a pooled connection', async () => {
    const s = await startSmtp(0, { parse: false })
    // No real-time budget: this tests the batching, not the machine's speed (that is a benchmark's job).
    const b = await testApp({ smtpUrl: s.url, mailBudgetMs: Infinity })
    try {
      for (let i = 0; i < 250; i++) b.app.services.mail({ kind: 'test', gameId: null, to: `r${i}@example.org`, subject: `backlog ${i}`, body: 'hello' })
      expect(await b.app.mailer.deliver()).toBe(250)
      expect(b.app.services.outbox.all().every((r) => r.status === 'sent')).toBe(true)
      expect(new Set(s.received.filter((m) => m.subject.startsWith('backlog ')).map((m) => m.messageId)).size).toBe(250)
    } finally {
      await b.close()
      await s.close()
    }
  })
})
