// A board file of boards/ with a mistake is left out of the gallery, and the log says which file and
// why, at start-up (app.ts, services/games.ts boardFileProblems). Found by a hostile review: it was
// left out silently, so an operator who added a board never learned why it was missing.
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app.js'
import { listBoards } from '../../src/server/services/games.js'

const dir = mkdtempSync(join(tmpdir(), 'botwars-boards-'))
const boards = join(dir, 'boards')
mkdirSync(boards)
copyFileSync(join(import.meta.dirname, '../../boards/training-floor.json'), join(boards, 'training-floor.json'))
// A board with one element that names a square off the board.
writeFileSync(join(boards, 'my-floor.json'), JSON.stringify({
  name: 'My Floor', rows: 8, cols: 8, start: { at: 'r1c1', facing: 'N' },
  elements: [{ type: 'flag', at: 'r9c9', number: 1 }],
}))
writeFileSync(join(boards, 'typo.json'), '{ "name": "Typo", ')

const lines: string[] = []
const stream = new Writable({ write(chunk, _e, done) { lines.push(String(chunk)); done() } })
const app = await buildApp({
  config: { databasePath: join(dir, 'b.db'), dataDir: dir, smtpUrl: undefined, baseUrl: 'http://127.0.0.1:3000', sessionSecret: 'x'.repeat(40), mailFrom: 'BotWars <b@localhost>', mailDomain: undefined },
  boardsDir: boards, logger: { level: 'info', stream },
})
afterAll(() => app.close())

it('says which board file was left out of the gallery, and why', async () => {
  await app.ready()
  const listed = listBoards(app.services).map((b) => b.id)
  expect(listed).toEqual(['training-floor'])           // the two broken files are gone from the gallery…
  const log = lines.join('')
  expect(log).toMatch(/boards\/my-floor\.json is left out of the gallery: .*r9c9/)  // …and the log says why
  expect(log).toMatch(/boards\/typo\.json is left out of the gallery: not JSON/)
})
