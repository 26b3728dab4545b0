// The "Create a game" form's GM robot name and colour are checked as the shared schema checks them,
// and refused beside their field. Found by a hostile review: they were checked as free text only,
// and the shared schema's error was shown as zod's raw issue list under the form.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { formToken } from '../security/setup.js'
import { signIn, testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
beforeAll(async () => { t = await testApp() })
afterAll(async () => { await t.close() })

async function create(cookie: string, fields: Record<string, string>) {
  const form = await formToken(t.app, cookie, '/games/new')
  return t.app.inject({
    method: 'POST', url: '/games/new',
    headers: { cookie: form.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      _csrf: form.token, name: 'Form game', boardChoice: 'training-floor', seats: '2', turnLengthHours: '24', reviewWindowHours: '0',
      gmPlays: 'on', gmColour: 'red', ...fields,
    }).toString(),
  })
}

for (const [what, fields, field] of [
  ['a GM robot name over 60 characters', { gmName: 'G'.repeat(61) }, 'gmName'],
  ['a GM robot name of control characters only', { gmName: '\u0007\u0007' }, 'gmName'],
  ['a GM robot colour that is no colour', { gmColour: 'notacolour' }, 'gmColour'],
] as const) {
  it(`refuses ${what} with a message beside the field, not zod's raw issue list`, async () => {
    const gm = await signIn(t.app, 'formgm@example.org', 'Gemma')
    const res = await create(gm.headers.cookie!, fields)
    expect(res.statusCode).toBe(400)
    expect(res.body).not.toMatch(/&#34;code&#34;|"code"|too_big|invalid_type|&quot;code/)
    expect(res.body).toContain(`<a href="#${field}">`)
  })
}
