// A program as a person writes it in a mail: the cards as the turn mail wrote them (FWD2:700,
// also "fwd2 700" or "FWD2-700", or in words: "Move 2 (700)"), one per line, optionally numbered
// ("1.", "2)", "r3:"), plus "reboot", "sacrifice at N", "double wrench repair|option", "facing
// N|E|S|W" lines. Any other line is prose and ignored, except one within a typo of a card, code or
// words, which is pointed out (card-typos.ts).
//
// Only the sender's own lines are read, top- or bottom-posted, in any language (own-lines.ts: not
// ">" quoted, and up to where an unmarked quote or a signature begins).
// Pure: the result is then checked by the same submission service as the web form.
import { CARD_KINDS, DIRECTIONS, DOUBLE_WRENCH_CHOICES, type Direction, type DoubleWrenchChoice } from '../../engine/types.js'
import { CARD_KIND_NAMES } from '../../render/cards.js'
import { typoOfCardName, typoOfCode } from './card-typos.js'
import { ownLines } from './own-lines.js'

export interface ReplyProgram {
  cards: string[]
  rebootNext: boolean
  sacrificeAt?: number
  doubleWrench?: DoubleWrenchChoice
  facing?: Direction
}

export type ReplyParse = { ok: true; program: ReplyProgram } | { ok: false; problem: string }

/** One line as read: a card, another program line, a near-card to point out, or prose (null). */
type ProgramLine =
  | { kind: 'card'; card: string; register: number | null }
  | { kind: 'reboot' } | { kind: 'pass' }
  | { kind: 'sacrifice'; at: number }
  | { kind: 'wrench'; choice: DoubleWrenchChoice }
  | { kind: 'facing'; facing: Direction }
  | { kind: 'typo'; problem: string }

const KINDS = CARD_KINDS.join('|')
const CARD = new RegExp(`^(${KINDS})\\s*[:\\-\\s]\\s*(\\d{1,3})$`, 'i')
/** The cards in words, as the mails and pages write them: "Move 2 (700)" (src/render/cards.ts). */
const KIND_BY_NAME = new Map(CARD_KIND_NAMES.map(([kind, name]) => [name.toLowerCase(), kind]))
const LABELLED = new RegExp(`^(${[...KIND_BY_NAME.keys()].join('|')})\\s*\\(?\\s*(\\d{1,3})\\s*\\)?$`, 'i')
/** "1.", "2)", "r3:", "#4 -", or a number and a space ("1 FWD2:700", as people write lists too); or a bullet. */
const NUMBERING = /^(?:register\s*|reg\.?\s*|r|#)?([1-5])(?:\s*[.):\-]\s*|\s+)|^[-*•]\s*/i
/** Card codes anywhere in a line, as the turn mail writes them; and a line that starts with one. */
const CODES_IN_LINE = new RegExp(`(?:^|[^a-z\\d])(?:${KINDS})\\s*[:\\-]\\s*\\d{1,3}(?!\\d)`, 'gi')
const STARTS_WITH_CODE = new RegExp(`^(?:${KINDS})\\s*[:\\-]\\s*\\d{1,3}(?!\\d)`, 'i')

export function programFromReply(text: string): ReplyParse {
  const numbered: { register: number | null; card: string; line: number }[] = []
  const program: ReplyProgram = { cards: [], rebootNext: false }
  let pass = false
  const own = ownLines(text)
  for (const { line, index } of own.lines) {
    const read = readLine(line)
    if (!read) continue
    switch (read.kind) {
      case 'card': numbered.push({ register: read.register, card: read.card, line: index }); break
      case 'typo': return { ok: false, problem: read.problem }
      case 'reboot': program.rebootNext = true; break
      case 'pass': pass = true; break
      case 'sacrifice': program.sacrificeAt = read.at; break
      case 'wrench': program.doubleWrench = read.choice; break
      case 'facing': program.facing = read.facing; break
    }
  }
  if (numbered.length > 5) return { ok: false, problem: `found ${numbered.length} cards; a program has at most 5, one per register` }
  // Numbered by register: put them in register order, whatever order the lines came in.
  if (numbered.every((n) => n.register !== null)) numbered.sort((a, b) => a.register! - b.register! || a.line - b.line)
  program.cards = numbered.map((n) => n.card)
  const said = program.cards.length > 0 || pass || program.rebootNext || program.sacrificeAt !== undefined || program.doubleWrench !== undefined || program.facing !== undefined
  if (!said) {
    // Reading stopped early: say where, for a program written below a line taken for the start of a quote is never read.
    const where = own.endedAt === null ? 'in the mail' : `above "${own.endedAt.slice(0, 60)}", where a quoted mail or a signature seems to begin`
    return { ok: false, problem: `no program found ${where}: write one card per line above any quote, as the turn mail lists them (like "1. Move 2 (700)")` }
  }
  return { ok: true, program }
}

function readLine(written: string): ProgramLine | null {
  // Full-width forms ("１．FWD2：700", from a CJK keyboard) read as the ASCII ones.
  const trimmed = written.normalize('NFKC')
  const numbering = NUMBERING.exec(trimmed)
  const line = trimmed.slice(numbering?.[0].length ?? 0).replace(/\s+/g, ' ').replace(/[.;,]$/, '').trim()
  const labelled = LABELLED.exec(line)
  const card = CARD.exec(line) ?? (labelled ? [line, KIND_BY_NAME.get(labelled[1]!.toLowerCase())!, labelled[2]!] : null)
  if (card) return { kind: 'card', card: `${card[1]!.toUpperCase()}:${Number(card[2])}`, register: numbering?.[1] ? Number(numbering[1]) : null }
  const codeTypo = typoOfCode(line)
  if (codeTypo) return { kind: 'typo', problem: codeTypo }
  // A line that starts with a card, or holds two, but is not one card alone ("FWD2:700 FWD1:500",
  // "FWD2:700 then turn"): which card was meant, or whether any was, cannot be told. Prose that
  // merely mentions a card ("I played FWD2:700 last turn") stays prose.
  if (STARTS_WITH_CODE.test(line) || (line.match(CODES_IN_LINE) ?? []).length > 1) {
    return { kind: 'typo', problem: `the line "${line.slice(0, 60)}" is not one card; write one card per line, like "1. FWD2:700"` }
  }
  const lower = line.toLowerCase()
  if (/^reboot( next turn)?$/.test(lower)) return { kind: 'reboot' }
  if (/^(pass|no cards|none)$/.test(lower)) return { kind: 'pass' }
  const sacrifice = /^sacrifice(?: options?)?(?: at)?:? (\d{1,2})$/.exec(lower)
  if (sacrifice) return { kind: 'sacrifice', at: Number(sacrifice[1]) }
  const wrench = /^double wrench:? (\w+)$/.exec(lower)
  if (wrench && (DOUBLE_WRENCH_CHOICES as readonly string[]).includes(wrench[1]!)) return { kind: 'wrench', choice: wrench[1] as DoubleWrenchChoice }
  const facing = /^fac(?:e|ing):? (north|east|south|west|[nesw])$/.exec(lower)?.[1]!.charAt(0).toUpperCase()
  if (facing && (DIRECTIONS as readonly string[]).includes(facing)) return { kind: 'facing', facing: facing as Direction }
  // Last: "reboot", "pass" and the like are never taken for a mistyped card.
  const nameTypo = typoOfCardName(line)
  return nameTypo ? { kind: 'typo', problem: nameTypo } : null
}
