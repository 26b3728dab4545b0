// Text alternatives for the report's short forms. The tables keep the compact notation a GM
// would mail ("LF90:350", "r1c5-8", "face N", "@350.2"); screen readers get it spelled out
// ("Turn left, priority 350", "r1 c5 to c8", "face north", "at priority 350, step 2"). Pure text.
import { CARD_KINDS } from '../engine/types.js'
import { cardView } from './cards.js'

const DIRECTION: Record<string, string> = { N: 'north', E: 'east', S: 'south', W: 'west' }

/** "LF90:350" → "Turn left, priority 350"; text that is no card comes back unchanged. */
export function spokenCard(text: string): string {
  const match = /^([A-Z0-9]{4}):(\d+)$/.exec(text)
  return match && isCardKind(match[1]!) ? `${cardView(text).name}, priority ${match[2]}` : text
}

const isCardKind = (kind: string) => (CARD_KINDS as readonly string[]).includes(kind)

const RULES: [RegExp, (...groups: string[]) => string][] = [
  // Cards, wherever they stand in a line ("register 3 fused (FWD1:500)").
  [/\b([A-Z][A-Z0-9]{3}):(\d+)\b/g, (code) => spokenCard(code)],
  // Runs of squares (formatRun): along a row, along a column.
  [/\br(\d+)c(\d+)-(\d+)\b/g, (_, row, from, to) => `r${row} c${from} to c${to}`],
  [/\br(\d+)-(\d+)c(\d+)\b/g, (_, from, to, col) => `r${from} to r${to} c${col}`],
  // Time index of a push: "@350.2".
  [/ @(\d+)(?:\.(\d+))?/g, (_, priority, step) => ` at priority ${priority}${step ? `, step ${step}` : ''}`],
  [/\b(face|facing) ([NESW])\b/g, (_, word, dir) => `${word} ${DIRECTION[dir]}`],
  [/(^|\s)-(\d+) HP\b/g, (_, space, amount) => `${space}minus ${amount} HP`],
  [/\brepaired \+(\d+)/g, (_, amount) => `repaired ${amount} HP`],
  [/^→ real$/, () => 'becomes real'],
  [/^→ (.+?)(?: \((\d+)\))?$/, (_, who, damage) => `hits ${who}${damage ? ` for ${damage} damage` : ''}`],
  [/^-$/, () => 'none'],
]

/** A line of a report table as a screen reader should say it; the same text when nothing needs spelling out. */
export function spokenLine(line: string): string {
  let out = line
  for (const [pattern, replace] of RULES) out = out.replace(pattern, replace as (substring: string, ...args: string[]) => string)
  return out
}
