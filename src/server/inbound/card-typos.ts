// Lines within a typo of a card, pointed out to the player instead of read as prose
// (program-text.ts): a mistyped card silently dropped would leave a program the player never
// wrote. Anything further off stays prose, because replies carry greetings and plans: "Turn 1",
// "Back soon" or "Thanks, see you next turn" must never refuse a good program.
import { FULL_DECK } from '../../engine/deck.js'
import { CARD_KINDS } from '../../engine/types.js'
import { CARD_KIND_NAMES } from '../../render/cards.js'

const PRIORITIES: ReadonlySet<number> = new Set(FULL_DECK.map((card) => card.priority))
/** A word and a number, the shape of a card code: a typo only when both are close to the deck. */
const CODE_SHAPED = /^([a-z\d]{3,5})\s*[:\-\s]\s*(\d{1,3})$/i
/** Words, then a number alone or in brackets: "Mvoe 2 (700)", "Turn rigth 80". */
const NAME_AND_NUMBER = /^(.*?\S)\s*(?:\(\s*(\d{1,3})\s*\)|\s(\d{1,3}))$/
const NAMES = CARD_KIND_NAMES.map(([, name]) => name)

/**
 * A card code mistyped ("FWD9:700", "FDW2:700"): a word within one edit of a card kind and a
 * priority some card has. "Turn 1", "Room 101", "HP: 10" are further off: prose.
 */
export function typoOfCode(line: string): string | null {
  const shaped = CODE_SHAPED.exec(line)
  if (!shaped || !PRIORITIES.has(Number(shaped[2]))) return null
  const word = shaped[1]!.toUpperCase()
  if (!CARD_KINDS.some((kind) => editDistance(word, kind) <= 1)) return null
  return `"${line.slice(0, 40)}" is not a card name; the cards are written like FWD2:700`
}

/**
 * A card in words mistyped ("Mvoe 2 (700)", "Turn rigth") or without its number ("Move 2"), the
 * whole line (numbering taken off) within one edit of a card's name: two for a long name followed
 * by a number some card has ("Trun rigth (80)"), as that number says a card was meant; none for
 * "Idle" without a number, whose neighbours ("Ide", "Isle") are names and words. Returns the
 * problem, naming the words not understood and the card probably meant.
 */
export function typoOfCardName(line: string): string | null {
  const split = NAME_AND_NUMBER.exec(line)
  // "Mvoe 2" is a name with no number, or "Mvoe" with the number 2: both readings are tried.
  const readings = [{ words: line, priority: null as number | null }]
  if (split) readings.push({ words: split[1]!, priority: Number(split[2] ?? split[3]) })
  let best: { words: string; priority: number | null; name: string; distance: number } | undefined
  for (const reading of readings) {
    for (const name of NAMES) {
      const distance = editDistance(reading.words.toLowerCase(), name.toLowerCase())
      const allowed = reading.priority === null ? (name.length >= 6 ? 1 : 0) : PRIORITIES.has(reading.priority) && name.length >= 8 ? 2 : 1
      if (distance <= allowed && (!best || distance < best.distance)) best = { ...reading, name, distance }
    }
  }
  if (!best) return null
  if (best.distance === 0) return `"${best.name}" has no card number; write each card with its number, as your hand lists it`
  const known = best.name.toLowerCase().split(' ')
  const unknown = best.words.split(' ').filter((word) => !known.includes(word.toLowerCase())).join(' ') || best.words
  const meant = best.priority === null ? best.name : `${best.name} (${best.priority})`
  return `"${unknown.slice(0, 40)}" is not a card name; did you mean "${meant}"?${best.priority === null ? ' Write it with its number, as your hand lists it' : ''}`
}

/** Edits between two strings: insertions, deletions, substitutions, and swaps of two adjacent letters. */
export function editDistance(a: string, b: string): number {
  // Optimal string alignment (Damerau–Levenshtein without edits inside a swap), row by row.
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j]!, before[j - 2]! + 1)
    }
    before = previous
    previous = current
  }
  return previous[b.length]!
}
