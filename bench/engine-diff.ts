// What a change to the rules engine changed, turn by turn: one commit's engine (a copy, as the
// bench takes it: bench/baseline/engine-copy.ts) and the working tree's resolve the same turns —
// seeded games on every board in boards/ with 2, 4 and 8 players, each turn's deal and programs
// made once by today's engine and given to both. It counts the turns whose state or stage pictures
// differ (a rule change) and, stage by stage, the logs that differ, by the kinds of events only one
// side told. The output digest (test/engine/game-log-digest.ts) says whether anything changed;
// this says what, for the commit message and docs/rulings-added.md.
//   npx tsx bench/engine-diff.ts BEFORE [seeds=100] [turns=200]
import { join } from 'node:path'
import type { GameEvent } from '../src/engine/events.js'
import { newGame } from '../src/engine/game.js'
import { PLAYER_NAMES, randomOrders } from '../src/engine/simulation.js'
import { resolveTurn, type TurnResult } from '../src/engine/turn.js'
import { loadEngineCopy } from './baseline/engine-copy.js'
import { definitionOf, loadBoards } from './engine.js'

const [beforeRef, seedsArg = '100', turnsArg = '200'] = process.argv.slice(2)
if (!beforeRef) {
  console.error('usage: npx tsx bench/engine-diff.ts BEFORE [seeds=100] [turns=200]')
  process.exit(2)
}
const before = await loadEngineCopy(beforeRef, 'diff-before')

/** Everything a turn leaves but its events: the new state, the pictures of each stage and the end. */
const pictures = (result: TurnResult) => JSON.stringify([result.state, result.start.robots, result.stages.map((s) => [s.robots, s.board]), result.end.robots, result.registers])
const told = (events: readonly GameEvent[]) => events.map((event) => JSON.stringify(event))

/** The kinds of the events one list tells and the other does not (as many times as it tells them more). */
function toldOnlyIn(one: readonly string[], other: readonly string[]): string[] {
  const left = new Map<string, number>()
  for (const event of other) left.set(event, (left.get(event) ?? 0) + 1)
  const kinds: string[] = []
  for (const event of one) {
    const n = left.get(event) ?? 0
    if (n > 0) left.set(event, n - 1)
    else kinds.push((JSON.parse(event) as GameEvent).kind)
  }
  return kinds.sort()
}

let turns = 0
const changedTurns: string[] = []
let loggedTurns = 0
const logs = new Map<string, number>()
for (const board of loadBoards(join(import.meta.dirname, '..', 'boards'))) {
  const theirs = before.compileBoard(definitionOf(board))
  for (const players of [2, 4, 8]) {
    for (let seed = 1; seed <= Number(seedsArg); seed++) {
      let state = newGame(board, PLAYER_NAMES.slice(0, players), seed)
      for (let turn = 1; turn <= Number(turnsArg) && !state.gameOver; turn++) {
        const [orders, dealt] = randomOrders(state)
        const now = resolveTurn(board, dealt, orders)
        const then = before.resolveTurn(theirs, dealt, orders)
        turns++
        if (pictures(now) !== pictures(then)) changedTurns.push(`${board.name}, ${players} players, seed ${seed}, turn ${turn}`)
        const parts: [readonly GameEvent[], readonly GameEvent[]][] = [
          [now.start.events, then.start.events],
          ...now.stages.map((stage, s): [GameEvent[], GameEvent[]] => [stage.events, then.stages[s]?.events ?? []]),
          [now.end.events, then.end.events],
        ]
        let logged = false
        for (const [a, b] of parts) {
          const [x, y] = [told(a), told(b)]
          if (x.join('\n') === y.join('\n')) continue
          logged = true
          const [onlyNow, onlyThen] = [toldOnlyIn(x, y), toldOnlyIn(y, x)]
          const what = onlyNow.length + onlyThen.length === 0
            ? 'the same events in another order'
            : `told only now: ${onlyNow.join(', ') || 'nothing'}; only before: ${onlyThen.join(', ') || 'nothing'}`
          logs.set(what, (logs.get(what) ?? 0) + 1)
        }
        if (logged) loggedTurns++
        state = now.state
      }
    }
  }
}

console.log(`${turns} turns, ${before.commit} against the working tree`)
console.log(`turns whose state or stage pictures differ: ${changedTurns.length}`)
for (const where of changedTurns.slice(0, 10)) console.log(`  ${where}`)
console.log(`turns whose event log differs: ${loggedTurns}; logs (the start, a stage or the end) by what differs:`)
for (const [what, n] of [...logs].sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${what}`)
