// The one human form of a card, used by every page, mail and story: "Move 2 (700)". The API and
// the engine keep their codes ("FWD2:700"); people read this.
import type { Card } from '../engine/types.js'

const CARD_NAMES: Record<string, [name: string, glyph: string]> = {
  FWD1: ['Move 1', '↑'], FWD2: ['Move 2', '⇈'], FWD3: ['Move 3', '⤊'],
  RVS1: ['Back up', '↓'], RVS2: ['Back 2', '⇊'], RVS3: ['Back 3', '⤋'],
  LF90: ['Turn left', '↶'], RT90: ['Turn right', '↷'], UTRN: ['U-turn', '⟲'],
  SLF1: ['Sidestep left', '⇠'], SRT1: ['Sidestep right', '⇢'], IDLE: ['Idle', '∙'],
}

/** Each kind with its name ("FWD2", "Move 2"): what a player writes when writing a card by hand, too. */
export const CARD_KIND_NAMES: readonly (readonly [kind: string, name: string])[] = Object.entries(CARD_NAMES).map(([kind, [name]]) => [kind, name])

export interface CardView {
  /** The code the forms and the API carry: "FWD2:700". */
  text: string
  kind: string
  priority: number
  /** "Move 2" */
  name: string
  glyph: string
  /** "Move 2 (700)": the form people read everywhere. */
  label: string
}

export function cardView(card: string | Card): CardView {
  const text = typeof card === 'string' ? card : `${card.kind}:${card.priority}`
  const [kind = '', priority = '0'] = text.split(':')
  const [name, glyph] = CARD_NAMES[kind] ?? [kind, '?']
  return { text, kind, priority: Number(priority), name, glyph, label: `${name} (${Number(priority)})` }
}

/** "Move 2 (700)" for a card or its code; "no card" for an empty register. */
export function cardLabel(card: string | Card | null | undefined): string {
  return card ? cardView(card).label : 'no card'
}

/** A run of card codes separated by spaces ("FWD2:700 LF90:110"), as the API and the GM's corrections write a program. */
const CODE_RUN = /\b[A-Z]+\d*:\d+(?: [A-Z]+\d*:\d+)*\b/g

/** A text with each program in it written as people read it: "Move 2 (700), Turn left (110)". */
export function cardsInWords(text: string): string {
  return text.replace(CODE_RUN, (run) => run.split(' ').map(cardLabel).join(', '))
}
