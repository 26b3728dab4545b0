// The kept message threads (pages/message-threads.ts). Hostile: whoever's thread is rendered first,
// nobody gets another viewer's thread (a private message reaches its two ends and the GM only, a
// hidden one the GM only), and every change is seen on the next read: a new message, a hide, a
// player leaving, table talk switched, a rename, another connection's write.
import Database from '../../src/server/plugins/sqlite.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { membership } from '../../src/server/services/membership.js'
import { hideMessage, postMessage } from '../../src/server/services/messages.js'
import { changeSettings, withdraw } from '../../src/server/services/seats.js'
import { boundThreads, forgetThreads, keptThreads, messageThread } from '../../src/server/pages/message-threads.js'
import { MAX_MARKED, messagesVersion, touchMessages } from '../../src/server/repositories/message-marks.js'
import { PLAYERS, setUpGame, testApp, type TestApp } from '../server/helpers.js'

let t: TestApp
beforeEach(async () => { t = await testApp() })
afterEach(async () => { await t.close() })

/** A game of Ann, Bob and Cid whose GM (Gemma) plays too; table talk off. */
async function table() {
  const { gameId } = await setUpGame(t.app, PLAYERS, { gmPlays: true, gmName: 'Gemma', gmColour: 'yellow' })
  const ctx = t.app.services
  const id = (email: string) => ctx.users.byEmail(email)!.id
  const people = { gm: id('gm@example.org'), ann: id('ann@example.org'), bob: id('bob@example.org'), cid: id('cid@example.org') }
  const m = (who: keyof typeof people) => membership(ctx, gameId, { user: ctx.users.byId(people[who])! })
  const say = (who: keyof typeof people, to: string, body: string) => postMessage(ctx, m(who), people[who], { to, body })
  const place = { gameBase: `/games/${gameId}`, back: `/games/${gameId}` }
  const thread = (who: keyof typeof people, token = `token-of-${who}`) => messageThread(ctx, m(who), people[who], place).html(token)
  return { ctx, gameId, people, m, say, thread }
}

const bodies = (html: string) => [...html.matchAll(/<p class="message-body">([^<]*)<\/p>/g)].map((x) => x[1]).sort()
const targets = (html: string) => [...html.matchAll(/<option value="([^"]+)"/g)].map((x) => x[1])

describe('kept message threads', () => {
  it('gives each viewer their own thread, whoever is read first: private messages reach their two ends and the GM', async () => {
    const g = await table()
    g.say('ann', 'gm', 'ann-to-gm')
    g.say('gm', g.m('bob').seat!.player_id, 'gm-to-bob')
    g.say('bob', 'all', 'bob-to-all')
    const expected = {
      gm: ['ann-to-gm', 'bob-to-all', 'gm-to-bob'],
      ann: ['ann-to-gm', 'bob-to-all'],
      bob: ['bob-to-all', 'gm-to-bob'],
      cid: ['bob-to-all'],
    }
    const who = ['gm', 'ann', 'bob', 'cid'] as const
    for (const first of who) {
      forgetThreads(g.ctx.db)
      g.thread(first)
      for (const viewer of [first, ...who.filter((w) => w !== first), ...who]) {
        const html = g.thread(viewer)
        expect(bodies(html), `${viewer}'s thread after ${first}'s was kept`).toEqual(expected[viewer].sort())
        // The viewer's own token in every form, nobody else's, no marker left.
        expect(html).not.toMatch(/bwtoken/)
        for (const other of who) if (other !== viewer) expect(html).not.toContain(`token-of-${other}`)
        expect(html.match(/name="_csrf" value="([^"]+)"/g)!.every((f) => f.includes(`token-of-${viewer}`))).toBe(true)
      }
      expect(keptThreads(g.ctx.db).size).toBe(4)
    }
    // Only the GM may hide, so only the GM's thread has hide forms.
    expect(g.thread('gm')).toContain('/hide"')
    expect(g.thread('ann')).not.toContain('/hide"')
  })

  it('shows a new message, a hidden one (to the GM alone, with the reason) and another connection\'s message on the next read', async () => {
    const g = await table()
    const { id } = g.say('bob', 'all', 'first words')
    expect(bodies(g.thread('ann'))).toEqual(['first words'])
    expect(bodies(g.thread('gm'))).toEqual(['first words'])
    g.say('cid', 'all', 'second words')
    expect(bodies(g.thread('ann'))).toEqual(['first words', 'second words'])
    hideMessage(g.ctx, g.m('gm'), id, 'rude')
    expect(bodies(g.thread('ann'))).toEqual(['second words'])
    expect(g.thread('gm')).toContain('hidden: rude')
    // A write by another connection (a second server process, the sqlite3 shell): seen without any call.
    const other = new Database(g.ctx.db.name)
    try {
      other.prepare('INSERT INTO messages (game_id, from_user_id, to_user_id, body, at) VALUES (?, ?, NULL, ?, ?)').run(g.gameId, g.people.cid, 'from elsewhere', 1)
    } finally {
      other.close()
    }
    // Seen from the next run of JavaScript on (repositories/data-version.ts: one reading per run, as a request is).
    await Promise.resolve()
    expect(bodies(g.thread('ann'))).toEqual(['from elsewhere', 'second words'])
  })

  it('follows the table: table talk switched on, a player who leaves, a former player who renames', async () => {
    const g = await table()
    const seats = Object.fromEntries((['ann', 'bob', 'cid'] as const).map((w) => [w, g.m(w).seat!.player_id]))
    expect(targets(g.thread('ann'))).toEqual(['all', 'gm'])
    changeSettings(g.ctx, g.m('gm'), { tableTalk: true, reason: '' })
    expect(targets(g.thread('ann'))).toEqual(['all', 'gm', seats.bob, seats.cid])
    g.say('cid', 'all', 'cid was here')
    expect(g.thread('ann')).toContain('<strong>Cid</strong>')
    withdraw(g.ctx, g.m('cid'), 'bye')
    const after = g.thread('ann')
    expect(targets(after)).toEqual(['all', 'gm', seats.bob])
    g.ctx.write(() => g.ctx.users.rename(g.people.cid, 'Cid the Former'))
    expect(g.thread('ann')).toContain('<strong>Cid the Former</strong>')
    // Cid is no member now: no thread at all.
    expect(bodies(g.thread('cid'))).toEqual([])
  })

  it('keeps nothing rendered inside a transaction, and stays within its bounds', async () => {
    const g = await table()
    g.say('bob', 'all', 'hello')
    forgetThreads(g.ctx.db)
    g.ctx.write(() => g.thread('ann'))
    expect(keptThreads(g.ctx.db).size).toBe(0)
    boundThreads(g.ctx.db, 1_000_000, 2)
    for (const who of ['gm', 'ann', 'bob', 'cid'] as const) g.thread(who)
    expect(keptThreads(g.ctx.db).size).toBe(2)
    const one = keptThreads(g.ctx.db).bytes / 2
    boundThreads(g.ctx.db, Math.floor(one * 1.5), 100)
    g.thread('gm')
    expect(keptThreads(g.ctx.db).bytes).toBeLessThanOrEqual(Math.floor(one * 1.5))
  })
  it('keeps marks for a bounded number of games: past the bound every game counts as changed once', async () => {
    const g = await table()
    g.say('bob', 'all', 'hello')
    const before = messagesVersion(g.ctx.db, g.gameId)
    for (let i = 0; i < MAX_MARKED; i++) touchMessages(g.ctx.db, `other-game-${i}`)
    expect(messagesVersion(g.ctx.db, g.gameId)).not.toBe(before)
    expect(bodies(g.thread('ann'))).toEqual(['hello'])
  })
})
