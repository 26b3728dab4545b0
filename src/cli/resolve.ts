// `botwars resolve CASE.json [--report]` (FORMAT.md section 3).
import { readFileSync } from 'node:fs'
import { caseOutput, parseRulesCase } from '../engine/rules-case.js'
import { renderTurnReport } from '../engine/report.js'
import { resolveTurn } from '../engine/turn.js'
import { InputError, projectPath, readJson } from './io.js'

export function resolveCommand(args: string[]): string {
  const report = args.includes('--report')
  const files = args.filter((a) => a !== '--report')
  if (files.length !== 1) throw new InputError('usage: botwars resolve CASE.json [--report]   (use - for standard input)')
  const parsed = parseRulesCase(readJson(files[0]!), (path) => JSON.parse(readFileSync(projectPath(path), 'utf8')))
  if (!parsed.ok) throw new InputError(parsed.error)
  const { board, state, orders } = parsed.value
  const result = resolveTurn(board, state, orders)
  return report ? renderTurnReport(board, result) : JSON.stringify(caseOutput(result), null, 2)
}
