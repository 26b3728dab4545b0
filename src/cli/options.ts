// The options of `simulate`, `tournament` and `backup`, read one way: `--name value` or
// `--name=value`, each at most once. An option the command does not take is refused, naming it:
// ignored, a mistyped `--seeds 7` would play another game than the one asked for, with no word said.
import { BOT_LEVELS, isBotLevel, type BotLevel } from '../bots/index.js'
import { InputError } from './io.js'

export interface CommandLine {
  /** The value of each option given, by name without the dashes. */
  options: ReadonlyMap<string, string>
  /** The arguments that are no option, in order. */
  operands: string[]
}

/** Reads `args` against the option names the command takes (each takes a value). */
export function parseCommandLine(args: readonly string[], names: readonly string[], usage: string): CommandLine {
  const options = new Map<string, string>()
  const operands: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (!arg.startsWith('--')) {
      operands.push(arg)
      continue
    }
    const equals = arg.indexOf('=')
    const name = arg.slice(2, equals < 0 ? undefined : equals)
    if (!names.includes(name)) throw new InputError(`unknown option --${name}; ${usage}`)
    if (options.has(name)) throw new InputError(`--${name} is given twice`)
    const value = equals < 0 ? args[++i] : arg.slice(equals + 1)
    // `--board --players 2`: the board's name was left out, not a file named "--players" meant.
    if (value === undefined || (equals < 0 && value.startsWith('--'))) throw new InputError(`--${name} needs a value; ${usage}`)
    options.set(name, value)
  }
  return { options, operands }
}

/** Seeds are 32-bit signed integers (src/engine/random.ts). */
export const MIN_SEED = -(2 ** 31)
export const MAX_SEED = 2 ** 31 - 1

/** A whole number option, written in decimal digits: Number() would also take "", " ", "0x10" and "1e3". */
export function intOption(options: CommandLine['options'], name: string, min: number, max: number, fallback?: number): number {
  const text = options.get(name)
  if (text === undefined) {
    if (fallback !== undefined) return fallback
    throw new InputError(`--${name} is required`)
  }
  const value = /^[+-]?\d+$/.test(text) ? Number(text) : NaN
  if (!Number.isInteger(value) || value < min || value > max) throw new InputError(`--${name} must be a whole number from ${min} to ${max}, not "${text}"`)
  return value
}

/** `--bots greedy,random,…`: one level per seat, 1 to 8 seats. */
export function botsOption(options: CommandLine['options']): BotLevel[] | undefined {
  const text = options.get('bots')
  if (text === undefined) return undefined
  const levels = text.split(',').map((s) => s.trim())
  if (levels.length < 1 || levels.length > 8) throw new InputError(`--bots names 1 to 8 seats, not ${levels.length}`)
  for (const level of levels) {
    if (!isBotLevel(level)) throw new InputError(`--bots: unknown bot "${level}" (one of ${BOT_LEVELS.join(', ')})`)
  }
  return levels as BotLevel[]
}
