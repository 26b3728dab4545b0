// A whole game on the small board through the API, the clock driven by the test: create, invite,
// join, start, turns with submissions, a refused program, a correction, a missed deadline (R9),
// GM and automatic publication, to a winner (R34).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DAY, HOUR, PLAYERS, setUpGame, testApp, type Client, type TestApp } from './helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

/** A small seeded generator so the players' choices replay. */
function chooser(seed: number) {
  let s = seed
  return (n: number) => { s = (s * 1103515245 + 12345) % 2147483648; return s % n }
}

async function randomProgram(c: Client, gameId: string, turn: number, pick: (n: number) => number) {
  const view = (await c.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json
  const hand = [...view.me.hand] as string[]
  const wanted = view.me.robot.at && view.me.robot.mode !== 'destroyed' && !view.me.robot.rebooting
    ? 5 - Object.keys(view.me.robot.fused).length : 0
  const cards: string[] = []
  for (let i = 0; i < wanted; i++) cards.push(hand.splice(pick(hand.length), 1)[0]!)
  return { cards, hand: view.me.hand as string[], view }
}

it('plays a whole game through the API', async () => {
  const { gm, gameId, players } = await setUpGame(t.app, PLAYERS, { reviewWindowHours: 24 })
  const [ann, bob, cid] = players as [Client, Client, Client]
  const pick = chooser(7)

  expect((await ann.call('POST', `/api/v1/games/${gameId}/start`)).status).toBe(403)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`, { reason: 'all here' })).status).toBe(200)
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`)).status).toBe(409)

  // R25: every robot placed on the start square, virtual; R7: ten-HP robots get nine cards each.
  const started = (await ann.call('GET', `/api/v1/games/${gameId}`)).json
  expect(started.robots.map((r: any) => [r.at, r.mode])).toEqual(Array(3).fill([{ row: 1, col: 4 }, 'virtual']))
  expect(started.currentTurn.me.hand).toHaveLength(9)
  expect(t.app.services.outbox.all().filter((m) => m.kind === 'hand').map((m) => m.recipient).sort()).toEqual(PLAYERS.map((p) => p.email).sort())

  let turn = 1
  const seen = { refused: false, corrected: false, missed: false, gmPublished: 0, autoPublished: 0 }
  while (turn < 300) {
    const game = (await gm.call('GET', `/api/v1/games/${gameId}`)).json
    if (game.status !== 'running') break
    expect(game.currentTurn.number).toBe(turn)
    expect(game.currentTurn.status).toBe('open')

    for (const [seat, c] of [ann, bob, cid].entries()) {
      const { cards, hand } = await randomProgram(c, gameId, turn, pick)
      if (turn === 2 && seat === 2) continue // Cid misses the deadline
      if (turn === 3 && seat === 0 && cards.length > 0) {
        // A program with a card not in the hand is refused, naming the problem; the previous stays.
        const first = await c.call('POST', `/api/v1/games/${gameId}/turns/${turn}/submission`, { cards })
        expect(first.status).toBe(201)
        const notMine = ['FWD1:490', 'FWD1:500', 'FWD1:510', 'FWD1:520', 'FWD1:530', 'FWD1:540', 'FWD1:550', 'FWD1:560', 'FWD1:570', 'FWD1:580', 'FWD1:590']
          .find((x) => !hand.includes(x))!
        const bad = await c.call('POST', `/api/v1/games/${gameId}/turns/${turn}/submission`, { cards: [notMine, ...cards.slice(1)] })
        expect(bad.status).toBe(400)
        // The field names the card at fault, counted from 0 as a malformed card's is; the message counts from 1.
        expect(bad.json).toMatchObject({ error: 'bad_request', field: 'cards[0]' })
        expect(bad.json.message).toMatch(/^card 1 \(.*\) is not in your hand/)
        const mine = (await c.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json.me.submission
        expect(mine).toMatchObject({ version: 1, cards })
        seen.refused = true
        continue
      }
      const res = await c.call('POST', `/api/v1/games/${gameId}/turns/${turn}/submission`, { cards, rebootNext: false })
      expect(res.status, res.text).toBe(201)
    }

    if (turn === 2) {
      // Not all in: nothing closes before the deadline; the reminder goes to Cid only, once.
      t.app.runDueWork()
      expect((await gm.call('GET', `/api/v1/games/${gameId}/turns/2`)).json.status).toBe('open')
      t.clock.now = Date.parse(game.currentTurn.deadline) - 11 * HOUR // the default reminder: 12 hours before
      expect(t.app.runDueWork().reminded).toBe(1)
      expect(t.app.runDueWork().reminded).toBe(0)
      expect(t.app.services.outbox.all().filter((m) => m.kind === 'reminder').map((m) => m.recipient)).toEqual(['cid@example.org'])
      t.clock.now = Date.parse(game.currentTurn.deadline) + 1000
    }
    expect(t.app.runDueWork().closed).toBe(1)
    const draft = (await gm.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json
    expect(draft.status).toBe('draft')
    expect(draft.result.tables.length).toBeGreaterThan(0)
    expect(Object.keys(draft.programs).length).toBeGreaterThan(0)
    // Players do not see the draft.
    expect((await bob.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json.result).toBeNull()

    if (turn === 2) {
      // R9: the server filled Cid's registers and the report says so.
      expect(draft.result.start.events.some((e: any) => e.kind === 'program-filled' && e.player === 'P3')).toBe(true)
      seen.missed = true
    }

    if (turn === 3 && seen.refused) {
      // Correction: the GM reopens Ann's program only; Ann resubmits; Bob cannot; the GM re-resolves.
      expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/3/reopen`, { player: 'P1', reason: 'Ann mailed a different order' })).status).toBe(200)
      // The turn views say who may send again: Ann, in the draft; not Bob.
      const annView = (await ann.call('GET', `/api/v1/games/${gameId}/turns/3`)).json
      expect([annView.status, annView.reopenedPlayer, annView.me.canSubmit]).toEqual(['draft', 'P1', true])
      expect((await bob.call('GET', `/api/v1/games/${gameId}/turns/3`)).json.me.canSubmit).toBe(false)
      const { cards } = await randomProgram(ann, gameId, 3, pick)
      const corrected = [...cards].reverse()
      expect((await bob.call('POST', `/api/v1/games/${gameId}/turns/3/submission`, { cards: [] })).status).toBe(409)
      expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/3/submission`, { cards: corrected })).status).toBe(201)
      expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/3/resolve`, { reason: 'after correction' })).status).toBe(200)
      const history = (await ann.call('GET', `/api/v1/games/${gameId}/turns/3/submissions`)).json.submissions.P1
      expect(history.map((v: any) => v.version)).toEqual([1, 2])
      const redone = (await gm.call('GET', `/api/v1/games/${gameId}/turns/3`)).json
      expect(redone.result.registers.P1.filter(Boolean)).toEqual(expect.arrayContaining(corrected))
      seen.corrected = true
    }

    if (turn % 2 === 0) {
      expect((await gm.call('POST', `/api/v1/games/${gameId}/turns/${turn}/publish`, { reason: 'looks right' })).status).toBe(200)
      seen.gmPublished++
    } else {
      t.clock.now += 23 * HOUR
      expect(t.app.runDueWork().published).toBe(0)
      t.clock.now += 1 * HOUR
      expect(t.app.runDueWork().published).toBe(1)
      seen.autoPublished++
    }
    const published = (await bob.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json
    expect(published.status).toBe('published')
    expect(published.result.report).toContain(`Turn ${turn}`)
    t.clock.now += 1 * DAY
    turn++
  }

  const final = (await gm.call('GET', `/api/v1/games/${gameId}`)).json
  expect(final.status).toBe('finished')
  expect(seen).toMatchObject({ refused: true, corrected: true, missed: true })
  expect(seen.gmPublished).toBeGreaterThan(0)
  expect(seen.autoPublished).toBeGreaterThan(0)
  expect(final.winners.length).toBeGreaterThan(0)
  const gameOver = t.app.services.outbox.all().filter((m) => m.kind === 'game-over')
  expect(gameOver.map((m) => m.recipient).sort()).toEqual(['ann@example.org', 'bob@example.org', 'cid@example.org', 'gm@example.org'])
  for (const m of gameOver) expect(m.body).toContain(final.winners[0].name)
  const drafts = t.app.services.outbox.all().filter((m) => m.kind === 'draft-ready')
  expect(drafts).toHaveLength(turn - 1)
  expect(new Set(drafts.map((m) => m.recipient))).toEqual(new Set(['gm@example.org']))
  expect(drafts[0]!.body).toContain('Turn 1 on Training Floor')
  // One turn mail per player per turn (story, picture, new hand); the GM, who does not play, and a
  // player whose robots are all lost get the results only; the last turn's results come in the
  // game-over mail (issue 14). So each deal after the first is one mail for each of the four.
  const results = t.app.services.outbox.all().filter((m) => m.kind === 'results')
  const hands = t.app.services.outbox.all().filter((m) => m.kind === 'hand')
  expect(results.filter((m) => m.recipient === 'gm@example.org')).toHaveLength(turn - 2)
  expect(hands.filter((m) => m.recipient === 'gm@example.org')).toHaveLength(0)
  expect(hands.length + results.length).toBe(3 + (turn - 2) * 4)
  for (const m of results) expect(hands.some((h) => h.recipient === m.recipient && h.subject.startsWith(`Turn ${Number(/Turn (\d+)/.exec(m.subject)![1]) + 1} `))).toBe(false)
  const history = (await cid.call('GET', `/api/v1/games/${gameId}/history`)).json.history.map((h: any) => h.action)
  expect(history).toEqual(expect.arrayContaining(['create', 'start', 'reopen', 'resolve', 'publish']))
  // Nothing more to do once the game is over.
  expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/${turn - 1}/submission`, { cards: [] })).status).toBe(409)
})
