// PNG pictures (for mails and downloads), and the board files of boards/ drawn as a person sees them.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileBoard, parseBoard } from '../../src/engine/board.js'
import { boardPng, PNG_SIGNATURE } from '../../src/render/png.js'
import { boardSvg } from '../../src/render/svg.js'
import { everyElementBoard } from './fixture.js'

function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}

describe('boardPng', () => {
  const svg = boardSvg(everyElementBoard(), {
    title: 'Every element',
    robots: [{ player: 'Ann', at: { row: 2, col: 3 }, facing: 'E', hp: 10, mode: 'real', rebooting: false }],
  })

  it('renders a PNG at the SVG size', () => {
    const png = boardPng(svg)
    expect(png.length).toBeGreaterThan(1000)
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
    const width = Number(/width="([\d.]+)"/.exec(svg)![1])
    expect(pngSize(png).width).toBe(Math.round(width))
  })

  it('renders at a requested width', () => {
    expect(pngSize(boardPng(svg, 800)).width).toBe(800)
  })

  it('renders text-heavy and hostile input without failing', () => {
    const hostile = boardSvg(everyElementBoard(), { title: '<script>&"\'☃', names: { Ann: '😀 <b>' },
      robots: [{ player: 'Ann', at: { row: 1, col: 1 }, facing: 'N', hp: 10, mode: 'virtual', rebooting: true }] })
    expect(boardPng(hostile).subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
  })
})

describe('boards/*.json as pictures', () => {
  const dir = join(process.cwd(), 'boards')
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : []

  it.skipIf(files.length === 0)('draws every board file to a PNG', () => {
    const out = mkdtempSync(join(tmpdir(), 'botwars-boards-'))
    for (const file of files) {
      const parsed = parseBoard(JSON.parse(readFileSync(join(dir, file), 'utf8')))
      expect(parsed.ok, `${file}: ${parsed.ok ? '' : parsed.error}`).toBe(true)
      if (!parsed.ok) continue
      const board = compileBoard(parsed.value)
      const svg = boardSvg(board, { title: board.name })
      expect(svg.match(/class="el /g)?.length ?? 0).toBe(board.elements.length + 1) // + the start square
      const png = boardPng(svg)
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
      writeFileSync(join(out, file.replace(/\.json$/, '.png')), png)
    }
  })
})
