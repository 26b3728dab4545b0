// Order statistics for the benchmarks and the scripts' timings.

/** The value below which a fraction `q` of the values lie (q = 0.5: the median, the upper one of an even count). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}
