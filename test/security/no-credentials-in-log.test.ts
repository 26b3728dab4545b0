// The request log holds no credential a URL carries (plugins/log-redaction.ts): the sign-in link's
// token, used up only when its button is pressed (found by a hostile review: a logged token signed
// its reader in for half an hour), an invitation token, a spectator link's token.
import { Writable } from 'node:stream'
import { redactedUrl } from '../../src/server/plugins/log-redaction.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { inviteToken, lastMailTo, linksIn, openSignInLink, signIn, testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
let log = ''
beforeAll(async () => {
  const stream = new Writable({ write(chunk, _enc, done) { log += String(chunk); done() } })
  t = await testApp({ logger: { level: 'info', stream } })
})
afterAll(async () => { await t.close() })

it('logs no sign-in link token and no invitation token', async () => {
  const gm = await signIn(t.app, 'gm@example.org', 'Gemma')
  const created = await gm.call('POST', '/api/v1/games', { name: 'Logged', board: 'training-floor', seats: 2 })
  expect((await gm.call('POST', `/api/v1/games/${created.json.id}/invites`, { email: 'ann@example.org' })).status).toBe(201)

  // Ann asks for a sign-in link and opens it (the confirmation page), then presses the button.
  expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'ann@example.org' } })).statusCode).toBe(202)
  const link = linksIn(lastMailTo(t.app, 'ann@example.org', 'sign-in')!.body)[0]!
  const signInToken = new URL(link).searchParams.get('token')!
  const logBefore = log
  const opened = await t.app.inject({ method: 'GET', url: link.replace('http://botwars.test', '') })
  expect(opened.statusCode).toBe(200)
  const loggedWhileUsable = logBefore !== log && log.includes(signInToken)
  await openSignInLink(t.app, link)

  const invitation = inviteToken(t.app, 'ann@example.org')
  await t.app.inject({ method: 'GET', url: `/api/v1/invites/${invitation}` })

  const publicToken = t.app.services.games.byId(created.json.id)!.public_token
  await t.app.inject({ method: 'GET', url: `/watch/${publicToken}` })
  await t.app.inject({ method: 'GET', url: `/api/v1/public/${publicToken}` })

  expect({ signInTokenLoggedBeforeUse: loggedWhileUsable, invitationTokenLogged: log.includes(invitation), publicTokenLogged: log.includes(publicToken) })
    .toEqual({ signInTokenLoggedBeforeUse: false, invitationTokenLogged: false, publicTokenLogged: false })
  // The requests are still logged, with the credential replaced.
  expect(log).toContain('/api/v1/invites/…')
  expect(log).toContain('/auth/link?token=…')
})

it('redacts the credential of each such URL and nothing else', () => {
  expect(redactedUrl('/auth/link?token=abc123&next=%2Fgames')).toBe('/auth/link?token=…&next=%2Fgames')
  expect(redactedUrl('/mail/unsubscribe?email=ann%40example.org&t=f00')).toBe('/mail/unsubscribe?email=ann%40example.org&t=…')
  expect(redactedUrl('/invites/SECRET/join')).toBe('/invites/…/join')
  expect(redactedUrl('/watch/SECRET/turns/2/replay/3')).toBe('/watch/…/turns/2/replay/3')
  expect(redactedUrl('/api/v1/public/SECRET/turns/1')).toBe('/api/v1/public/…/turns/1')
  expect(redactedUrl('/games/abc/turns/1?from=2')).toBe('/games/abc/turns/1?from=2')
  expect(redactedUrl('/sign-in?%E0%A4%A=1')).toBe('/sign-in?%E0%A4%A=1') // a malformed escape is kept, not thrown on
})
