// A request body with a field its route does not take is refused, naming the field, and changes
// nothing: a misspelt optional field ("rebootnext", "sacrificeat") was dropped without a word, so
// a player thought a reboot declared that never was. Every body the API takes is strict, as the
// OpenAPI document says (additionalProperties: false).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { someProgram } from '../gm/helpers.js'
import { PLAYERS, setUpGame, testApp, type Client, type TestApp } from './helpers.js'

let t: TestApp
let gm: Client, ann: Client, gameId: string

beforeAll(async () => {
  t = await testApp()
  const set = await setUpGame(t.app, PLAYERS.slice(0, 2))
  ;({ gm, gameId } = set)
  ann = set.players[0]!
  expect((await gm.call('POST', `/api/v1/games/${gameId}/start`)).status).toBe(200)
})
afterAll(async () => { await t.close() })

describe('a body field the route does not take', () => {
  it('refuses a misspelt reboot declaration and keeps the program already in', async () => {
    const cards = await someProgram(ann, gameId, 1)
    expect((await ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards })).status).toBe(201)
    const bad = await ann.call('POST', `/api/v1/games/${gameId}/turns/1/submission`, { cards: [...cards].reverse(), rebootnext: true })
    expect(bad.status).toBe(400)
    expect(bad.json).toMatchObject({ error: 'bad_request', field: 'rebootnext' })
    expect(bad.json.message).toBe('rebootnext: no such field (the fields are cards, rebootNext, sacrificeAt, doubleWrench, facing)')
    expect((await ann.call('GET', `/api/v1/games/${gameId}/turns/1`)).json.me.submission).toMatchObject({ version: 1, cards, rebootNext: false })
  })

  it('refuses it on a GM route too, before anything changes', async () => {
    const bad = await gm.call('POST', `/api/v1/games/${gameId}/settings`, { turnLimit: 3, stalemateturns: 2, reason: 'shorter' })
    expect(bad.status).toBe(400)
    expect(bad.json).toMatchObject({ field: 'stalemateturns' })
    expect((await gm.call('GET', `/api/v1/games/${gameId}`)).json.gameSettings).toMatchObject({ turnLimit: null, stalemateTurns: null })
  })

  it('every request body of the API is documented as taking no other field', async () => {
    const doc = (await gm.call('GET', '/api/v1/openapi.json')).json
    const bodies = Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>>)
      .flatMap(([path, ops]) => Object.entries(ops).filter(([, op]) => op.requestBody).map(([method, op]) => ({ route: `${method} ${path}`, schema: op.requestBody!.content['application/json']!.schema })))
    expect(bodies.length).toBeGreaterThan(20)
    for (const { route, schema } of bodies) expect(schema.additionalProperties, route).toBe(false)
  })
})
