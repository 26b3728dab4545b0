// A player's name is any string (FORMAT.md section 2), and the engine keys hands, orders and
// registers by it. Names that are JavaScript's own words (`__proto__` sets an object's prototype
// when assigned to a plain object, `constructor` is found on every object, integer-like names
// reorder an object's keys) must play exactly as any other name: every rules case, ours and the
// public ones, is resolved again with its players renamed, and its whole result, named back,
// must be the first result.
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { newGame } from '../../src/engine/game.js'
import { caseOutput, parseRulesCase } from '../../src/engine/rules-case.js'
import { randomOrders } from '../../src/engine/simulation.js'
import { resolveTurn } from '../../src/engine/turn.js'
import { CASE_FOLDERS, caseJsons, loadBoards, loadCaseBoard } from './game-log-digest.js'

const HOSTILE_NAMES = [
  ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'length', 'prototype'],
  ['2', '1', '0', '10', '07', '-1', '4294967295', '1e3'],
].map((names) => [names.slice(0, 3).join(', '), names] as const)

/** Fields of the result that hold a player's name, or a list of them; and records keyed by player. */
const NAME_FIELDS = new Set(['player', 'by', 'hit'])
const NAME_LISTS = new Set(['hits', 'winners'])
const KEYED_BY_PLAYER = new Set(['registers', 'hands'])

/** `value` with every player's name changed by `rename`, wherever the result holds one. */
function renamed(value: unknown, rename: (name: string) => string, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => (NAME_LISTS.has(key) && typeof item === 'string' ? rename(item) : renamed(item, rename)))
  if (value === null || typeof value !== 'object') return NAME_FIELDS.has(key) && typeof value === 'string' ? rename(value) : value
  // Own keys alone, read as data: a `__proto__` key made by JSON.parse is an own key like any other.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const [k, v] of Object.entries(value)) out[KEYED_BY_PLAYER.has(key) ? rename(k) : k] = renamed(v, rename, k)
  return out
}

describe('player names that are JavaScript\'s own words', () => {
  it.each(HOSTILE_NAMES)('play as any other name in every rules case (%s …)', (_, names) => {
    let resolved = 0
    for (const [file, json] of caseJsons(Object.values(CASE_FOLDERS).filter(existsSync))) {
      const straight = parseRulesCase(json, loadCaseBoard)
      if (!straight.ok) continue
      const kase = json as { robots: Record<string, unknown>[] }
      const robots = kase.robots
      if (robots.length > names.length) continue
      const original = robots.map((robot) => robot['player'] as string)
      const other = parseRulesCase({ ...kase, robots: robots.map((robot, seat) => ({ ...robot, player: names[seat] })) }, loadCaseBoard)
      expect(other.ok, `${file}: refused with the names ${names.join(', ')}`).toBe(true)
      if (!other.ok) continue
      const back = (name: string) => original[names.indexOf(name)] ?? `not a player: ${name}`
      const first = resolveTurn(straight.value.board, straight.value.state, straight.value.orders)
      const second = resolveTurn(other.value.board, other.value.state, other.value.orders)
      expect(renamed({ result: second, output: caseOutput(second) }, back), file).toEqual(renamed({ result: first, output: caseOutput(first) }, (name) => name))
      resolved++
    }
    expect(resolved).toBeGreaterThan(150)
  })

  it.each(HOSTILE_NAMES)('are dealt hands, filled programs and registers of their own in a game (%s …)', (_, names) => {
    const board = [...loadBoards().values()][0]!
    let state = newGame(board, names, 7)
    for (let turn = 1; turn <= 3; turn++) {
      const [orders, dealt] = randomOrders(state)
      // JSON keeps what a game stores: a hand or a program assigned as a prototype would not survive
      // it. (Integer-like keys come first in any object; nothing reads these records in key order.)
      const keys = (record: object) => Object.keys(JSON.parse(JSON.stringify(record)) as object).sort()
      expect(keys(dealt.hands), `turn ${turn}: hands`).toEqual([...names].sort())
      expect(keys(orders), `turn ${turn}: programs`).toEqual([...names].sort())
      const result = resolveTurn(board, dealt, orders)
      expect(keys(result.registers), `turn ${turn}: registers`).toEqual([...names].sort())
      state = result.state
    }
  })
})
