// The fingerprint of the code that draws pictures (pages/drawing-fingerprint.ts), which every
// picture's version and ETag carry: the same code gives the same fingerprint in every process (a
// restart must not throw away every browser's pictures), wherever the code is checked out, and a
// change to the drawing, however small, gives another one.
import { execFileSync } from 'node:child_process'
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { drawingFingerprint, fingerprintOfDrawing } from '../../src/server/pages/drawing-fingerprint.js'
import { ROOT } from '../../src/testkit/server-process.js'
import { tempDir } from '../server/helpers.js'

const SRC = fileURLToPath(new URL('../../src/', import.meta.url))
const copies = tempDir()
afterAll(() => rmSync(copies, { recursive: true, force: true }))

/** The fingerprint a server started as `npm start` starts it (node with tsx) computes. */
function fingerprintOfANewProcess(): string {
  const module = join(SRC, 'server', 'pages', 'drawing-fingerprint.ts')
  const code = `import(${JSON.stringify(module)}).then((m) => console.log(m.drawingFingerprint()))`
  return execFileSync(process.execPath, ['--import', 'tsx', '-e', code], { cwd: ROOT, encoding: 'utf8' }).trim()
}

/** A copy of src/ elsewhere, with `change` made to one of its files. */
function copyOfSource(name: string, file?: string, change?: (text: string) => string): string {
  const copy = join(copies, name)
  cpSync(SRC, copy, { recursive: true })
  if (file && change) {
    const before = readFileSync(join(copy, file), 'utf8')
    const after = change(before)
    expect(after, `${file} was changed`).not.toBe(before)
    writeFileSync(join(copy, file), after)
  }
  return copy
}

it('is the same in two starts of the same code, and wherever the code is checked out', () => {
  const first = fingerprintOfANewProcess()
  expect(first).toMatch(/^[A-Za-z0-9_-]{16,}$/)
  expect(fingerprintOfANewProcess()).toBe(first)
  expect(drawingFingerprint()).toBe(first) // the tests' process runs the code as the server does
  expect(fingerprintOfDrawing(copyOfSource('same'))).toBe(first)
})

it('changes with any change to the code that draws a picture, and only with that', () => {
  const now = drawingFingerprint()
  // A robot's outline (render/robots.ts, reached from render/svg.ts), a laser's reach (engine/rays.ts,
  // which render/beams.ts asks), which state a picture shows (pages/pictures.ts pictureOf).
  expect(fingerprintOfDrawing(copyOfSource('outline', 'render/robots.ts', (text) => text.replace('stroke-width', 'stroke-width ')))).not.toBe(now)
  expect(fingerprintOfDrawing(copyOfSource('rays', 'engine/rays.ts', (text) => `${text}\n// a fix\n`))).not.toBe(now)
  expect(fingerprintOfDrawing(copyOfSource('which', 'server/pages/pictures.ts', (text) => text.replace("'end'", "'finish'")))).not.toBe(now)
  // The turn's story in words is not drawn: changing it keeps every browser's pictures.
  expect(fingerprintOfDrawing(copyOfSource('story', 'render/story.ts', (text) => `${text}\n// reworded\n`))).toBe(now)
})
