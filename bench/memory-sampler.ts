// Loaded into the real server process with `--import` by bench/memory-10k.ts, so the server runs
// unchanged: every BOTWARS_MEMORY_SAMPLE_MS (default 2000) appends one JSON line of
// process.memoryUsage() and the uptime to the file BOTWARS_MEMORY_SAMPLES. With
// BOTWARS_MEMORY_GC=1 (and node --expose-gc) each sample follows a full collection, so heapUsed is
// what is alive: the caches and everything else the process holds.
import { appendFileSync } from 'node:fs'

const file = process.env.BOTWARS_MEMORY_SAMPLES
if (file) {
  const every = Number(process.env.BOTWARS_MEMORY_SAMPLE_MS ?? 2000)
  const collect = process.env.BOTWARS_MEMORY_GC === '1' ? (globalThis as { gc?: () => void }).gc : undefined
  const sample = () => {
    collect?.()
    appendFileSync(file, JSON.stringify({ t: Math.round(process.uptime() * 1000), ...process.memoryUsage() }) + '\n')
  }
  sample()
  setInterval(sample, every).unref()
}
