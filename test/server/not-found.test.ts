// Unknown URLs: a page for people (escaped), JSON for programs and everything under /api.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { testApp, type TestApp } from './helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

it('answers a browser with an HTML page that escapes the path', async () => {
  const res = await t.app.inject({ method: 'GET', url: "/no/a&b'c", headers: { accept: 'text/html,application/xhtml+xml' } })
  expect(res.statusCode).toBe(404)
  expect(res.headers['content-type']).toMatch(/text\/html/)
  expect(res.body).toContain('Not found')
  expect(res.body).toContain('/no/a&amp;b&#39;c')
})

it('answers programs and the API with JSON', async () => {
  const api = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here', headers: { accept: 'text/html' } })
  expect(api.statusCode).toBe(404)
  expect(api.json()).toMatchObject({ error: 'not_found' })
  const plain = await t.app.inject({ method: 'GET', url: '/nothing-here' })
  expect(plain.json()).toMatchObject({ error: 'not_found' })
})
