// A GM form sent twice (a double click, a second tab: same form token, same expectedTurn, which
// inviting does not move) must not invite one address twice (found by a hostile review): "Open a
// seat" opened two seats, "Invite" reserved two, and "Replace" mailed two links, the first of them
// dead. One open invitation per address and game (services/games.ts sendInvite); the second post is
// refused. A second "Seat a bot" cannot be told from a wish for two bots here: the page sends a
// form once per click (views/static/app.js, test/browser/bots.test.ts).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PLAYERS, setUpGame, testApp, type TestApp } from '../server/helpers.js'
import { mailsOf, startedGame } from './helpers.js'
import { browser, csrfOf } from '../pages/helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

const two = (tag: string) => PLAYERS.slice(0, 2).map((p) => ({ ...p, email: `${tag}-${p.email}` }))

async function doubleClick(gm: Parameters<typeof browser>[1], page: string, action: string, fields: Record<string, string>) {
  const b = browser(t.app, gm)
  const html = (await b.get(page)).body
  const expectedTurn = /name="expectedTurn" value="([^"]*)"/.exec(html)?.[1] ?? ''
  const body = { _csrf: csrfOf(html), expectedTurn, ...fields }
  const first = await b.post(action, body)
  const second = await b.post(action, body)
  return [first, second]
}

it('a double-clicked "Open a seat" opens one seat and sends one invitation', async () => {
  const { gm, gameId } = await startedGame(t.app, {}, two('os'))
  const seatsBefore = t.app.services.games.seats(gameId).length
  const [first, second] = await doubleClick(gm, `/games/${gameId}/gm`, `/games/${gameId}/gm/open-seat`, { email: 'newcomer@example.org', reason: 'one more' })
  expect(first!.status).toBe(303)
  expect(second!.status).toBe(400)
  expect(second!.body).toContain('is already invited to seat')
  expect(mailsOf(t.app, gameId, 'invitation').filter((m) => m.recipient === 'newcomer@example.org')).toHaveLength(1)
  expect(t.app.services.games.seats(gameId).length).toBe(seatsBefore + 1)
})

it('a double-clicked "Invite" on the game page reserves one seat and sends one invitation', async () => {
  const gmClient = (await setUpGame(t.app, [], { seats: 3 })).gm
  const gameId = (await gmClient.call('GET', '/api/v1/games')).json.games.at(-1).id as string
  const [first, second] = await doubleClick(gmClient, `/games/${gameId}`, `/games/${gameId}/invite`, { email: 'dup@example.org' })
  expect(first!.status).toBe(303)
  expect(second!.status).toBe(400)
  expect(second!.body).toContain('is already invited to seat')
  expect(mailsOf(t.app, gameId, 'invitation').filter((m) => m.recipient === 'dup@example.org')).toHaveLength(1)
  expect(t.app.services.games.seats(gameId).filter((s) => s.invite_email === 'dup@example.org')).toHaveLength(1)
})

it('a double-clicked "Replace" sends one invitation, and its link works', async () => {
  const { gm, gameId } = await startedGame(t.app, {}, two('rp'))
  const [first, second] = await doubleClick(gm, `/games/${gameId}/gm`, `/games/${gameId}/gm/replace`, { seat: '2', email: 'newbie@example.org', reason: 'Bob left' })
  expect(first!.status).toBe(303)
  expect(second!.status).toBe(400)
  expect(second!.body).toContain('is already invited to seat')
  const invitations = mailsOf(t.app, gameId, 'invitation').filter((m) => m.recipient === 'newbie@example.org')
  // The first mail's link must still open the invitation.
  const link = /https?:\/\/\S+\/invites\/(\S+)/.exec(invitations[0]!.body)![1]!
  expect((await t.app.inject({ method: 'GET', url: `/api/v1/invites/${link}` })).statusCode).toBe(200)
  expect(invitations).toHaveLength(1)
})
