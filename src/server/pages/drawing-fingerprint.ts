// The fingerprint of the code that draws the board pictures, part of every picture's version and
// ETag (pages/pictures.ts): a release that draws them differently (a new colour, a fixed arrow)
// gives them new URLs and ETags by itself, so no browser or proxy keeps showing the old drawing
// and nobody has to remember to bump a number.
//
// What it covers: the source text of the files the pictures are drawn by, which is what the server
// runs (`npm start` and the tests run the TypeScript through tsx; there is no build), and the
// versions of the packages those import (resvg draws the PNGs). The files are found by following
// imports from ENTRIES, but only into render/ and engine/: the rest of the server that pictures.ts
// imports (Fastify among it) decides who may see a picture and how it is cached, not how it is
// drawn; type-only imports draw nothing. Paths are hashed relative to src/, so two checkouts of the
// same code agree.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const SRC = fileURLToPath(new URL('../../', import.meta.url))
/** Where drawing starts: the SVG, its PNG, and which state each picture of a turn shows (pictureOf). */
const ENTRIES = ['render/svg.ts', 'render/png.ts', 'server/pages/pictures.ts']
const FOLLOWED = ['render/', 'engine/']
const isDrawingCode = (file: string) => FOLLOWED.some((folder) => file.startsWith(folder))
/** An import or re-export statement (group 1: `type`, whose names draw nothing), or an import(). */
const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\bfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]/gm
const requirePackage = createRequire(import.meta.url)

/** The fingerprint of the drawing code under `src` (a checkout's src/ folder), as a URL-safe string. */
export function fingerprintOfDrawing(src: string): string {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    for (const [, typesOnly, statement, dynamic] of readFileSync(join(src, file), 'utf8').matchAll(IMPORT)) {
      const specifier = (statement ?? dynamic)!
      if (typesOnly) continue
      if (specifier.startsWith('.')) {
        const target = sourceOf(src, join(dirname(file), specifier))
        if (isDrawingCode(target)) visit(target)
      } else if (isDrawingCode(file) && !specifier.startsWith('node:')) packages.add(packageName(specifier))
    }
  }
  ENTRIES.forEach(visit)
  const hash = createHash('sha256')
  for (const file of [...files].sort()) hash.update(`${file}\0`).update(readFileSync(join(src, file))).update('\0')
  for (const name of [...packages].sort()) hash.update(`${name}@${packageVersion(name)}\0`)
  return hash.digest('base64url').slice(0, 22)
}

let running: string | undefined
/** The fingerprint of the code this process runs: computed once, when the app is built at start-up. */
export function drawingFingerprint(): string {
  running ??= fingerprintOfDrawing(SRC)
  return running
}

/** `./x.js` as written in an import → the file tsx runs (`x.ts`), relative to src/ with `/`. */
function sourceOf(src: string, imported: string): string {
  const path = imported.split(sep).join('/')
  const candidates = path.endsWith('.js') ? [path.replace(/\.js$/, '.ts'), path] : [path]
  const found = candidates.find((candidate) => existsSync(join(src, candidate)))
  // Never leave a drawing file out silently: the pictures would keep their URLs when it changes.
  if (!found) throw new Error(`drawing fingerprint: ${imported} (imported under ${src}) is not a file`)
  return found
}

/** `@resvg/resvg-js/x` → `@resvg/resvg-js`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

function packageVersion(name: string): string {
  return (requirePackage(`${name}/package.json`) as { version: string }).version
}
