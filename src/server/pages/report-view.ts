// The engine's report tables as a person reads them on a page: the viewer's own column first, and
// cards in the one human form ("Move 2 (700)", src/render/cards.ts) instead of the codes the
// engine and the API use ("FWD2:700"). The tables themselves are the engine's (src/engine/report.ts).
import type { ReportTable } from '../../engine/report.js'
import { cardLabel } from '../../render/cards.js'

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
