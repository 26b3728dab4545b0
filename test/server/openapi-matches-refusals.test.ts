// The OpenAPI document says what the server refuses: a bot author who follows it is not surprised.
// Found by a hostile review: `confirm` of the lock, the choice of deadline or extendHours and the
// reason a new turn limit needs were refused by the server but optional in the document.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { testApp, type TestApp } from './helpers.js'
import { startedGame } from '../gm/helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

interface BodySchema { required?: string[]; oneOf?: { required: string[] }[]; anyOf?: Record<string, unknown>[] }

it('documents every refusal of a missing field that the server makes', async () => {
  const g = await startedGame(t.app, { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow' }, [{ email: 'ann@example.org', name: 'Ann', colour: 'red' }])
  const doc = (await g.gm.call('GET', '/api/v1/openapi.json')).json
  const schemaOf = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema as BodySchema
  const post = (path: string, body: Record<string, unknown>) => g.gm.call('POST', `/api/v1/games/${g.gameId}${path}`, body)

  // The lock: confirm is required, and only true will do.
  expect(schemaOf('/api/v1/games/{gameId}/turns/{turn}/lock').required).toContain('confirm')
  expect((await post('/turns/1/lock', {})).json).toMatchObject({ field: 'confirm' })

  // The deadline: exactly one of the two.
  expect(schemaOf('/api/v1/games/{gameId}/deadline').oneOf).toEqual([{ required: ['deadline'] }, { required: ['extendHours'] }])
  expect((await post('/deadline', {})).status).toBe(400)
  expect((await post('/deadline', { extendHours: 1, reason: 'more time' })).status).toBe(200)

  // The settings: a turn limit comes with a reason.
  expect(schemaOf('/api/v1/games/{gameId}/settings').anyOf).toEqual([{ not: { required: ['turnLimit'] } }, { required: ['reason'] }])
  expect((await post('/settings', { turnLimit: 5 })).json).toMatchObject({ field: 'reason' })
  expect((await post('/settings', { turnLimit: 5, reason: 'a shorter game' })).status).toBe(200)
})
