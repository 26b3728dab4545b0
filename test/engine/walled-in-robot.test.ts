// Property: a robot that cannot reach anyone changes nothing for anyone. One square of a random board,
// bare and not the start, is walled in on all four sides (R4), and a robot sits in it playing a
// program of its own: walls stop its moves and its laser and every beam and push toward it (R4, R13,
// R23, R26), and nothing on its square acts. So every turn of a game played with it seated among the
// players, anywhere, must be the game's turn without it: the same robots, board, option deck and
// events, its own left out. Only the end of the game may differ, since it is a player with robots
// left (R34), so a turn in which a player loses its last robot ends the comparison. This catches one
// robot's presence leaking into another's turn: a list indexed by the wrong seat, a count of robots
// taken as a count of players, scratch space shared between robots.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FULL_DECK, canUseCard, cardSetsFor } from '../../src/engine/deck.js'
import type { GameEvent } from '../../src/engine/events.js'
import { newGame, newRobot } from '../../src/engine/game.js'
import { parseSquare } from '../../src/engine/geometry.js'
import { PLAYER_NAMES, randomOrders } from '../../src/engine/simulation.js'
import { resolveTurn, type TurnResult } from '../../src/engine/turn.js'
import { DIRECTIONS, type Board, type Direction, type GameState, type RobotState, type TurnOrders } from '../../src/engine/types.js'
import { boardArb, choicesArb, compile, shuffledBy, withChoices } from './random-boards.js'

const HERMIT = 'Hermit'

/** The board with `cell` walled in, or null when every square but the start holds a floor element. */
function withWalledCell(json: { rows: number; cols: number; start: { at: string }; elements: Record<string, unknown>[] }, pick: number) {
  const floored = new Set(json.elements.filter((e) => !['wall', 'pusher', 'laser'].includes(e['type'] as string)).map((e) => e['at']))
  const bare: string[] = []
  for (let r = 1; r <= json.rows; r++) for (let c = 1; c <= json.cols; c++) if (!floored.has(`r${r}c${c}`) && `r${r}c${c}` !== json.start.at) bare.push(`r${r}c${c}`)
  if (bare.length === 0) return null
  const cell = bare[pick % bare.length]!
  // A pusher or turret on the cell's own square would act inside it; the walls replace them.
  const outside = json.elements.filter((e) => e['at'] !== cell)
  return { cell, json: { ...json, elements: [...outside, ...DIRECTIONS.map((side) => ({ type: 'wall', at: cell, side }))] } }
}

/** A new robot (R29's defaults), real, in the walled cell. */
function hermit(board: Board, cell: string, facing: Direction): RobotState {
  return { ...newRobot(HERMIT, board), at: parseSquare(cell)!, facing, mode: 'real' }
}

const notHermits = <T extends { player: string }>(items: readonly T[]) => items.filter((item) => item.player !== HERMIT)
const othersEvents = (events: readonly GameEvent[]) => events.filter((event) => !('player' in event) || event.player !== HERMIT)

/** The turn without the hermit's robot, its events and its registers. */
function withoutHermit(result: TurnResult) {
  const { [HERMIT]: _registers, ...registers } = result.registers
  return {
    turn: result.turn,
    start: { ...result.start, robots: notHermits(result.start.robots), events: othersEvents(result.start.events) },
    stages: result.stages.map((stage) => ({ ...stage, robots: notHermits(stage.robots), events: othersEvents(stage.events) })),
    end: { ...result.end, robots: notHermits(result.end.robots), events: othersEvents(result.end.events) },
    state: { ...result.state, robots: notHermits(result.state.robots) },
    registers,
  }
}

describe('property: a robot walled in on a square of its own (R4, R34)', () => {
  it('changes no turn of random games on random boards, wherever it is seated', () => {
    const choices = fc.array(choicesArb, { minLength: 6, maxLength: 6 })
    const turns = fc.array(fc.record({ seat: fc.nat(), facing: fc.constantFrom(...DIRECTIONS), order: fc.array(fc.nat(), { minLength: 9, maxLength: 9 }) }), { minLength: 8, maxLength: 8 })
    let compared = 0
    fc.assert(fc.property(boardArb, fc.nat(), fc.integer({ min: 2, max: 6 }), fc.integer(), choices, turns, (generated, pick, players, seed, chosen, plans) => {
      const walled = withWalledCell(generated, pick)
      if (!walled) return
      const board = compile(walled.json)
      let state = withChoices(newGame(board, PLAYER_NAMES.slice(0, players), seed), chosen)
      for (const [t, { seat, facing, order }] of plans.entries()) {
        if (state.gameOver) break
        const [orders, dealt] = randomOrders(state)
        // Any five cards no robot holds: a program of its own, which walls make harmless.
        const held = new Set([...Object.values(dealt.hands).flat(), ...dealt.robots.flatMap((r) => Object.values(r.fused))].map((card) => card?.priority))
        const cards = shuffledBy(FULL_DECK.filter((card) => !held.has(card.priority) && canUseCard(card, cardSetsFor(0))), order).slice(0, 5)
        const robots = [...dealt.robots]
        robots.splice(seat % (robots.length + 1), 0, hermit(board, walled.cell, facing))
        const withIt: GameState = { ...dealt, robots }
        const ordersWithIt: Record<string, TurnOrders> = { ...orders, [HERMIT]: { cards, rebootNext: false } }
        const alone = resolveTurn(board, dealt, orders)
        const together = withoutHermit(resolveTurn(board, withIt, ordersWithIt))
        const where = `turn ${t + 1}, the hermit seated ${seat % (robots.length)}`
        const lastRobotLost = alone.end.events.some((event) => event.kind === 'player-out')
        expect(together.start, `${where}: start`).toEqual(alone.start)
        expect(together.stages, `${where}: stages`).toEqual(alone.stages)
        if (lastRobotLost) break
        expect(together, where).toEqual(alone)
        compared++
        state = alone.state
      }
    }), { numRuns: 300 })
    expect(compared).toBeGreaterThan(600)
  })
})
