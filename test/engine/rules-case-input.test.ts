// Property: a rules case changed at random (a field dropped, an array element repeated, any JSON
// value put anywhere) is either resolved or refused with one line that names the field, never a
// throw: what `botwars resolve` promises for an invalid case (FORMAT.md section 3).
import fc from 'fast-check'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { caseOutput, parseRulesCase } from '../../src/engine/rules-case.js'
import { resolveTurn } from '../../src/engine/turn.js'
import { CASE_FOLDERS } from './game-log-digest.js'

const root = resolve(import.meta.dirname, '../..')
const loadBoard = (path: string) => JSON.parse(readFileSync(resolve(root, path), 'utf8')) as unknown
/** Every case that is JSON, valid or not, ours and the public ones. */
const cases: unknown[] = Object.values(CASE_FOLDERS).filter(existsSync).flatMap((folder) => readdirSync(folder).filter((name) => name.endsWith('.json')).flatMap((name) => {
  try { return [JSON.parse(readFileSync(resolve(folder, name), 'utf8')) as unknown] } catch { return [] }
}))

type Path = (string | number)[]

/** Every place in a JSON value, the value itself first. */
function placesIn(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at)
  if (Array.isArray(value)) value.forEach((item, i) => placesIn(item, [...at, i], out))
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) placesIn(item, [...at, key], out)
  return out
}

type Change = 'drop' | 'repeat' | 'replace'

function changed(json: unknown, at: Path, change: Change, value: unknown): unknown {
  if (at.length === 0) return value
  const copy = structuredClone(json)
  let parent = copy as Record<string | number, unknown>
  for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
  const last = at.at(-1)!
  if (change === 'drop' && Array.isArray(parent)) parent.splice(last as number, 1)
  else if (change === 'drop') delete parent[last]
  else if (change === 'repeat' && Array.isArray(parent)) parent.push(structuredClone(parent[last as number]))
  else parent[last] = value
  return copy
}

/** Values a careless or hostile case might hold: any JSON, and near misses of the format's own. */
const values = fc.oneof(fc.jsonValue(), fc.constantFrom(0, -1, 1e9, 1.5, '', 'r0c0', 'r99c1', 'r2c2', 'FWD1:490', 'FWD1:491', 'N', 'X', null, true, [], {}, 'virtual', 'destroyed'))
const changes = fc.array(fc.tuple(fc.nat(), fc.constantFrom<Change>('drop', 'repeat', 'replace', 'replace'), values), { minLength: 1, maxLength: 3 })

/**
 * A refusal: one line, naming the field (`robots[1].program[0]: …`, an odd key quoted:
 * `boardState.switches[" "]: …`), or the whole case when it is not an object.
 */
const REFUSAL = /^(\w+(\[\d+\]|\[".*"\]|\.[\w-]+)*: \S[^\n]*|a rules case is one JSON object \(FORMAT\.md section 2\))$/

describe('property: a rules case changed at random', () => {
  it('is resolved, or refused in one line naming the field; never a throw', () => {
    expect(cases.length).toBeGreaterThan(130)
    let refused = 0
    fc.assert(fc.property(fc.nat(), changes, (pick, steps) => {
      let json = cases[pick % cases.length]
      for (const [place, change, value] of steps) {
        const places = placesIn(json)
        json = changed(json, places[place % places.length]!, change, value)
      }
      const parsed = parseRulesCase(json, loadBoard)
      if (parsed.ok) {
        const { board, state, orders } = parsed.value
        expect(() => JSON.stringify(caseOutput(resolveTurn(board, state, orders)))).not.toThrow()
      } else {
        refused++
        expect(parsed.error).toMatch(REFUSAL)
      }
    }), { numRuns: 3000 })
    // Most changes break the case, but not all: both ways are taken.
    expect(refused).toBeGreaterThan(300)
    expect(refused).toBeLessThan(2900)
  })
})
