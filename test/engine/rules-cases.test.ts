// Runs every rules case (ours in test/cases, the shared public ones) in-process, comparing
// what each case expects the way ../shared/conformance/check.mjs does, so `npm test` covers them.
import { readFileSync, readdirSync, existsSync } from 'node:fs'
import { join, resolve, basename } from 'node:path'
import { describe, expect, it } from 'vitest'
import { caseOutput, parseRulesCase, type CaseOutput } from '../../src/engine/rules-case.js'
import { resolveTurn } from '../../src/engine/turn.js'

const root = resolve(import.meta.dirname, '../..')
const folders = [join(root, 'test/cases'), resolve(root, '../shared/conformance/cases')].filter(existsSync)
const loadBoard = (path: string): unknown => JSON.parse(readFileSync(resolve(root, path), 'utf8'))

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type RobotFields = Record<string, Record<string, Json>>
interface Expect {
  stages?: Record<string, RobotFields>
  robots?: RobotFields
  board?: Record<string, Record<string, string>>
  winners?: string[]
  gameOver?: boolean
}

function canon(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canon)
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])]))
  return v
}
const same = (a: unknown, b: unknown) => JSON.stringify(canon(a)) === JSON.stringify(canon(b))

function compareRobots(where: string, expected: RobotFields, actual: Record<string, unknown>[]): string[] {
  const out: string[] = []
  for (const [player, fields] of Object.entries(expected)) {
    const found = actual.find((r) => r['player'] === player)
    if (!found) { out.push(`${where} ${player}: missing from output`); continue }
    for (const [field, want] of Object.entries(fields)) {
      if (!same(found[field], want)) out.push(`${where} ${player}.${field}: expected ${JSON.stringify(want)}, got ${JSON.stringify(found[field])}`)
    }
  }
  return out
}

/** The differences between what a case expects and what the engine printed (empty when they agree). */
function differences(want: Expect, got: CaseOutput): string[] {
  const diffs: string[] = []
  for (const [stage, robots] of Object.entries(want.stages ?? {})) {
    const s = got.stages.find((x) => x.stage === Number(stage))
    if (!s) { diffs.push(`stage ${stage}: missing from output`); continue }
    diffs.push(...compareRobots(`stage ${stage}`, robots, s.robots))
  }
  if (want.robots) diffs.push(...compareRobots('end', want.robots, got.robots))
  for (const [group, squares] of Object.entries(want.board ?? {})) {
    for (const [square, value] of Object.entries(squares)) {
      const actual = (got.board as unknown as Record<string, Record<string, string>>)[group]?.[square]
      if (actual !== value) diffs.push(`board ${group} ${square}: expected ${value}, got ${actual}`)
    }
  }
  if (want.winners && !same([...got.winners].sort(), [...want.winners].sort())) {
    diffs.push(`winners: expected ${JSON.stringify(want.winners)}, got ${JSON.stringify(got.winners)}`)
  }
  if (want.gameOver !== undefined && got.gameOver !== want.gameOver) diffs.push(`gameOver: expected ${want.gameOver}, got ${got.gameOver}`)
  return diffs
}

describe('the case comparison', () => {
  it('notices a wrong expectation (so a green run means something)', () => {
    const output: CaseOutput = {
      stages: [{ stage: 1, robots: [{ player: 'Ann', at: 'r2c2', facing: 'N', hp: 10, mode: 'real' }] }],
      robots: [{ player: 'Ann', at: 'r2c2', fused: {} }],
      board: { switches: {}, drawbridges: {}, teleporters: {} }, gameOver: false, winners: [],
    }
    expect(differences({ stages: { 1: { Ann: { at: 'r2c2' } } }, robots: { Ann: { fused: {} } }, winners: [] }, output)).toEqual([])
    expect(differences({ stages: { 1: { Ann: { at: 'r3c2' } } } }, output)).toHaveLength(1)
    expect(differences({ stages: { 2: { Ann: { at: 'r2c2' } } } }, output)).toEqual(['stage 2: missing from output'])
    expect(differences({ robots: { Bob: { hp: 10 } } }, output)).toHaveLength(1)
    expect(differences({ winners: ['Ann'], gameOver: true }, output)).toHaveLength(2)
  })
})

for (const folder of folders) {
  const files = readdirSync(folder).filter((f) => f.endsWith('.json')).sort()
  describe(`rules cases in ${basename(resolve(folder, '..'))}/${basename(folder)}`, () => {
    it('has cases', () => expect(files.length).toBeGreaterThan(0))
    for (const file of files) {
      const text = readFileSync(join(folder, file), 'utf8')
      let kase: { rulings?: string[]; expectError?: boolean | string; expect?: Expect } | null = null
      try { kase = JSON.parse(text) } catch { kase = null }
      const rulings = kase?.rulings?.join(' ') ?? 'FORMAT'
      it(`${file} (${rulings})`, () => {
        if (kase === null) return // not JSON: `botwars resolve` must refuse it before the engine sees it (checked by check.mjs)
        const parsed = parseRulesCase(kase, loadBoard)
        if (kase.expectError) {
          expect(parsed.ok, 'the case should be refused').toBe(false)
          if (!parsed.ok && typeof kase.expectError === 'string') expect(parsed.error).toContain(kase.expectError)
          if (!parsed.ok) expect(parsed.error).not.toMatch(/\n/)
          return
        }
        if (!parsed.ok) throw new Error(`case refused: ${parsed.error}`)
        const { board, state, orders } = parsed.value
        const output = caseOutput(resolveTurn(board, state, orders))
        expect(differences(kase.expect ?? {}, output)).toEqual([])
      })
    }
  })
}
