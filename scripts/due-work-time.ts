// `npx tsx scripts/due-work-time.ts [--db data/seed-10k.db]`: times runDueWork on a copy of a database
// (nothing is sent: services only, no mail worker), six calls in a row, after migrating the copy.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../src/server/plugins/db.js'
import { createContext } from '../src/server/services/context.js'
import { runDueWork } from '../src/server/services/scheduler.js'
import { parseArgs } from 'node:util'
const { values } = parseArgs({ options: { db: { type: 'string', default: 'data/seed-10k.db' } } })
const dir = mkdtempSync(join(tmpdir(), 'botwars-tick-'))
copyFileSync(values.db!, join(dir, 'b.db'))
let t0 = performance.now()
const db = openDatabase(join(dir, 'b.db'))
console.log('open + migrations:', (performance.now() - t0).toFixed(0), 'ms')
const ctx = createContext({ db, now: Date.now, baseUrl: 'http://x', boardsDir: 'boards' })
console.log('open turns', db.prepare("SELECT count(*) n FROM turns WHERE status='open'").get(), 'marked all in', db.prepare("SELECT count(*) n FROM turns WHERE status='open' AND programs_in=1").get())
for (let i = 0; i < 6; i++) { t0 = performance.now(); const r = runDueWork(ctx); console.log('runDueWork', (performance.now() - t0).toFixed(1), 'ms', JSON.stringify(r)) }
db.close(); rmSync(dir, { recursive: true, force: true })
