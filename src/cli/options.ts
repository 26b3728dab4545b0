// The options of `simulate`, `tournament` and `backup`, read one way (Node's util.parseArgs):
// `--name value` or `--name=value`, each at most once. An option the command does not take is
// refused, naming it: ignored, a mistyped `--seeds 7` would play another game than the one asked
// for, with no word said.
import { parseArgs } from 'node:util'
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
  const parsed = tokensOf(args, names, usage)
  const options = new Map<string, string>()
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue
    if (options.has(token.name)) throw new InputError(`--${token.name} is given twice`)
    // `--board --players 2`: the board's name was left out, not a file named "--players" meant.
    if (token.value === undefined || (token.inlineValue === false && token.value.startsWith('--'))) {
      throw new InputError(`--${token.name} needs a value; ${usage}`)
    }
    options.set(token.name, token.value)
  }
  return { options, operands: parsed.positionals }
}

function tokensOf(args: readonly string[], names: readonly string[], usage: string) {
  try {
    return parseArgs({
      args: [...args], strict: true, allowPositionals: true, tokens: true,
      options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
    })
  } catch (err) {
    throw new InputError(refusal(err, usage))
  }
}

/** parseArgs's refusal in the CLI's words: the option named, then the usage. */
function refusal(err: unknown, usage: string): string {
  const code = (err as { code?: string }).code
  const option = /'(-[^' ]*)/.exec(err instanceof Error ? err.message : '')?.[1] ?? 'an option'
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option}; ${usage}`
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${option} needs a value; ${usage}`
  throw err
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
