// Questions and press (issue 12): who reads which thread, table talk off by default, plain text
// and length limits, the GM hiding a message, and batched mail (one per reader per 15 minutes,
// never with a message the reader may not see), over the real outbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testApp, PLAYERS, signIn, type Client, type TestApp } from '../server/helpers.js'
import { mailsOf, startedGame } from './helpers.js'

let t: TestApp
let gm: Client, ann: Client, bob: Client, cid: Client, gameId: string
beforeAll(async () => {
  t = await testApp()
  const g = await startedGame(t.app)
  ;({ gm, gameId } = g)
  ;[ann, bob, cid] = g.players as [Client, Client, Client]
})
afterAll(async () => { await t.close() })

const bodies = async (c: Client) => (await c.call('GET', `/api/v1/games/${gameId}/messages`)).json.messages.map((m: any) => m.body)
const say = (c: Client, body: string, to?: string) => c.call('POST', `/api/v1/games/${gameId}/messages`, { body, ...(to ? { to } : {}) })

describe('message threads', () => {
  it('public to the table, private between the GM and one player; players only with table talk', async () => {
    expect((await say(ann, 'Hello table')).status).toBe(201)
    expect((await say(ann, 'GM, may I reboot and move?', 'gm')).status).toBe(201)
    expect((await say(gm, 'Yes: R33 says you may declare it.', 'P1')).status).toBe(201)
    const talk = await say(bob, 'Ann, team up?', 'P1')
    expect(talk.status).toBe(403)
    expect(talk.json.message).toMatch(/only to the GM/)
    expect(await bodies(ann)).toEqual(['Hello table', 'GM, may I reboot and move?', 'Yes: R33 says you may declare it.'])
    expect(await bodies(cid)).toEqual(['Hello table'])
    expect(await bodies(gm)).toEqual(['Hello table', 'GM, may I reboot and move?', 'Yes: R33 says you may declare it.'])
    const outsider = await signIn(t.app, 'nosy@example.org')
    expect((await outsider.call('GET', `/api/v1/games/${gameId}/messages`)).status).toBe(404)
    expect((await outsider.call('POST', `/api/v1/games/${gameId}/messages`, { body: 'hi' })).status).toBe(404)

    expect((await gm.call('POST', `/api/v1/games/${gameId}/settings`, { tableTalk: true })).status).toBe(200)
    expect((await say(bob, 'Ann, team up?', 'P1')).status).toBe(201)
    expect(await bodies(ann)).toContain('Ann, team up?')
    expect(await bodies(cid)).not.toContain('Ann, team up?')
    const mine = (await ann.call('GET', `/api/v1/games/${gameId}/messages`)).json.messages.at(-1)
    expect(mine).toMatchObject({ from: 'Bob', to: 'Ann', private: true, mine: false })
  })

  it('validates: plain text, not empty, at most 2000 characters, a real recipient', async () => {
    expect((await say(ann, '   ')).json).toMatchObject({ error: 'bad_request', field: 'body' })
    expect((await say(ann, 'x'.repeat(2001))).json).toMatchObject({ error: 'bad_request', field: 'body' })
    expect((await say(ann, 'hi', 'P9')).json).toMatchObject({ field: 'to' })
    expect((await say(ann, 'hi', 'P1')).json).toMatchObject({ field: 'to' }) // herself
    expect((await say(gm, 'hi', 'gm')).json).toMatchObject({ field: 'to' })
    expect((await say(ann, 'line one\r\nline two\u0007\u001b[31m <b>bold</b>')).status).toBe(201)
    expect((await bodies(cid)).at(-1)).toBe('line one\nline two[31m <b>bold</b>')
  })

  it('the GM hides an abusive message: kept in the log, shown to nobody else, never mailed', async () => {
    const sent = await say(cid, 'You are all idiots')
    const id = sent.json.id
    expect((await ann.call('POST', `/api/v1/games/${gameId}/messages/${id}/hide`, { reason: 'mine' })).status).toBe(403)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/messages/${id}/hide`, {})).json).toMatchObject({ field: 'reason' })
    expect((await gm.call('POST', `/api/v1/games/${gameId}/messages/999999/hide`, { reason: 'x' })).status).toBe(404)
    expect((await gm.call('POST', `/api/v1/games/${gameId}/messages/${id}/hide`, { reason: 'abuse' })).status).toBe(200)
    expect(await bodies(ann)).not.toContain('You are all idiots')
    expect(await bodies(cid)).not.toContain('You are all idiots')
    const seen = (await gm.call('GET', `/api/v1/games/${gameId}/messages`)).json.messages.find((m: any) => m.id === id)
    expect(seen).toMatchObject({ hidden: true, hiddenReason: 'abuse', body: 'You are all idiots' })
    expect((await gm.call('GET', `/api/v1/games/${gameId}/history`)).json.history.at(-1)).toMatchObject({ action: 'hide-message', reason: 'abuse', detail: { message: id } })
  })

  it('mails in batches: one mail per reader with what they may see, then none for 15 minutes', async () => {
    expect(mailsOf(t.app, null, 'messages')).toHaveLength(0) // nothing is mailed before the clockwork runs
    expect(t.app.runDueWork().messaged).toBe(4)
    const first = mailsOf(t.app, null, 'messages')
    expect(first.map((m) => m.recipient).sort()).toEqual([...PLAYERS.map((p) => p.email), 'gm@example.org'].sort())
    const to = (email: string) => first.find((m) => m.recipient === email)!.body
    expect(to('ann@example.org')).toContain('Yes: R33 says you may declare it.')
    expect(to('ann@example.org')).toContain('(to you only)')
    expect(to('cid@example.org')).toContain('Hello table')
    expect(to('cid@example.org')).not.toContain('R33')
    expect(to('cid@example.org')).not.toContain('team up')
    for (const m of first) expect(m.body).not.toContain('idiots')
    expect(to('gm@example.org')).toContain('GM, may I reboot and move?')
    expect(to('gm@example.org')).not.toContain('team up') // player to player: mailed to its reader only

    expect((await say(ann, 'One more thing')).status).toBe(201)
    t.clock.now += 14 * 60_000
    expect(t.app.runDueWork().messaged).toBe(0)
    expect((await say(ann, 'And another')).status).toBe(201)
    t.clock.now += 60_000
    expect(t.app.runDueWork().messaged).toBe(3)
    const second = mailsOf(t.app, null, 'messages').slice(first.length)
    expect(second.map((m) => m.recipient).sort()).toEqual(['bob@example.org', 'cid@example.org', 'gm@example.org'])
    expect(second[0]!.subject).toContain('2 new messages')
    expect(second[0]!.body).toMatch(/One more thing[\s\S]*And another/)
  })
})
