// Property: a rules case says everything a game says. Every turn of a random game is written out as
// a rules case (FORMAT.md section 2: the board object, boardState, optionDeck and every robot field),
// read back through parseRulesCase, the parser `botwars resolve` uses, and played: the turn must come
// out the same, event for event, as the game's own. And what `botwars resolve` prints of a turn
// (section 3), with the players' standing choices and the option deck, is the next turn's case: so
// the output leaves out nothing the next turn needs. A field the parser drops, defaults wrongly or
// reads into the wrong place, or one the output forgets, shows as a different turn here.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatCard } from '../../src/engine/deck.js'
import { formatSquare } from '../../src/engine/geometry.js'
import { newGame } from '../../src/engine/game.js'
import { caseOutput, parseRulesCase, type CaseOutput } from '../../src/engine/rules-case.js'
import { PLAYER_NAMES, randomOrders } from '../../src/engine/simulation.js'
import { resolveTurn } from '../../src/engine/turn.js'
import type { Card, GameState, RobotState, TurnOrders } from '../../src/engine/types.js'
import { boardArb, choicesArb, compile, withChoices } from './random-boards.js'

const cardsText = (fused: Readonly<Record<string, Card | null>>) =>
  Object.fromEntries(Object.entries(fused).map(([register, card]) => [register, card ? formatCard(card) : null]))

/** A robot of the game as a case's robot (FORMAT.md section 2), with every field written out. */
function caseRobot(robot: RobotState, orders: TurnOrders) {
  return {
    player: robot.player,
    at: formatSquare(robot.at!),
    facing: robot.facing,
    hp: robot.hp,
    mode: robot.mode,
    placedAfterTurn: robot.placedAfterTurn,
    robotsLeft: robot.robotsLeft,
    flags: robot.flags,
    checkpoint: robot.checkpoint && formatSquare(robot.checkpoint),
    stations: robot.stations.map(formatSquare),
    options: robot.options,
    sacrificeAt: robot.sacrificeAt,
    doubleWrench: robot.doubleWrench,
    fused: cardsText(robot.fused),
    rebooting: robot.rebooting,
    program: orders.cards.map(formatCard),
    rebootNext: orders.rebootNext,
  }
}

/** The turn about to be played, as a rules case on the board `json`. */
function asCase(json: unknown, state: GameState, orders: Record<string, TurnOrders>) {
  return {
    board: json,
    turn: state.turn,
    boardState: state.board,
    optionDeck: state.optionDeck,
    robots: state.robots.map((robot) => caseRobot(robot, orders[robot.player]!)),
  }
}

/**
 * The next turn's case from what `botwars resolve` printed: its robots as printed (less cardSets,
 * which the stations give), the standing choices the output does not repeat, and the next programs.
 */
function nextCase(json: unknown, turn: number, printed: CaseOutput, choices: readonly RobotState[], optionDeck: readonly string[], orders: Record<string, TurnOrders>) {
  return {
    board: json,
    turn,
    boardState: printed.board,
    optionDeck,
    robots: printed.robots.map((robot) => {
      const { cardSets: _derived, ...rest } = robot
      const own = choices.find((r) => r.player === robot['player'])!
      const given = orders[own.player]!
      return { ...rest, sacrificeAt: own.sacrificeAt, doubleWrench: own.doubleWrench, program: given.cards.map(formatCard), rebootNext: given.rebootNext }
    }),
  }
}

function parsed(kase: unknown) {
  const result = parseRulesCase(JSON.parse(JSON.stringify(kase)), () => { throw new Error('the case names its board inline') })
  if (!result.ok) throw new Error(`the game's turn as a case was refused: ${result.error}`)
  return result.value
}

/**
 * Whether a robot back from a reboot waits for the cards of registers fused while it rebooted: it
 * gets them at the next deal (A1), and a case, in which nothing is dealt, cannot hold it (FORMAT.md
 * section 2: only a rebooting robot's register may hold no card).
 */
const waitsForCards = (printed: CaseOutput) =>
  printed.robots.some((robot) => !robot['rebooting'] && Object.values(robot['fused'] as Record<string, unknown>).includes(null))

/** A case holds only robots on the floor: a player who is out has none (FORMAT.md section 2). */
const everyoneIn = (state: GameState) => state.robots.every((robot) => robot.at !== null)

describe('property: a turn of a game and the same turn as a rules case (FORMAT.md sections 2, 3)', () => {
  it('are played alike, and what resolve prints is all the next turn needs', () => {
    const choices = fc.array(choicesArb, { minLength: 6, maxLength: 6 })
    fc.assert(fc.property(boardArb, fc.integer({ min: 2, max: 6 }), fc.integer(), choices, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), (json, players, seed, chosen, reboots) => {
      const board = compile(json)
      let state = withChoices(newGame(board, PLAYER_NAMES.slice(0, players), seed), chosen)
      let printed: CaseOutput | null = null
      for (let turn = 1; turn <= 8 && !state.gameOver && everyoneIn(state); turn++) {
        const [orders, dealt] = randomOrders(state)
        if (reboots[turn - 1]) orders[dealt.robots[turn % players]!.player]!.rebootNext = true
        const played = resolveTurn(board, dealt, orders)
        // Chance is no part of a case (FORMAT.md section 2), but a rebooting robot's empty registers
        // draw cards when it comes back (R33): the case is played with the game's generator.
        const fromCase = parsed(asCase(json, dealt, orders))
        const asPlayed = resolveTurn(fromCase.board, { ...fromCase.state, rng: dealt.rng, hands: dealt.hands }, fromCase.orders)
        expect(asPlayed, `turn ${turn}: the turn as a case`).toEqual(played)
        if (printed && !waitsForCards(printed)) {
          const fromOutput = parsed(nextCase(json, dealt.turn, printed, dealt.robots, dealt.optionDeck, orders))
          const next = resolveTurn(fromOutput.board, { ...fromOutput.state, rng: dealt.rng, hands: dealt.hands }, fromOutput.orders)
          expect(caseOutput(next), `turn ${turn}: the turn from the last turn's output`).toEqual(caseOutput(played))
        }
        printed = caseOutput(played)
        state = played.state
      }
    }), { numRuns: 300 })
  })
})
