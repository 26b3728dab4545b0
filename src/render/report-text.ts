// The engine's report tables as people read them, on pages and in mail: the reader's own column
// first, and cards in the one human form ("Move 2 (700)", cards.ts) instead of the codes the
// engine and the API use ("FWD2:700"). The tables themselves are the engine's (src/engine/report.ts);
// the mail's text report starts with the turn as a story (story.ts).
import { renderTextTable, turnTables, type ReportOptions, type ReportTable } from '../engine/report.js'
import type { TurnResult } from '../engine/turn.js'
import type { Board } from '../engine/types.js'
import { cardLabel } from './cards.js'
import { turnStory } from './story.js'

const CARD_CODE = /\b(FWD[123]|RVS[123]|LF90|RT90|UTRN|SLF1|SRT1|IDLE):(\d{1,3})\b/g

/** "FWD2:700, LF90:110" → "Move 2 (700), Turn left (110)" */
export function humanCards(text: string): string {
  return text.replace(CARD_CODE, (code) => cardLabel(code))
}

/** The table with the viewer's column first (when the viewer plays) and cards in words. */
export function tableFor(table: ReportTable, me: string | null | undefined): ReportTable {
  const order = table.players.map((_, i) => i)
  const mine = me ? table.players.indexOf(me) : -1
  if (mine > 0) order.splice(order.indexOf(mine), 1), order.unshift(mine)
  return {
    title: table.title,
    players: order.map((i) => table.players[i]!),
    rows: table.rows.map((row) => ({ label: row.label, cells: order.map((i) => (row.cells[i] ?? []).map(humanCards)) })),
  }
}

/** The whole turn as plain text for mail: what happened to each robot, then every table, cards in words. */
export function turnReportText(board: Board, result: TurnResult, options: ReportOptions = {}): string {
  const names = options.names ?? {}
  const parts = [`Turn ${result.turn} on ${board.name}`, '', 'What happened:']
  for (const line of turnStory(result, names)) parts.push(`  ${line.name}: ${line.text}`)
  parts.push('')
  for (const table of turnTables(board, result, options)) parts.push(renderTextTable(tableFor(table, null)), '')
  if (result.state.gameOver) {
    const winners = result.state.winners.map((p) => names[p] ?? p)
    parts.push(winners.length ? `GAME OVER: ${winners.join(' and ')} won.` : 'GAME OVER: nobody won.')
  }
  return parts.join('\n').trimEnd() + '\n'
}
