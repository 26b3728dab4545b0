// `botwars simulate --board FILE (--players N | --bots LEVEL,LEVEL,…) --seed S [--turns T]`: plays a
// whole seeded game, one summary line per turn, with random legal programs (R9) or a bot per seat
// (src/bots), and prints the placings. The same seed gives the same game.
import type { BotLevel } from '../bots/index.js'
import { playBotGame } from '../bots/match.js'
import type { Placing } from '../engine/placings.js'
import { compileBoard, parseBoard } from '../engine/board.js'
import { simulateGame } from '../engine/simulation.js'
import type { Board } from '../engine/types.js'
import { InputError, readJson } from './io.js'
import { botsOption, intOption, MAX_SEED, MIN_SEED, parseCommandLine } from './options.js'

export function readBoard(file: string): Board {
  const parsed = parseBoard(readJson(file))
  if (!parsed.ok) throw new InputError(`${file}: ${parsed.error}`)
  return compileBoard(parsed.value)
}

function placingLine(row: Placing, bots: readonly BotLevel[] | undefined, players: string[]): string {
  const bot = bots ? ` (${bots[players.indexOf(row.player)]})` : ''
  const distance = row.distance === null ? '-' : String(row.distance)
  return `  ${row.place}. ${row.player}${bot}: ${row.winner ? 'won, ' : ''}${row.out ? `out after turn ${row.outAfterTurn}, ` : ''}${row.flags} flags, ${distance} to the next, ${row.hp} HP, ${row.robotsLeft} robots left`
}

const USAGE = 'usage: botwars simulate --board FILE (--players N | --bots LEVEL,LEVEL,…) --seed S [--turns T]'

export function simulateCommand(args: string[]): string {
  const { options, operands } = parseCommandLine(args, ['board', 'players', 'bots', 'seed', 'turns'], USAGE)
  const file = options.get('board')
  if (!file || operands.length > 0) throw new InputError(USAGE)
  const bots = botsOption(options)
  // Each sets the number of seats; with both, one of them would be silently ignored.
  if (bots && options.has('players')) throw new InputError(`--players and --bots both set the seats: give one; ${USAGE}`)
  const players = bots ? bots.length : intOption(options, 'players', 1, 8)
  const seed = intOption(options, 'seed', MIN_SEED, MAX_SEED)
  const turns = intOption(options, 'turns', 1, 10_000, 200)
  const board = readBoard(file)
  const lines: string[] = []
  const game = bots
    ? playBotGame(board, bots, seed, turns, (line) => lines.push(line))
    : { ...simulateGame(board, players, seed, turns, (line) => lines.push(line)), placings: null }
  lines.push(game.state.gameOver
    ? `game over after turn ${game.turnsPlayed}: ${game.state.winners.length ? `${game.state.winners.join(', ')} won` : 'nobody won'}`
    : `stopped after ${game.turnsPlayed} turns with no winner`)
  if (game.placings) {
    const names = game.state.robots.map((r) => r.player)
    lines.push('placings:', ...game.placings.map((row) => placingLine(row, bots, names)))
  }
  return lines.join('\n')
}
