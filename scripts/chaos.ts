// `npm run chaos -- [--runs 50] [--seed 1] [--skip-two] [--skip-smtp]`
// Kill -9 the real server at random moments (every fifth run inside the turn-closing transaction)
// while players submit over HTTP and turns close and mail goes out; restart; check that no
// acknowledged submission is lost, no turn is closed twice or half, no mail lost or sent twice.
// Then two server processes on one database, and a mail server that refuses and drops
// connections for a while. See src/testkit/chaos.ts for what each run checks.
import { parseArgs } from 'node:util'
import { killRun, smtpOutageRun, twoProcessRun, type RunReport } from '../src/testkit/chaos.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '50' }, seed: { type: 'string', default: '1' },
    'skip-two': { type: 'boolean', default: false }, 'skip-smtp': { type: 'boolean', default: false },
  },
})
const runs = Number(values.runs)
const seed0 = Number(values.seed)
const reports: RunReport[] = []
const t0 = Date.now()
const show = (r: RunReport, i?: number) => {
  const stats = Object.entries(r.stats).map(([k, v]) => `${k}=${v}`).join(' ')
  console.log(`${i !== undefined ? `#${String(i + 1).padStart(2)} ` : ''}${r.problems.length ? 'FAIL' : 'ok  '} ${r.name}: ${stats}`)
  for (const p of r.problems.slice(0, 20)) console.log(`      ${p}`)
}
for (let i = 0; i < runs; i++) {
  const r = await killRun({ seed: seed0 + i, crashPoint: i % 5 === 4 })
  reports.push(r)
  show(r, i)
}
if (!values['skip-two']) { const r = await twoProcessRun(seed0); reports.push(r); show(r) }
if (!values['skip-smtp']) { const r = await smtpOutageRun(seed0); reports.push(r); show(r) }

const kills = reports.slice(0, runs)
const sum = (key: string) => kills.reduce((a, r) => a + (r.stats[key] ?? 0), 0)
const failed = reports.filter((r) => r.problems.length > 0)
console.log(`\nchaos: ${runs} kill runs (${kills.filter((r) => r.stats.killAfterMs === -1).length} inside close-turn), ${sum('acks')} acknowledged submissions, ` +
  `${sum('turnsPublished')} turns published, ${sum('mails')} mails queued, ${sum('received')} received, ${sum('inFlightAtKill')} in flight at a kill; ` +
  `${failed.length} of ${reports.length} runs with problems; ${((Date.now() - t0) / 1000).toFixed(0)} s`)
process.exit(failed.length ? 1 : 0)
