// A turn mail held for a daily digest does not say a picture is attached: a digest attaches none, and
// its text points to the full report, which shows the board (mail/turn-queue.ts). Found by a hostile
// review: the digest reader was pointed at "the attached picture", which was not there.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { preferencesRepository } from '../../src/server/mail/preferences.js'
import { DAY, type TestApp } from '../server/helpers.js'
import { playTurn, startedGame } from '../gm/helpers.js'
import { mailWorld, type MailWorld } from './helpers.js'

const ANN = 'ann@example.org'
let world: MailWorld
let smtp: MailWorld['smtp']
let t: TestApp
beforeAll(async () => { world = await mailWorld(); ({ t, smtp } = world) })
afterAll(async () => { await world.close() })

it('a digest says no picture is attached, and links the report that shows the board', async () => {
  const g = await startedGame(t.app)
  await t.app.mailer.deliver()
  t.app.services.write(() => preferencesRepository(t.app.services.db).setMode(ANN, 'digest', t.clock.now))
  await playTurn(t.app, t.clock, g.gm, g.gameId) // Ann's turn 2 mail (results of turn 1, picture) is held
  t.clock.now += DAY
  expect(t.app.runDueWork().digests).toBe(1)
  await t.app.mailer.deliver()
  const digest = smtp.received.filter((m) => m.to.includes(ANN)).at(-1)!
  expect(digest.subject).toMatch(/^BotWars digest/)
  expect(digest.text).not.toMatch(/attached\s+picture/)
  expect(digest.attachments.filter((a) => a.contentType === 'image/png')).toHaveLength(0)
  expect(digest.text).toContain(`/games/${g.gameId}/turns/1`)
  // Bob reads every mail as it comes: his turn mail still has the picture, and says so.
  const bobs = smtp.received.filter((m) => m.to.includes('bob@example.org') && /^Turn 2 of/.test(m.subject)).at(-1)!
  expect(bobs.text).toMatch(/attached\s+picture/)
  expect(bobs.attachments.filter((a) => a.contentType === 'image/png')).toHaveLength(1)
})
