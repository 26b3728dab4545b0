// `botwars resolve CASE.json [--report [--names A,B,…]]` (FORMAT.md section 3).
import { caseOutput, parseRulesCase } from '../engine/rules-case.js'
import { renderTurnReport } from '../engine/report.js'
import { resolveTurn } from '../engine/turn.js'
import { InputError, projectPath, readJson } from './io.js'

const USAGE = 'usage: botwars resolve CASE.json [--report [--names NAME,NAME,…]]   (use - for standard input)'

export interface ResolveArgs {
  file: string
  report: boolean
  /** Display names for the report, one per robot of the case in seat order. */
  names: string[] | null
}

/** Reads the command line; refuses what it does not know, naming it. */
export function parseResolveArgs(args: readonly string[]): ResolveArgs {
  const files: string[] = []
  let report = false
  let names: string[] | null = null
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--report') report = true
    else if (arg === '--names' || arg.startsWith('--names=')) {
      const text = arg === '--names' ? args[++i] : arg.slice('--names='.length)
      if (text === undefined) throw new InputError('--names: give the names, comma-separated, e.g. --names Ann,Bob')
      names = text.split(',').map((name) => name.trim())
      const blank = names.findIndex((name) => name === '')
      if (blank >= 0) throw new InputError(`--names: name ${blank + 1} is empty`)
      if (new Set(names).size !== names.length) throw new InputError('--names: a name is given twice')
    } else if (arg.startsWith('--')) throw new InputError(`unknown option ${arg}; ${USAGE}`)
    else files.push(arg)
  }
  if (files.length !== 1) throw new InputError(USAGE)
  if (names && !report) throw new InputError('--names: only the report (--report) shows names; the JSON output keeps the case\'s players')
  return { file: files[0]!, report, names }
}

export function resolveCommand(args: string[]): string {
  const { file, report, names } = parseResolveArgs(args)
  const parsed = parseRulesCase(readJson(file), (path) => readJson(projectPath(path)))
  if (!parsed.ok) throw new InputError(parsed.error)
  const { board, state, orders } = parsed.value
  const result = resolveTurn(board, state, orders)
  if (!report) return JSON.stringify(caseOutput(result), null, 2)
  const players = state.robots.map((robot) => robot.player)
  if (names && names.length !== players.length) {
    throw new InputError(`--names: the case has ${players.length} robots (${players.join(', ')}), so give ${players.length} names, not ${names.length}`)
  }
  return renderTurnReport(board, result, names ? { names: Object.fromEntries(players.map((p, seat) => [p, names[seat]!])) } : {})
}
