// A few kill -9 runs of the real server process (the 50-run version is `npm run chaos`): players
// submit over HTTP while turns close and mail goes out to a real SMTP server; the server is killed
// at a random moment, or inside the turn-closing transaction; after a restart no acknowledged
// submission is lost, no turn is closed twice or half, and every mail arrives once.
import { expect, it } from 'vitest'
import { killRun } from '../../src/testkit/chaos.js'

for (const [seed, crashPoint] of [[101, false], [102, false], [103, true]] as const) {
  it(`survives a kill -9 ${crashPoint ? 'inside the turn-closing transaction' : 'at a random moment'} (seed ${seed})`, async () => {
    const report = await killRun({ seed, crashPoint })
    expect(report.problems).toEqual([])
    expect(report.stats.acks).toBeGreaterThan(0)
    expect(report.stats.turnsPublished).toBeGreaterThan(0)
    if (crashPoint) expect(report.stats.selfKilled).toBe(1)
  }, 180_000)
}
