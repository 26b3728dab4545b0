// Reminder timing with the test's clock (issue 14): one reminder per turn, to players whose
// program is not in, the game's reminder time before the deadline (12 hours unless the GM chose);
// never for a turn shorter than twice that, so never in the hour of the deal.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HOUR, signIn } from '../server/helpers.js'
import { firstCards, mailWorld, startedGame, type MailWorld } from './helpers.js'

let w: MailWorld
beforeEach(async () => { w = await mailWorld() })
afterEach(async () => { await w.close() })

const reminders = () => w.t.app.services.outbox.all().filter((r) => r.kind === 'reminder')

describe('reminders', () => {
  it('go 12 hours before the deadline by default, once, only to players whose program is not in', async () => {
    const { gameId, players } = await startedGame(w.t.app, { turnLengthHours: 48 })
    const dealtAt = w.t.clock.now
    const deadline = dealtAt + 48 * HOUR
    await players[0]!.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: await firstCards(players[0]!, gameId, 1) })
    expect(w.t.app.runDueWork().reminded).toBe(0) // the deal's second: never
    w.t.clock.now = deadline - 12 * HOUR - 1000
    expect(w.t.app.runDueWork().reminded).toBe(0)
    w.t.clock.now = deadline - 12 * HOUR
    expect(w.t.app.runDueWork().reminded).toBe(1)
    expect(w.t.app.runDueWork().reminded).toBe(0)
    expect(reminders().map((r) => r.recipient).sort()).toEqual(['bob@example.org', 'cid@example.org'])
    expect(reminders()[0]!.subject).toBe('Turn 1 of "Test game" — reminder: your program is due Wed 9 Jan 12:00 UTC')
    expect(JSON.parse(reminders()[0]!.headers_json!)['Reply-To']).toMatch(/^turn-[a-z2-7]{24}@play\.botwars\.test$/)
  })

  it('never go when the turn is shorter than twice the reminder time (the old 24-hour turn sent three mails at once)', async () => {
    const { gameId } = await startedGame(w.t.app, { turnLengthHours: 23 })
    for (let h = 0; h < 23; h++) {
      w.t.clock.now += HOUR
      w.t.app.runDueWork()
    }
    expect(reminders()).toHaveLength(0)
    expect(w.t.app.services.turns.byNumber(gameId, 1)!.status).not.toBe('open')
  })

  it('follow the GM\'s setting', async () => {
    const { gameId } = await startedGame(w.t.app, { turnLengthHours: 12, reminderHours: 5 })
    const deadline = w.t.app.services.turns.byNumber(gameId, 1)!.deadline
    w.t.clock.now = deadline - 5 * HOUR - 1
    expect(w.t.app.runDueWork().reminded).toBe(0)
    w.t.clock.now = deadline - 5 * HOUR
    expect(w.t.app.runDueWork().reminded).toBe(1)
    expect(reminders()).toHaveLength(3)
  })

  it('are set by the GM on the new-game page, with the reply-from-any-address setting', async () => {
    const gm = await signIn(w.t.app, 'gm@example.org')
    const { browser, csrfOf } = await import('../pages/helpers.js')
    const page = browser(w.t.app, gm)
    const form = await page.get('/games/new')
    expect(form.body).toContain('name="reminderHours"')
    const made = await page.post('/games/new', { _csrf: csrfOf(form.body), name: 'Mail game', boardChoice: 'training-floor', seats: '2', turnLengthHours: '48', reviewWindowHours: '0', reminderHours: '6', replyFromAnyAddress: 'on', action: 'create' })
    expect(made.status).toBe(303)
    const game = w.t.app.services.db.prepare("SELECT reminder_before_ms, reply_from_any FROM games WHERE name = 'Mail game'").get()
    expect(game).toEqual({ reminder_before_ms: 6 * HOUR, reply_from_any: 1 })
    const bad = await page.post('/games/new', { _csrf: csrfOf((await page.get('/games/new')).body), name: 'Bad', boardChoice: 'training-floor', seats: '2', turnLengthHours: '48', reviewWindowHours: '0', reminderHours: '0.5', action: 'create' })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatch(/the reminder time in hours must be at least 1/i)
  })

  it('refuse a reminder time out of range, naming the field', async () => {
    const gm = await signIn(w.t.app, 'gm@example.org')
    const res = await gm.call('POST', '/api/v1/games', { name: 'X', board: 'training-floor', seats: 2, reminderHours: 0.5 })
    expect(res.status).toBe(400)
    expect(res.json.field ?? res.json.message).toMatch(/reminderHours/)
  })
})
