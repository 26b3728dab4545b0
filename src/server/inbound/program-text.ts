// A program as a person writes it in a mail: the cards as the turn mail wrote them (FWD2:700,
// also "fwd2 700" or "FWD2-700"), one per line, optionally numbered ("1.", "2)", "r3:"), plus
// "reboot", "sacrifice at N", "double wrench repair|option", "facing N|E|S|W" lines. Quoted
// text (lines starting with ">"), what follows a signature line ("-- ") or a quoted header
// ("On … wrote:", "-----Original Message-----", "From: …") and any other prose are ignored.
// Pure: the result is then checked by the same submission service as the web form.
import { CARD_KINDS, DIRECTIONS, DOUBLE_WRENCH_CHOICES, type Direction, type DoubleWrenchChoice } from '../../engine/types.js'

export interface ReplyProgram {
  cards: string[]
  rebootNext: boolean
  sacrificeAt?: number
  doubleWrench?: DoubleWrenchChoice
  facing?: Direction
}

export type ReplyParse = { ok: true; program: ReplyProgram } | { ok: false; problem: string }

/** Where the quoted part of a reply begins (everything after is the mail being answered). */
const QUOTE_STARTS = [
  /^-- ?$/, /^on\b.*\bwrote:?$/i, /^-{2,}\s*(original message|forwarded message)/i, /^_{10,}$/, /^(from|von|de):\s/i, /^sent from my /i,
]

const KINDS = CARD_KINDS.join('|')
const CARD = new RegExp(`^(${KINDS})\\s*[:\\-\\s]\\s*(\\d{1,3})$`, 'i')
/** The cards in words, as the mails and pages write them: "Move 2 (700)" (src/render/cards.ts). */
const LABELS: Record<string, string> = {
  'move 1': 'FWD1', 'move 2': 'FWD2', 'move 3': 'FWD3', 'back up': 'RVS1', 'back 2': 'RVS2', 'back 3': 'RVS3',
  'turn left': 'LF90', 'turn right': 'RT90', 'u-turn': 'UTRN', 'sidestep left': 'SLF1', 'sidestep right': 'SRT1', idle: 'IDLE',
}
const LABELLED = /^(move [123]|back up|back [23]|turn left|turn right|u-turn|sidestep left|sidestep right|idle)\s*\(?\s*(\d{1,3})\s*\)?$/i

/** Looks like a card but names no kind of the deck: a typo to point out, not prose to skip. */
const CARD_LIKE = /^[a-z]{2,4}\d{0,2}\s*[:\-\s]\s*\d{1,3}$/i
const NUMBERING = /^(?:register\s*|reg\.?\s*|r|#)?([1-5])\s*[.):]\s*|^[-*•]\s*/i
const MAX_LINES = 2000

export function programFromReply(text: string): ReplyParse {
  const lines = text.replace(/\r\n?/g, '\n').split('\n').slice(0, MAX_LINES)
  const numbered: { register: number | null; card: string; line: number }[] = []
  const program: ReplyProgram = { cards: [], rebootNext: false }
  let pass = false
  for (const [index, raw] of lines.entries()) {
    const trimmed = raw.replace(/[\u00a0\u200b]/g, ' ').trim()
    if (trimmed.startsWith('>')) continue
    if (QUOTE_STARTS.some((p) => p.test(trimmed))) break
    const numbering = NUMBERING.exec(trimmed)
    const line = trimmed.slice(numbering?.[0].length ?? 0).replace(/\s+/g, ' ').replace(/[.;,]$/, '').trim()
    const labelled = LABELLED.exec(line)
    const card = CARD.exec(line) ?? (labelled ? [line, LABELS[labelled[1]!.toLowerCase()]!, labelled[2]!] : null)
    if (card) {
      numbered.push({ register: numbering?.[1] ? Number(numbering[1]) : null, card: `${card[1]!.toUpperCase()}:${Number(card[2])}`, line: index })
      continue
    }
    if (CARD_LIKE.test(line)) return { ok: false, problem: `"${line.slice(0, 40)}" is not a card name; the cards are written like FWD2:700` }
    const lower = line.toLowerCase()
    if (/^reboot( next turn)?$/.test(lower)) program.rebootNext = true
    else if (/^(pass|no cards|none)$/.test(lower)) pass = true
    else {
      const sacrifice = /^sacrifice(?: options?)?(?: at)? (\d{1,2})$/.exec(lower)
      const wrench = /^double wrench:? (\w+)$/.exec(lower)
      const facing = /^fac(?:e|ing):? (north|east|south|west|[nesw])$/.exec(lower)
      if (sacrifice) program.sacrificeAt = Number(sacrifice[1])
      else if (wrench && (DOUBLE_WRENCH_CHOICES as readonly string[]).includes(wrench[1]!)) program.doubleWrench = wrench[1] as DoubleWrenchChoice
      else if (facing) program.facing = facing[1]!.charAt(0).toUpperCase() as Direction
    }
  }
  if (numbered.length > 5) return { ok: false, problem: `found ${numbered.length} cards; a program has at most 5, one per register` }
  // Numbered by register: put them in register order, whatever order the lines came in.
  if (numbered.every((n) => n.register !== null)) numbered.sort((a, b) => a.register! - b.register! || a.line - b.line)
  program.cards = numbered.map((n) => n.card)
  const said = program.cards.length > 0 || pass || program.rebootNext || program.sacrificeAt !== undefined || program.doubleWrench !== undefined || program.facing !== undefined
  if (!said) return { ok: false, problem: 'no program found in the mail: write one card per line, as the turn mail lists them (like "1. FWD2:700")' }
  if (program.facing !== undefined && !(DIRECTIONS as readonly string[]).includes(program.facing)) delete program.facing
  return { ok: true, program }
}
