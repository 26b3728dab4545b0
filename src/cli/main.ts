// Entry point of the `botwars` command line: dispatches to one module per command.
import { backupCommand } from './backup.js'
import { boardCommand } from './board.js'
import { InputError } from './io.js'
import { resolveCommand } from './resolve.js'
import { simulateCommand } from './simulate.js'
import { tournamentCommand } from './tournament.js'

const USAGE = `usage:
  botwars resolve CASE.json [--report]      resolve one rules case (- reads standard input)
          [--names A,B,…]                   with --report: the robots' display names, in seat order
  botwars simulate --board FILE (--players N | --bots LEVEL,…) --seed S [--turns T]
                                            one seeded game: random programs (R9) or bots
                                            (random, greedy, strong) per seat, then placings
  botwars tournament --bots LEVEL,LEVEL,… [--games N] [--seed S] [--turns T] [--boards FILE,…]
                                            many seeded bot games over the shipped boards: standings
  botwars board check FILE                  validate a board file
  botwars board show FILE                   print a board as an ASCII map
  botwars backup FILE [--database PATH]     copy a live database safely (SQLite online backup)`

const COMMANDS: Record<string, (args: string[]) => string | Promise<string>> = {
  resolve: resolveCommand,
  simulate: simulateCommand,
  tournament: tournamentCommand,
  board: boardCommand,
  backup: backupCommand,
}

const HELP_OPTIONS = new Set(['--help', '-h'])

/** One command's lines of USAGE, with the lines indented under them. */
function usageOf(command: string): string {
  let mine = false
  const lines = USAGE.split('\n').slice(1).filter((line) => {
    if (line.startsWith('  botwars ')) mine = line.startsWith(`  botwars ${command} `)
    return mine
  })
  return `usage:\n${lines.join('\n')}`
}

/**
 * Writes the command's output; rejects with the error if it cannot be written (a full disk, a
 * closed pipe). Unlistened, a stream's 'error' event would end the process with a stack trace.
 */
function writeOutput(text: string): Promise<void> {
  process.stdout.on('error', () => { /* the write's callback below has it */ })
  return new Promise((done, fail) => process.stdout.write(text, (error) => (error ? fail(error) : done())))
}

/**
 * Runs a command; returns the exit status: 0 done, 2 bad input (one line on stderr), 1 anything
 * else that stopped it (our own failure, or output that could not be written).
 */
export async function main(argv: string[]): Promise<number> {
  // Progress lines go to stderr; if it is gone there is no one to tell, and no reason to stop.
  process.stderr.on('error', () => {})
  const [name, ...args] = argv
  if (name === 'help' || (name && HELP_OPTIONS.has(name))) return deliver('botwars', USAGE)
  const command = name ? COMMANDS[name] : undefined
  if (!name || !command) {
    process.stderr.write(`${name ? `unknown command "${name}"\n` : ''}${USAGE}\n`)
    return 2
  }
  // Before the command reads its arguments: `backup --help` would otherwise back up to a file "--help".
  if (args.some((arg) => HELP_OPTIONS.has(arg))) return deliver(`botwars ${name}`, usageOf(name))
  let output: string
  try {
    output = await command(args)
  } catch (error) {
    if (error instanceof InputError) {
      process.stderr.write(`botwars ${name}: ${oneLine(error.message)}\n`)
      return 2
    }
    // An internal failure: still no stack trace for the user, but say it is ours.
    process.stderr.write(`botwars ${name}: internal error: ${oneLine((error as Error).message ?? String(error))}\n`)
    return 1
  }
  return output ? deliver(`botwars ${name}`, output) : 0
}

/** `\uXXXX` for a character: what stands in for a control character in anything printed. */
const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`

/**
 * Control characters other than tab and newline, escaped: names come from the files read, and one
 * holding an escape sequence would recolour, clear or retitle the user's terminal. JSON output
 * reads back the same (JSON.stringify leaves C1 controls such as U+009B raw; inside a JSON string
 * their escape means the same character).
 */
const escapeControls = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, escaped)

/** Writes a command's output; returns the exit status, 1 if it could not be written. */
async function deliver(who: string, output: string): Promise<number> {
  try {
    await writeOutput(escapeControls(output.endsWith('\n') ? output : `${output}\n`))
    return 0
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // A reader that stopped reading (`botwars board show … | head`) wants no more, not an error message.
    if (code !== 'EPIPE') process.stderr.write(`${who}: cannot write standard output: ${code ?? oneLine(String(error))}\n`)
    return 1
  }
}

/** Past this many characters a message is cut: it may quote a field of any size. */
const MAX_MESSAGE = 2000

/**
 * A message on one line, as FORMAT.md asks, for any reader: a board file's JSON error may quote
 * several lines of the file, and a message that quotes the input may carry a carriage return, a
 * Unicode line separator or another control character (written as an escape here), or megabytes.
 */
function oneLine(message: string): string {
  const flat = message.replace(/\s*\n\s*/g, ' ').trim()
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, escaped)
  return flat.length <= MAX_MESSAGE ? flat : `${flat.slice(0, MAX_MESSAGE)}… (${flat.length - MAX_MESSAGE} more characters)`
}
