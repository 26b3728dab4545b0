// Secrecy: before publication a player sees only their own hand and program; a GM who plays sees
// the others' programs only once their own is locked; spectators see published turns only. Every
// response of every reading route is searched for the hidden cards (`KIND:PRIORITY`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCard } from '../../src/engine/deck.js'
import type { Card, GameState } from '../../src/engine/types.js'
import { membership } from '../../src/server/services/membership.js'
import { submissionHistory, turnView } from '../../src/server/services/views.js'
import { client, HOUR, setUpGame, testApp, type Client, type TestApp } from './helpers.js'

let t: TestApp
let gm: Client, ann: Client, bob: Client, spectator: Client, stranger: Client
let gameId: string, publicToken: string

beforeAll(async () => {
  t = await testApp()
  const set = await setUpGame(t.app, [
    { email: 'ann@example.org', name: 'Ann', colour: 'red' },
    { email: 'bob@example.org', name: 'Bob', colour: 'blue' },
  ], { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow', reviewWindowHours: 24 })
  ;({ gm, gameId } = set)
  ;[ann, bob] = set.players as [Client, Client]
  publicToken = (await gm.call('GET', `/api/v1/games/${gameId}`)).json.publicToken
  spectator = client(t.app, 'spectator')
  const { signIn } = await import('./helpers.js')
  stranger = await signIn(t.app, 'stranger@example.org')
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`)).status).toBe(200)
})
afterAll(async () => { await t.close() })

const turnRows = () => t.app.services.db.prepare('SELECT * FROM turns WHERE game_id = ? ORDER BY number').all(gameId) as
  { id: number; number: number; status: string; dealt_state_json: string; result_json: string | null }[]
const cardsOf = (list: readonly (Card | null)[]) => list.filter((c): c is Card => c !== null).map(formatCard)

/** Cards a viewer may not see now: other players' hands of unpublished turns, less whatever has legitimately become public. */
function hiddenFrom(player: string | null, options: { programsSeen?: boolean } = {}): Set<string> {
  const hidden = new Set<string>()
  const visible = new Set<string>()
  for (const turn of turnRows()) {
    const dealt = JSON.parse(turn.dealt_state_json) as GameState
    for (const robot of dealt.robots) for (const c of Object.values(robot.fused)) if (c) visible.add(formatCard(c))
    for (const c of cardsOf(dealt.hands[player ?? ''] ?? [])) visible.add(c)
    if (turn.status === 'published') {
      const result = JSON.parse(turn.result_json!) as { registers: Record<string, (Card | null)[]> }
      for (const list of Object.values(result.registers)) for (const c of cardsOf(list)) visible.add(c)
      continue
    }
    for (const [p, hand] of Object.entries(dealt.hands)) if (p !== player) for (const c of cardsOf(hand)) hidden.add(c)
    if (options.programsSeen) {
      const rows = t.app.services.db.prepare('SELECT cards_json FROM submissions WHERE turn_id = ?').all(turn.id) as { cards_json: string }[]
      for (const row of rows) for (const c of JSON.parse(row.cards_json) as string[]) visible.add(c)
    }
  }
  for (const c of visible) hidden.delete(c)
  return hidden
}

/** Every reading route, as this viewer sees it (the OpenAPI document is static and quotes example cards). */
async function everything(c: Client): Promise<string[]> {
  const turns = turnRows().map((r) => r.number)
  const urls = ['/api/v1/me', '/api/v1/games', '/api/v1/boards', `/api/v1/games/${gameId}`,
    `/api/v1/games/${gameId}/history`, `/api/v1/public/${publicToken}`]
  for (const n of turns) {
    urls.push(`/api/v1/games/${gameId}/turns/${n}`, `/api/v1/games/${gameId}/turns/${n}/submissions`, `/api/v1/public/${publicToken}/turns/${n}`)
  }
  const out: string[] = []
  for (const url of urls) out.push((await c.call('GET', url)).text)
  return out
}

async function expectNoLeak(c: Client, player: string | null, options: { programsSeen?: boolean } = {}) {
  const hidden = hiddenFrom(player, options)
  expect(hidden.size).toBeGreaterThan(0)
  const bodies = await everything(c)
  for (const body of bodies) {
    for (const card of hidden) expect(body, `${c.email} sees ${card}`).not.toContain(card)
  }
  return bodies
}

async function submitFirstCards(c: Client, turn: number) {
  const me = (await c.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json.me
  const cards = me.hand.slice(0, 5 - Object.keys(me.robot.fused).length)
  expect((await c.call('POST', `/api/v1/games/${gameId}/turns/${turn}/submission`, { cards })).status).toBe(201)
  return cards as string[]
}

describe('before publication', () => {
  it('each player sees their own hand and only whether others submitted', async () => {
    const annCards = await submitFirstCards(ann, 1)
    const view = (await bob.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
    expect(view.submitted).toEqual([
      { player: 'P1', name: 'Gemma', submitted: false },
      { player: 'P2', name: 'Ann', submitted: true },
      { player: 'P3', name: 'Bob', submitted: false },
    ])
    expect(view.programs).toBeNull()
    expect(view.me.hand).toHaveLength(9)
    const annView = (await ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
    expect(annView.me.submission.cards).toEqual(annCards)
    await expectNoLeak(ann, 'P2')
    await expectNoLeak(bob, 'P3')
    await expectNoLeak(spectator, null)
    await expectNoLeak(stranger, null)
  })

  it('the views alone show a signed-in stranger nothing, whatever route reaches them', async () => {
    // The routes turn a stranger away first (memberOf: 404); the views must not lean on that.
    // Ann's program is in (the test before).
    const strangerRow = t.app.services.users.byEmail('stranger@example.org')!
    const m = membership(t.app.services, gameId, { user: strangerRow })
    expect([m.isGm, m.seat]).toEqual([false, undefined])
    const turn = t.app.services.turns.current(gameId)!
    expect(turn.status).toBe('open')
    expect(submissionHistory(t.app.services, m, turn, 1, 10)).toEqual({ submissions: {}, more: false })
    const view = turnView(t.app.services, m, turn)
    expect([view.me, view.programs, view.result, view.corrections]).toEqual([null, null, null, []])
    expect((await stranger.call('GET', `/api/v1/games/${gameId}/turns/1/submissions`)).status).toBe(404)
  })

  it('a GM who plays sees the other programs only once the GM\'s own program is locked (final)', async () => {
    expect((await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.programs).toBeNull()
    expect(Object.keys((await gm.call('GET', `/api/v1/games/${gameId}/turns/1/submissions`)).json.submissions)).toEqual(['P1'])
    await expectNoLeak(gm, 'P1')
    await submitFirstCards(gm, 1)
    // A program in is not enough: it could still be changed (test/security/gm-plays.test.ts).
    expect((await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.programs).toBeNull()
    await expectNoLeak(gm, 'P1')
    expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/1/lock`, { confirm: true })).status).toBe(200)
    const view = (await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json
    expect(Object.keys(view.programs).sort()).toEqual(['P1', 'P2'])
    expect([view.me.locked, view.me.canSubmit]).toEqual([true, false])
    // The lock is the GM's own: the players' programs stay open to change.
    const annAfter = (await ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me
    expect([annAfter.locked, annAfter.canSubmit]).toEqual([false, true])
    // Still never the hands of others: only the programs that are in.
    await expectNoLeak(gm, 'P1', { programsSeen: true })
  })

  it('the draft is the GM\'s alone', async () => {
    await submitFirstCards(bob, 1)
    expect(t.app.runDueWork().closed).toBe(1)
    expect((await gm.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result).not.toBeNull()
    expect((await ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result).toBeNull()
    expect((await spectator.call('GET', `/api/v1/public/${publicToken}/turns/1`)).status).toBe(404)
    // Of the turn in review a spectator learns its number, its status and its deadline: nothing else.
    const current = (await spectator.call('GET', `/api/v1/public/${publicToken}`)).json.currentTurn
    expect(Object.keys(current)).toEqual(['number', 'status', 'deadline'])
    expect([current.number, current.status]).toEqual([1, 'draft'])
    await expectNoLeak(ann, 'P2')
    await expectNoLeak(bob, 'P3')
    await expectNoLeak(spectator, null)
  })
})

describe('after publication', () => {
  it('everyone sees the published turn; the next hands stay secret', async () => {
    t.clock.now += 25 * HOUR
    expect(t.app.runDueWork().published).toBe(1)
    const seen = (await spectator.call('GET', `/api/v1/public/${publicToken}/turns/1`)).json
    expect(Object.keys(seen.programs).sort()).toEqual(['P1', 'P2', 'P3'])
    expect(seen.result.report).toContain('Turn 1')
    expect((await ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.result.registers.P3).toHaveLength(5)
    expect(turnRows()).toHaveLength(2)
    for (const [c, p] of [[ann, 'P2'], [bob, 'P3'], [gm, 'P1'], [spectator, null], [stranger, null]] as const) await expectNoLeak(c, p)
  })

  it('no response ever carries the generator state or the seed', async () => {
    const bodies = await everything(gm)
    for (const body of bodies) {
      expect(body).not.toMatch(/"rng"|"seed"|dealt_state/)
    }
  })
})

describe('permissions', () => {
  it('only the GM can do GM actions; strangers see nothing of the game', async () => {
    for (const [url, body] of [
      [`/api/v1/games/${gameId}/pause`, {}], [`/api/v1/games/${gameId}/abandon`, {}], [`/api/v1/games/${gameId}/deadline`, { extendHours: 1 }],
      [`/api/v1/games/${gameId}/invites`, { email: 'x@example.org' }], [`/api/v1/games/${gameId}/seats/2/remove`, {}],
      [`/api/v1/games/${gameId}/turns/2/publish`, {}], [`/api/v1/games/${gameId}/turns/2/reopen`, { player: 'P2' }],
    ] as const) {
      expect((await ann.call('POST', url, body)).status, url).toBe(403)
      expect((await stranger.call('POST', url, body)).status, url).toBe(404)
      expect((await spectator.call('POST', url, body)).status, url).toBe(401)
    }
    expect((await stranger.call('GET', `/api/v1/games/${gameId}`)).status).toBe(404)
    expect((await stranger.call('POST', `/api/v1/games/${gameId}/turns/2/submission`, { cards: [] })).status).toBe(404)
  })
})
