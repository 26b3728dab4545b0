// `botwars board check FILE` and `botwars board show FILE`.
import { compileBoard, parseBoard } from '../engine/board.js'
import { ASCII_LEGEND, boardToAscii } from '../engine/ascii.js'
import { InputError, readJson } from './io.js'

export function boardCommand(args: string[]): string {
  const [action, file] = args
  if ((action !== 'check' && action !== 'show') || !file || args.length !== 2) {
    throw new InputError('usage: botwars board check FILE | botwars board show FILE')
  }
  const parsed = parseBoard(readJson(file))
  if (!parsed.ok) throw new InputError(`${file}: ${parsed.error}`)
  const board = compileBoard(parsed.value)
  if (action === 'check') {
    const counts = new Map<string, number>()
    for (const e of board.elements) counts.set(e.type, (counts.get(e.type) ?? 0) + 1)
    const summary = [...counts].map(([type, n]) => `${n} ${type}`).join(', ')
    return `${file}: ok — "${board.name}", ${board.rows}x${board.cols}, ${board.flagCount} flags${summary ? `; ${summary}` : ''}`
  }
  return `${board.name} (${board.rows}x${board.cols}, start ${`r${board.start.at.row}c${board.start.at.col}`} facing ${board.start.facing})\n${boardToAscii(board)}\n\n${ASCII_LEGEND}`
}
