// `botwars simulate --board FILE (--players N | --bots LEVEL,LEVEL,…) --seed S [--turns T]`: plays a
// whole seeded game, one summary line per turn, with random legal programs (R9) or a bot per seat
// (src/bots), and prints the placings. The same seed gives the same game.
import { BOT_LEVELS, isBotLevel, type BotLevel } from '../bots/index.js'
import { playBotGame } from '../bots/match.js'
import type { Placing } from '../engine/placings.js'
import { compileBoard, parseBoard } from '../engine/board.js'
import { simulateGame } from '../engine/simulation.js'
import type { Board } from '../engine/types.js'
import { InputError, readJson } from './io.js'

export function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}

export function intFlag(args: string[], name: string, min: number, max: number, fallback?: number): number {
  const text = flag(args, name)
  if (text === undefined) {
    if (fallback !== undefined) return fallback
    throw new InputError(`--${name} is required`)
  }
  const value = Number(text)
  if (!Number.isInteger(value) || value < min || value > max) throw new InputError(`--${name} must be a whole number from ${min} to ${max}, not "${text}"`)
  return value
}

/** `--bots greedy,random,…`: one level per seat, 1 to 8 seats. */
export function botsFlag(args: string[]): BotLevel[] | undefined {
  const text = flag(args, 'bots')
  if (text === undefined) return undefined
  const levels = text.split(',').map((s) => s.trim())
  if (levels.length < 1 || levels.length > 8) throw new InputError(`--bots names 1 to 8 seats, not ${levels.length}`)
  for (const level of levels) {
    if (!isBotLevel(level)) throw new InputError(`--bots: unknown bot "${level}" (one of ${BOT_LEVELS.join(', ')})`)
  }
  return levels as BotLevel[]
}

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

export function simulateCommand(args: string[]): string {
  const file = flag(args, 'board')
  const usage = 'usage: botwars simulate --board FILE (--players N | --bots LEVEL,LEVEL,…) --seed S [--turns T]'
  if (!file) throw new InputError(usage)
  const bots = botsFlag(args)
  const players = bots ? bots.length : intFlag(args, 'players', 1, 8)
  const seed = intFlag(args, 'seed', -(2 ** 31), 2 ** 31 - 1)
  const turns = intFlag(args, 'turns', 1, 10_000, 200)
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
