// Property tests over whole games (fast-check): random seeds on every board in boards/, 4 and 8
// robots, up to 60 turns each, random legal programs as the server fills them (R9). At every deal,
// stage and turn: cards are conserved (R5, R7, R8, R27); no two real robots share a square (R24);
// HP stays within 0..10 and a destroyed robot has 0 (R27, FORMAT §3); flags are tagged one at a
// time, in order, and never lost (R30); robots left never increase (R29); the game ends exactly
// when R34 says; the same seed plays the same game; and the event log, replayed, tells the story
// the robots show, with no robot stepping into another real robot's square (log-replay.ts).
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileBoard, parseBoard } from '../../src/engine/board.js'
import { FULL_DECK, formatCard, handSize } from '../../src/engine/deck.js'
import { formatSquare } from '../../src/engine/geometry.js'
import { newGame } from '../../src/engine/game.js'
import { PLAYER_NAMES, randomOrders, simulateGame } from '../../src/engine/simulation.js'
import { resolveTurn, type TurnResult } from '../../src/engine/turn.js'
import { MAX_HP, type Board, type Card, type GameState, type RobotSnapshot, type TurnOrders } from '../../src/engine/types.js'
import { logProblems } from './log-replay.js'

const BOARD_DIR = fileURLToPath(new URL('../../boards/', import.meta.url))
const BOARDS = new Map(readdirSync(BOARD_DIR).filter((name) => name.endsWith('.json')).sort().map((file) => {
  const parsed = parseBoard(JSON.parse(readFileSync(`${BOARD_DIR}${file}`, 'utf8')))
  if (!parsed.ok) throw new Error(`${file}: ${parsed.error}`)
  return [file, compileBoard(parsed.value)] as const
}))
const TURNS = 60

/** Every card of the deck must be in exactly one of the places listed; returns the problems. */
function conservation(places: Record<string, readonly (Card | null)[]>, where: string): string[] {
  const seen = new Map<number, string>()
  const problems: string[] = []
  for (const [place, cards] of Object.entries(places)) {
    for (const card of cards) {
      if (card === null) continue
      const earlier = seen.get(card.priority)
      if (earlier) problems.push(`${where}: ${formatCard(card)} is both in ${earlier} and in ${place}`)
      seen.set(card.priority, place)
    }
  }
  for (const card of FULL_DECK) if (!seen.has(card.priority)) problems.push(`${where}: ${formatCard(card)} is nowhere`)
  return problems
}

const fusedCards = (state: GameState) => state.robots.flatMap((r) => Object.values(r.fused))

/** R7: the deal leaves each card in the deck, one hand, or a fused register, and deals each robot its hand size. */
function dealProblems(dealt: GameState, where: string): string[] {
  const held = new Set([...Object.values(dealt.hands).flat(), ...fusedCards(dealt)].map((c) => c?.priority))
  const places: Record<string, (Card | null)[]> = { deck: FULL_DECK.filter((c) => !held.has(c.priority)), fused: fusedCards(dealt) }
  for (const [player, hand] of Object.entries(dealt.hands)) places[`${player}'s hand`] = hand
  const problems = conservation(places, where)
  for (const robot of dealt.robots) {
    const dealtCards = dealt.hands[robot.player]?.length ?? 0
    if (dealtCards !== handSize(robot)) problems.push(`${where}: ${robot.player} was dealt ${dealtCards} cards, not ${handSize(robot)}`)
  }
  return problems
}

/**
 * R8, R27: after the turn each card is in the deck (never dealt), a register (fused or played) or
 * the discard (the rest of a hand); a register holds its robot's fused card or a card of its own
 * hand; and every register fused after the turn holds the card that was in it.
 */
function playProblems(dealt: GameState, orders: Record<string, TurnOrders>, result: TurnResult, where: string): string[] {
  const held = new Set([...Object.values(dealt.hands).flat(), ...fusedCards(dealt)].map((c) => c?.priority))
  const places: Record<string, (Card | null)[]> = { deck: FULL_DECK.filter((c) => !held.has(c.priority)) }
  const problems: string[] = []
  for (const robot of dealt.robots) {
    const registers = result.registers[robot.player]!
    const hand = dealt.hands[robot.player] ?? []
    const played = new Set(orders[robot.player]!.cards.map((c) => c.priority))
    places[`${robot.player}'s registers`] = registers
    places[`${robot.player}'s discard`] = hand.filter((c) => !played.has(c.priority))
    registers.forEach((card, k) => {
      const fused = robot.fused[k + 1]
      const fromHand = card !== null && hand.some((c) => c.priority === card.priority)
      if (fused !== undefined ? card !== fused : card !== null && !fromHand) {
        problems.push(`${where}: ${robot.player}'s register ${k + 1} holds ${card ? formatCard(card) : 'nothing'}`)
      }
    })
  }
  problems.push(...conservation(places, where))
  for (const robot of result.state.robots) {
    if (robot.mode === 'destroyed' && Object.keys(robot.fused).length > 0) problems.push(`${where}: destroyed ${robot.player} has fused registers`)
    for (const [k, card] of Object.entries(robot.fused)) {
      const was = result.registers[robot.player]![Number(k) - 1] ?? null
      if (robot.mode !== 'destroyed' && card?.priority !== was?.priority && !robot.rebooting) {
        problems.push(`${where}: ${robot.player}'s fused register ${k} holds ${card ? formatCard(card) : 'nothing'}, not the card played in it`)
      }
    }
  }
  return problems
}

/** R24, R27, FORMAT §3: robots on the floor at the end of a stage or turn. */
function floorProblems(robots: readonly RobotSnapshot[], where: string): string[] {
  const problems: string[] = []
  const real = new Map<string, string>()
  for (const robot of robots) {
    if (!Number.isInteger(robot.hp) || robot.hp < 0 || robot.hp > MAX_HP) problems.push(`${where}: ${robot.player} has ${robot.hp} HP`)
    const destroyed = robot.mode === 'destroyed'
    if (destroyed !== (robot.at === null) || destroyed !== (robot.hp === 0)) {
      problems.push(`${where}: ${robot.player} is ${robot.mode} at ${robot.at ? formatSquare(robot.at) : 'null'} with ${robot.hp} HP`)
    }
    if (destroyed && robot.rebooting) problems.push(`${where}: destroyed ${robot.player} is rebooting`)
    if (robot.mode !== 'real' || robot.at === null) continue
    const key = formatSquare(robot.at)
    const other = real.get(key)
    if (other) problems.push(`${where}: ${other} and ${robot.player} are both real on ${key}`)
    real.set(key, robot.player)
  }
  return problems
}

/** R30 flags one at a time and in order, R29 robots left never increase, R34 the end of the game. */
function progressProblems(board: Board, before: GameState, result: TurnResult, where: string): string[] {
  const problems: string[] = []
  const flags = new Map(before.robots.map((r) => [r.player, r.flags]))
  let lastFlagStage = 0
  const finishers = new Set<string>()
  for (const stage of result.stages) {
    for (const event of stage.events) {
      if (event.kind !== 'flag-tagged') continue
      const had = flags.get(event.player)!
      if (event.number !== had + 1) problems.push(`${where}: ${event.player} tagged flag ${event.number} holding ${had}`)
      flags.set(event.player, event.number)
      if (event.number === board.flagCount) {
        lastFlagStage ||= stage.stage
        if (stage.stage === lastFlagStage) finishers.add(event.player)
      }
    }
  }
  for (const robot of result.state.robots) {
    const earlier = before.robots.find((r) => r.player === robot.player)!
    if (robot.flags !== flags.get(robot.player)) problems.push(`${where}: ${robot.player} holds ${robot.flags} flags, tagged ${flags.get(robot.player)}`)
    if (robot.flags < earlier.flags) problems.push(`${where}: ${robot.player} lost a flag`)
    if (robot.robotsLeft > earlier.robotsLeft) problems.push(`${where}: ${robot.player}'s robots left rose to ${robot.robotsLeft}`)
  }
  // R34: the stage of the last flag ends the game; otherwise the end of a turn that took some
  // player's last robot ends it if at most one player still has robots.
  const standing = result.state.robots.filter((r) => r.robotsLeft > 0).map((r) => r.player)
  const lostLast = before.robots.some((r) => r.robotsLeft > 0 && result.state.robots.find((n) => n.player === r.player)!.robotsLeft === 0)
  const expected = lastFlagStage > 0
    ? { gameOver: true, winners: [...finishers].sort(), stages: lastFlagStage }
    : lostLast && standing.length <= 1
      ? { gameOver: true, winners: standing, stages: 5 }
      : { gameOver: false, winners: [], stages: 5 }
  const actual = { gameOver: result.state.gameOver, winners: [...result.state.winners].sort(), stages: result.stages.length }
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    problems.push(`${where}: R34 says ${JSON.stringify(expected)}, the engine ${JSON.stringify(actual)}`)
  }
  return problems
}

/** Plays a whole game as the server does (deal, fill at random, resolve), checking every invariant. */
function playChecked(board: Board, players: number, seed: number): { state: GameState; turns: number; problems: string[] } {
  let state = newGame(board, PLAYER_NAMES.slice(0, players), seed)
  const problems: string[] = []
  let turns = 0
  while (!state.gameOver && turns < TURNS) {
    const where = `seed ${seed}, ${players} robots, turn ${state.turn}`
    const [orders, dealt] = randomOrders(state)
    problems.push(...dealProblems(dealt, `${where} deal`))
    const result = resolveTurn(board, dealt, orders)
    for (const stage of result.stages) problems.push(...floorProblems(stage.robots, `${where} stage ${stage.stage}`))
    problems.push(...floorProblems(result.state.robots, `${where} end`))
    problems.push(...logProblems(result, where, dealt, board, orders))
    problems.push(...playProblems(dealt, orders, result, where))
    problems.push(...progressProblems(board, state, result, where))
    if (problems.length > 0) break
    state = { ...result.state, rng: dealt.rng }
    turns++
  }
  return { state, turns, problems }
}

describe('whole games on every board (fast-check)', () => {
  it.each([...BOARDS.keys()])('%s: every invariant holds at every deal, stage and turn, for 4 and 8 robots', (file) => {
    const board = BOARDS.get(file)!
    const endings = new Set<string>()
    fc.assert(fc.property(fc.constantFrom(4, 8), fc.integer({ min: 0, max: 2 ** 30 }), (players, seed) => {
      // Random programs are deadly, so games often end by elimination (R34) well before 50 turns:
      // a run plays games from its seed, one after another, until it has played 50 turns or more.
      let played = 0
      for (let game = seed; played < 50; game++) {
        const checked = playChecked(board, players, game)
        expect(checked.problems).toEqual([])
        played += checked.turns
        endings.add(!checked.state.gameOver ? 'not over' : checked.state.winners.length ? 'won' : 'nobody won')
        // The same seed gives the same game: simulateGame plays it again from nothing.
        const again = simulateGame(board, players, game, TURNS)
        expect(again.turnsPlayed).toBe(checked.turns)
        expect(again.state).toEqual(checked.state)
      }
    }), { numRuns: 8 })
    // The runs saw games end (R34), not only games cut off at the turn limit.
    expect([...endings].some((ending) => ending !== 'not over')).toBe(true)
  })

  it('the checks catch a card in two places, a card lost, a bad HP and a real robot on a shared square', () => {
    const [a, b] = FULL_DECK
    expect(conservation({ deck: FULL_DECK.slice(1), hand: [a!, b!] }, 'x')).toEqual([`x: ${formatCard(b!)} is both in deck and in hand`])
    expect(conservation({ deck: FULL_DECK.slice(1) }, 'x')).toEqual([`x: ${formatCard(a!)} is nowhere`])
    const robot = (player: string, hp: number, col: number): RobotSnapshot => ({ player, at: { row: 1, col }, facing: 'N', hp, mode: 'real', rebooting: false })
    expect(floorProblems([robot('Ann', 11, 1)], 'x')).toEqual(['x: Ann has 11 HP'])
    expect(floorProblems([robot('Ann', 5, 1), robot('Bob', 5, 1)], 'x')).toEqual(['x: Ann and Bob are both real on r1c1'])
    expect(floorProblems([{ ...robot('Ann', 7, 1), at: null, mode: 'destroyed' }], 'x')).toEqual(['x: Ann is destroyed at null with 7 HP'])
  })
})
