// A GM who also plays (rules: "if the GM is also playing, the GM's program is completed first"):
// the GM's own program becomes final before the GM sees any other program or any resolved result
// of the turn, on every route that can carry one (API game, turn, submissions, history; the GM
// console; the draft report, its replay and pictures; mail). Tried as an attacker would: a
// placeholder program to unlock the others, closing early to read the draft and reopening the own
// seat, emptying and re-taking a seat, all by the API and by the pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardLabel } from '../../src/render/cards.js'
import { PLAYERS, setUpGame, testApp, inviteToken, type Client, type TestApp } from '../server/helpers.js'
import { formToken } from './setup.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

interface Game { gm: Client; ann: Client; bob: Client; gameId: string }

async function playingGmGame(): Promise<Game> {
  const set = await setUpGame(t.app, PLAYERS.slice(0, 2), { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow', reviewWindowHours: 24, closeEarly: false })
  const [ann, bob] = set.players as [Client, Client]
  expect((await set.gm.call('POST', `/api/v1/games/${set.gameId}/start`, { reason: 'go' })).status).toBe(200)
  return { gm: set.gm, ann, bob, gameId: set.gameId }
}

async function submit(c: Client, g: Game, pick: (hand: string[]) => string[] = (h) => h.slice(0, 5)) {
  const me = (await c.call('GET', `/api/v1/games/${g.gameId}/turns/1`)).json.me
  const cards = pick(me.hand as string[])
  const res = await c.call('POST', `/api/v1/games/${g.gameId}/turns/1/submission`, { cards })
  return { res, cards }
}

const page = (c: Client, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: c.headers.cookie! } })

/** Everything the GM can read about turn 1: API, pages, pictures and the GM's mail. */
async function gmReads(g: Game): Promise<Record<string, string>> {
  const base = `/api/v1/games/${g.gameId}`
  const out: Record<string, string> = {}
  for (const url of [base, `${base}/turns/1`, `${base}/turns/1/submissions`, `${base}/history`]) out[url] = (await g.gm.call('GET', url)).text
  for (const url of [`/games/${g.gameId}`, `/games/${g.gameId}/gm`, `/games/${g.gameId}/turns/1`, `/games/${g.gameId}/turns/1/submit`,
    `/games/${g.gameId}/turns/1/replay/1`, `/games/${g.gameId}/turns/1/replay/end`, `/games/${g.gameId}/turns/1/pictures/after-1.svg`,
    `/games/${g.gameId}/turns/1/pictures/end.svg`, `/games/${g.gameId}/pictures/board.svg`]) {
    const res = await page(g.gm, url)
    out[url] = `${res.statusCode} ${res.body}`
  }
  out.mail = t.app.services.outbox.all().filter((m) => m.recipient === g.gm.email && m.game_id === g.gameId).map((m) => m.body).join('\n')
  return out
}

async function consolePost(g: Game, action: string, fields: Record<string, string>) {
  const { token, cookie } = await formToken(t.app, g.gm.headers.cookie!, `/games/${g.gameId}/gm`)
  return t.app.inject({
    method: 'POST', url: `/games/${g.gameId}/gm/${action}`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: token, ...fields }).toString(),
  })
}

const latestCards = async (c: Client, g: Game) => (await c.call('GET', `/api/v1/games/${g.gameId}/turns/1`)).json.me.submission?.cards as string[] | undefined

describe('a GM who plays, in the open turn', () => {
  let g: Game
  let others: string[]
  beforeAll(async () => {
    g = await playingGmGame()
    const a = await submit(g.ann, g)
    const b = await submit(g.bob, g)
    expect([a.res.status, b.res.status]).toEqual([201, 201])
    others = [...a.cards, ...b.cards]
  })

  it('sees no other program anywhere, even with a placeholder program of their own in', async () => {
    const placeholder = await submit(g.gm, g)
    expect(placeholder.res.status).toBe(201)
    const reads = await gmReads(g)
    for (const [where, body] of Object.entries(reads)) {
      for (const card of others) {
        expect(body, `${where} shows ${card}`).not.toContain(card)
        expect(body, `${where} shows ${card} in words`).not.toContain(cardLabel(card))
      }
    }
    const turn = (await g.gm.call('GET', `/api/v1/games/${g.gameId}/turns/1`)).json
    expect(turn.programs).toBeNull()
    expect(turn.gmLocked).toBe(false)
    expect(Object.keys((await g.gm.call('GET', `/api/v1/games/${g.gameId}/turns/1/submissions`)).json.submissions)).toEqual(['P1'])
    // Before the lock the GM may still change their own program, like any player.
    const again = await submit(g.gm, g, (h) => h.slice(1, 6))
    expect(again.res.status).toBe(201)
    expect(again.res.json.version).toBe(2)
  })

  it('locks only with confirmation, and only the GM who plays', async () => {
    const url = `/api/v1/games/${g.gameId}/turns/1/lock`
    expect((await g.gm.call('POST', url, {})).json).toMatchObject({ error: 'bad_request', field: 'confirm' })
    expect((await g.ann.call('POST', url, { confirm: true })).status).toBe(403)
    const refused = await consolePost(g, 'lock', { reason: 'no tick' })
    expect(refused.statusCode).toBe(400)
    expect(refused.body).toMatch(/tick the box/i)
    expect((await g.gm.call('GET', `/api/v1/games/${g.gameId}/turns/1`)).json.programs).toBeNull()
  })

  it('after the lock shows the others, and the locked program cannot be revised by the API or the page', async () => {
    const mine = await latestCards(g.gm, g)
    const locked = await consolePost(g, 'lock', { confirm: 'on', reason: 'ready' })
    expect(locked.statusCode).toBe(303)
    const turn = (await g.gm.call('GET', `/api/v1/games/${g.gameId}/turns/1`)).json
    expect(turn.gmLocked).toBe(true)
    expect(Object.keys(turn.programs).sort()).toEqual(['P1', 'P2', 'P3'])
    expect((await page(g.gm, `/games/${g.gameId}/gm`)).body).toContain(cardLabel(others[0]!)) // cards in words on pages

    const api = await submit(g.gm, g, (h) => h.slice(2, 7))
    expect(api.res.status).toBe(409)
    expect(api.res.json.message).toMatch(/locked/)
    const { token, cookie } = await formToken(t.app, g.gm.headers.cookie!, `/games/${g.gameId}/gm`)
    const form = await t.app.inject({
      method: 'POST', url: `/games/${g.gameId}/turns/1/submit`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: token, r1: 'IDLE:1', r2: 'IDLE:2', r3: 'IDLE:3', r4: 'IDLE:4', r5: 'IDLE:5' }).toString(),
    })
    expect(form.statusCode).toBe(400)
    expect(await latestCards(g.gm, g)).toEqual(mine)
    const again = await g.gm.call('POST', `/api/v1/games/${g.gameId}/turns/1/lock`, { confirm: true })
    expect([again.status, again.json.message]).toEqual([409, 'your program for turn 1 is already locked'])
    // The submit page says so instead of offering the form.
    expect((await page(g.gm, `/games/${g.gameId}/turns/1/submit`)).body).not.toContain('id="program-form"')
  })
})

describe('a GM who plays, closing early and reviewing the draft', () => {
  let g: Game
  let mine: string[]
  beforeAll(async () => {
    g = await playingGmGame()
    await submit(g.ann, g)
    mine = (await submit(g.gm, g)).cards
  })

  it('closing the turn locks the GM program; the own seat cannot be reopened nor a new program sent in the draft', async () => {
    expect((await consolePost(g, 'close', { reason: 'early' })).statusCode).toBe(303)
    const draft = (await g.gm.call('GET', `/api/v1/games/${g.gameId}/turns/1`)).json
    expect(draft.status).toBe('draft')
    expect(draft.gmLocked).toBe(true)
    expect(draft.result.registers.P1).toEqual(mine)

    const reopen = await g.gm.call('POST', `/api/v1/games/${g.gameId}/turns/1/reopen`, { player: 'P1', reason: 'oops' })
    expect(reopen.status).toBe(409)
    const viaConsole = await consolePost(g, 'reopen', { player: 'P1', reason: 'oops' })
    expect(viaConsole.statusCode).toBe(400)
    expect((await g.gm.call('GET', `/api/v1/games/${g.gameId}/turns/1`)).json.reopenedPlayer).toBeNull()

    const late = await submit(g.gm, g, (h) => h.slice(3, 8))
    expect(late.res.status).toBe(409)
    expect((await g.gm.call('POST', `/api/v1/games/${g.gameId}/turns/1/resolve`, { reason: 'again' })).status).toBe(200)
    expect((await g.gm.call('GET', `/api/v1/games/${g.gameId}/turns/1`)).json.result.registers.P1).toEqual(mine)
    // Another player's program can still be reopened for a correction.
    expect((await g.gm.call('POST', `/api/v1/games/${g.gameId}/turns/1/reopen`, { player: 'P2', reason: 'typo' })).status).toBe(200)
  })
})

describe('a GM who takes or gives up a seat once the game runs', () => {
  it('cannot empty their own seat, nor take a seat in their own running game', async () => {
    const g = await playingGmGame()
    expect((await g.gm.call('POST', `/api/v1/games/${g.gameId}/seats/1/remove`, { reason: 'bye' })).status).toBe(409)
    expect((await g.gm.call('POST', `/api/v1/games/${g.gameId}/seats/1/replace`, { email: 'sock@example.org', reason: 'bye' })).status).toBe(409)

    // A GM who does not play hands a player's seat to themselves, to play with every program in view.
    const set = await setUpGame(t.app, PLAYERS.slice(0, 2), { reviewWindowHours: 24 })
    expect((await set.gm.call('POST', `/api/v1/games/${set.gameId}/start`, { reason: 'go' })).status).toBe(200)
    expect((await set.gm.call('POST', `/api/v1/games/${set.gameId}/seats/1/replace`, { email: set.gm.email, reason: 'me' })).status).toBe(200)
    const joined = await set.gm.call('POST', `/api/v1/invites/${inviteToken(t.app, set.gm.email)}/join`, { name: 'Me', colour: 'pink' })
    expect(joined.status).toBe(409)
    expect((await set.gm.call('GET', `/api/v1/games/${set.gameId}`)).json.you.seat).toBeNull()
  })
})

describe('the lock, refused', () => {
  it("before the GM's own program is in: an empty lock would show the others' programs", async () => {
    const g = await playingGmGame()
    await submit(g.ann, g)
    const url = `/api/v1/games/${g.gameId}/turns/1/lock`
    const refused = await g.gm.call('POST', url, { confirm: true })
    expect(refused.status).toBe(409)
    expect(refused.json.message).toBe('send your program for turn 1 first: locking makes it final')
    const turn = (await g.gm.call('GET', `/api/v1/games/${g.gameId}/turns/1`)).json
    expect([turn.gmLocked, turn.programs]).toEqual([false, null])
    expect((await g.gm.call('POST', `/api/v1/games/${g.gameId}/turns/9/lock`, { confirm: true })).status).toBe(404)
    // Sent, then locked: the others show.
    expect((await submit(g.gm, g)).res.status).toBe(201)
    expect((await g.gm.call('POST', url, { confirm: true })).status).toBe(200)
    expect(Object.keys((await g.gm.call('GET', `/api/v1/games/${g.gameId}/turns/1`)).json.programs).sort()).toEqual(['P1', 'P2'])
  })

  it('to a GM who does not play: there is nothing to lock', async () => {
    // Players of their own: invitations to one address are limited per hour.
    const set = await setUpGame(t.app, [{ email: 'dee@example.org', name: 'Dee', colour: 'teal' }, { email: 'eli@example.org', name: 'Eli', colour: 'pink' }])
    expect((await set.gm.call('POST', `/api/v1/games/${set.gameId}/start`)).status).toBe(200)
    const refused = await set.gm.call('POST', `/api/v1/games/${set.gameId}/turns/1/lock`, { confirm: true })
    expect(refused.status).toBe(409)
    expect(refused.json.message).toMatch(/you do not play in this game/)
    expect((await set.gm.call('GET', `/api/v1/games/${set.gameId}/turns/1`)).json.gmLocked).toBe(false)
  })
})
