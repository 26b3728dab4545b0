// Timing in rounds: how many calls of a function one round of a fixed length runs, per second of
// this process's own CPU time (steadier than the wall clock on a machine shared with others).
import { quantile } from '../src/testkit/stats.js'

export interface Spread {
  /** Calls per CPU second: the median round, and the slowest and fastest rounds. */
  median: number
  slowest: number
  fastest: number
}

/** The middle value (the upper one of an even count). */
export const median = (values: readonly number[]) => quantile(values, 0.5)

export function spreadOf(rates: readonly number[]): Spread {
  return { median: Math.round(median(rates)), slowest: Math.round(Math.min(...rates)), fastest: Math.round(Math.max(...rates)) }
}

/**
 * Runs `call(i)` for i = 0, 1, 2, … (modulo `items`) in `rounds` rounds of `seconds` each; returns
 * each round's calls per CPU second. The clock is read every 100 calls, not every call.
 */
export function timedRounds(rounds: number, seconds: number, items: number, call: (i: number) => void): number[] {
  const budget = BigInt(Math.round(seconds * 1e9))
  const rates: number[] = []
  let i = 0
  for (let round = 0; round < rounds; round++) {
    const before = i
    const cpuBefore = process.cpuUsage()
    const started = process.hrtime.bigint()
    while (process.hrtime.bigint() - started < budget) {
      for (let k = 0; k < 100; k++, i++) call(i % items)
    }
    const used = process.cpuUsage(cpuBefore)
    rates.push((i - before) / ((used.user + used.system) / 1e6))
  }
  return rates
}
