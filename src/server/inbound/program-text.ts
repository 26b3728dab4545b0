// A program as a person writes it in a mail: the cards as the turn mail wrote them (FWD2:700,
// also "fwd2 700" or "FWD2-700"), one per line, optionally numbered ("1.", "2)", "r3:"), plus
// "reboot", "sacrifice at N", "double wrench repair|option", "facing N|E|S|W" lines. Any other
// line is prose and ignored, except one within a typo of a card (see `typoOfCard`).
//
// Only the sender's own lines are read, top- or bottom-posted, in any language (own-lines.ts: not
// ">" quoted, and up to where an unmarked quote or a signature begins).
// Pure: the result is then checked by the same submission service as the web form.
import { FULL_DECK } from '../../engine/deck.js'
import { CARD_KINDS, DIRECTIONS, DOUBLE_WRENCH_CHOICES, type Direction, type DoubleWrenchChoice } from '../../engine/types.js'
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
  | { kind: 'typo'; text: string }

const KINDS = CARD_KINDS.join('|')
const CARD = new RegExp(`^(${KINDS})\\s*[:\\-\\s]\\s*(\\d{1,3})$`, 'i')
/** The cards in words, as the mails and pages write them: "Move 2 (700)" (src/render/cards.ts). */
const LABELS: Record<string, string> = {
  'move 1': 'FWD1', 'move 2': 'FWD2', 'move 3': 'FWD3', 'back up': 'RVS1', 'back 2': 'RVS2', 'back 3': 'RVS3',
  'turn left': 'LF90', 'turn right': 'RT90', 'u-turn': 'UTRN', 'sidestep left': 'SLF1', 'sidestep right': 'SRT1', idle: 'IDLE',
}
const LABELLED = /^(move [123]|back up|back [23]|turn left|turn right|u-turn|sidestep left|sidestep right|idle)\s*\(?\s*(\d{1,3})\s*\)?$/i

/** A word and a number, the shape of a card: a typo only when both are close to the deck (`typoOfCard`). */
const CARD_SHAPED = /^([a-z\d]{3,5})\s*[:\-\s]\s*(\d{1,3})$/i
const PRIORITIES: ReadonlySet<number> = new Set(FULL_DECK.map((card) => card.priority))
const NUMBERING = /^(?:register\s*|reg\.?\s*|r|#)?([1-5])\s*[.):]\s*|^[-*•]\s*/i

export function programFromReply(text: string): ReplyParse {
  const numbered: { register: number | null; card: string; line: number }[] = []
  const program: ReplyProgram = { cards: [], rebootNext: false }
  let pass = false
  for (const { line, index } of ownLines(text)) {
    const read = readLine(line)
    if (!read) continue
    switch (read.kind) {
      case 'card': numbered.push({ register: read.register, card: read.card, line: index }); break
      case 'typo': return { ok: false, problem: `"${read.text.slice(0, 40)}" is not a card name; the cards are written like FWD2:700` }
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
  if (!said) return { ok: false, problem: 'no program found in the mail: write one card per line, as the turn mail lists them (like "1. FWD2:700")' }
  return { ok: true, program }
}

function readLine(trimmed: string): ProgramLine | null {
  const numbering = NUMBERING.exec(trimmed)
  const line = trimmed.slice(numbering?.[0].length ?? 0).replace(/\s+/g, ' ').replace(/[.;,]$/, '').trim()
  const labelled = LABELLED.exec(line)
  const card = CARD.exec(line) ?? (labelled ? [line, LABELS[labelled[1]!.toLowerCase()]!, labelled[2]!] : null)
  if (card) return { kind: 'card', card: `${card[1]!.toUpperCase()}:${Number(card[2])}`, register: numbering?.[1] ? Number(numbering[1]) : null }
  if (typoOfCard(line)) return { kind: 'typo', text: line }
  const lower = line.toLowerCase()
  if (/^reboot( next turn)?$/.test(lower)) return { kind: 'reboot' }
  if (/^(pass|no cards|none)$/.test(lower)) return { kind: 'pass' }
  const sacrifice = /^sacrifice(?: options?)?(?: at)?:? (\d{1,2})$/.exec(lower)
  if (sacrifice) return { kind: 'sacrifice', at: Number(sacrifice[1]) }
  const wrench = /^double wrench:? (\w+)$/.exec(lower)
  if (wrench && (DOUBLE_WRENCH_CHOICES as readonly string[]).includes(wrench[1]!)) return { kind: 'wrench', choice: wrench[1] as DoubleWrenchChoice }
  const facing = /^fac(?:e|ing):? (north|east|south|west|[nesw])$/.exec(lower)?.[1]!.charAt(0).toUpperCase()
  if (facing && (DIRECTIONS as readonly string[]).includes(facing)) return { kind: 'facing', facing: facing as Direction }
  return null
}

/**
 * A card mistyped ("FWD9:700", "FDW2:700"): a word within one edit of a card kind and a priority
 * some card has. Anything further off is prose ("Turn 1", "Room 101", "HP: 10"), not a refusal.
 */
function typoOfCard(line: string): boolean {
  const shaped = CARD_SHAPED.exec(line)
  if (!shaped || !PRIORITIES.has(Number(shaped[2]))) return false
  const word = shaped[1]!.toUpperCase()
  return CARD_KINDS.some((kind) => withinOneEdit(word, kind))
}

/** One insertion, deletion, substitution, or swap of two adjacent letters at most. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  if (a.length > b.length) return a.slice(i + 1) === b.slice(i)
  if (a.length < b.length) return a.slice(i) === b.slice(i + 1)
  if (i === a.length) return true
  const swapped = a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2)
  return swapped || a.slice(i + 1) === b.slice(i + 1)
}
