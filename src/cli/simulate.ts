// `botwars simulate --board FILE --players N --seed S [--turns T]`: plays a whole seeded game with
// random legal programs, one summary line per turn. The same seed gives the same game.
import { compileBoard, parseBoard } from '../engine/board.js'
import { simulateGame } from '../engine/simulation.js'
import { InputError, readJson } from './io.js'

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}

function intFlag(args: string[], name: string, min: number, max: number, fallback?: number): number {
  const text = flag(args, name)
  if (text === undefined) {
    if (fallback !== undefined) return fallback
    throw new InputError(`--${name} is required`)
  }
  const value = Number(text)
  if (!Number.isInteger(value) || value < min || value > max) throw new InputError(`--${name} must be a whole number from ${min} to ${max}, not "${text}"`)
  return value
}

export function simulateCommand(args: string[]): string {
  const file = flag(args, 'board')
  if (!file) throw new InputError('usage: botwars simulate --board FILE --players N --seed S [--turns T]')
  const players = intFlag(args, 'players', 1, 8)
  const seed = intFlag(args, 'seed', -(2 ** 31), 2 ** 31 - 1)
  const turns = intFlag(args, 'turns', 1, 10_000, 200)
  const parsed = parseBoard(readJson(file))
  if (!parsed.ok) throw new InputError(`${file}: ${parsed.error}`)
  const lines: string[] = []
  const game = simulateGame(compileBoard(parsed.value), players, seed, turns, (line) => lines.push(line))
  lines.push(game.state.gameOver
    ? `game over after turn ${game.turnsPlayed}: ${game.state.winners.length ? `${game.state.winners.join(', ')} won` : 'nobody won'}`
    : `stopped after ${game.turnsPlayed} turns with no winner`)
  return lines.join('\n')
}
