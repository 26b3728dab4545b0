// Builds the browser bundle (src/browser/plan.ts with the rules engine and the board pictures)
// with esbuild, once per content: the result is kept in memory and in
// node_modules/.cache/botwars-browser/<hash>.js, so a restart with unchanged sources does not
// build again. The server calls it (src/server/pages/kit.ts); `npm run build:browser` prints the size.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..')
const ROOT = join(SRC, '..')
const ENTRY = join(SRC, 'browser', 'plan.ts')
/** The folders whose files can end up in the bundle. */
const INPUTS = ['engine', 'render', 'browser'].map((d) => join(SRC, d))
const CACHE = join(ROOT, 'node_modules', '.cache', 'botwars-browser')

export interface Bundle { version: string; js: Buffer; gzip: Buffer }

/** A hash of every source file the bundle may hold (and of the lock file, for zod's version). */
export function bundleVersion(): string {
  const hash = createHash('sha256')
  for (const dir of INPUTS) {
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith('.ts')) continue
      hash.update(name).update(readFileSync(join(dir, name)))
    }
  }
  const lock = join(ROOT, 'package-lock.json')
  if (existsSync(lock)) hash.update(readFileSync(lock))
  return hash.digest('hex').slice(0, 12)
}

let built: Promise<Bundle> | null = null

/** The bundle, built the first time it is asked for (and kept on disk for the next start). */
export function browserBundle(): Promise<Bundle> {
  built ??= build().catch((err: unknown) => { built = null; throw err })
  return built
}

async function build(): Promise<Bundle> {
  const version = bundleVersion()
  const file = join(CACHE, `${version}.js`)
  let js: Buffer
  if (existsSync(file)) js = readFileSync(file)
  else {
    const esbuild = await import('esbuild')
    const out = await esbuild.build({
      entryPoints: [ENTRY], bundle: true, minify: true, format: 'iife', target: ['es2020'], platform: 'browser',
      write: false, legalComments: 'none', logLevel: 'silent',
    })
    js = Buffer.from(out.outputFiles[0]!.contents)
    mkdirSync(CACHE, { recursive: true })
    writeFileSync(file, js)
  }
  return { version, js, gzip: gzipSync(js, { level: 9 }) }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bundle = await browserBundle()
  console.log(`plan.js ${version(bundle)}: ${(bundle.js.length / 1024).toFixed(1)} KiB, ${(bundle.gzip.length / 1024).toFixed(1)} KiB gzip`)
}

function version(bundle: Bundle): string { return bundle.version }
