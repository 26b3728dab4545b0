// A robot's colour is drawn in the board pictures (browser and mail), the legend and the race
// chart. The API took any lowercase word: "blorp" drew an invisible line in the race chart, and
// "constructor" drew a JavaScript function's text as a fill. Now a colour is one of the palette's
// words, a colour CSS names, or #rrggbb; anything else is refused with the field named, and the
// seat keeps what it had.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inviteToken, signIn, testApp, type TestApp } from './helpers.js'
import { colour } from '../../src/server/schemas.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

describe('the colour field', () => {
  it('takes the palette, the colours CSS names and #rrggbb, and refuses words no picture can draw', () => {
    for (const ok of ['red', ' Gold ', 'rebeccapurple', 'CornflowerBlue', '#a0B1c2']) expect(colour.safeParse(ok).success, ok).toBe(true)
    for (const bad of ['blorp', 'sky blue', 'constructor', '__proto__', 'tostring', 'hasownproperty', '#12345', '#1234567', 'url(x)', '']) {
      const parsed = colour.safeParse(bad)
      expect(parsed.success, bad).toBe(false)
      expect(parsed.error!.issues[0]!.message).toBe('a colour name like "red" or "#ff0000"')
    }
  })

  it('refuses a join with such a colour, names the field, and seats nobody', async () => {
    const gm = await signIn(t.app, 'gm-colours@example.org', 'Gemma')
    const created = await gm.call('POST', '/api/v1/games', { name: 'Colours', board: 'training-floor', seats: 2 })
    const gameId = created.json.id as string
    await gm.call('POST', `/api/v1/games/${gameId}/invites`, { email: 'ann-colours@example.org' })
    const ann = await signIn(t.app, 'ann-colours@example.org')
    const invite = inviteToken(t.app, 'ann-colours@example.org')
    for (const bad of ['blorp', 'constructor']) {
      const refused = await ann.call('POST', `/api/v1/invites/${invite}/join`, { name: 'Ann', colour: bad })
      expect(refused.status, bad).toBe(400)
      expect(refused.text).toContain('colour')
      expect(refused.text).toContain('a colour name like')
    }
    expect((await gm.call('GET', `/api/v1/games/${gameId}`)).json.seats.filter((s: { joined: boolean }) => s.joined)).toEqual([])
    const joined = await ann.call('POST', `/api/v1/invites/${invite}/join`, { name: 'Ann', colour: 'RebeccaPurple' })
    expect(joined.status).toBe(200)
    expect((await gm.call('GET', `/api/v1/games/${gameId}`)).json.seats.find((s: { joined: boolean }) => s.joined).colour).toBe('rebeccapurple')
  })
})
