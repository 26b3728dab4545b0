// Two real server processes on one database file, both running the clockwork and taking programs:
// every turn closes exactly once, every mail is queued once and received once.
import { expect, it } from 'vitest'
import { twoProcessRun } from '../../src/testkit/chaos.js'

it('closes each turn exactly once with two server processes on one database', async () => {
  const report = await twoProcessRun(201, 11)
  expect(report.problems).toEqual([])
  expect(report.stats.turnsPublished).toBeGreaterThan(0)
  expect(report.stats.received).toBe(report.stats.mails)
}, 180_000)
