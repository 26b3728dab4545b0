// The answers to a program by reply, to the player's own address only: a confirmation that
// restates the program as stored, or a refusal naming the problem (the previous program stands).
// Neither quotes the incoming mail, so nothing another person wrote is ever sent on.
import { cardLabel } from '../../render/cards.js'
import { wrap } from '../mail/text.js'

/** How each answer opens ('#' stands for the turn). */
const CONFIRMATION_OPENING = 'Your program for turn # of'
const REFUSAL_OPENING = 'Your mail for turn # of'

/**
 * Lines only these answers contain: a reply is read only up to the first of them (inbound/own-lines.ts).
 * A player revising their program replies to the confirmation, and a mail program that quotes it
 * without ">" or a header block hands back the stored program, one card per line: read, it would
 * be added to the new one (ten cards) or stored again under a lone "reboot". The refusal repeats
 * what the player wrote wrong, and its example card.
 */
export const ANSWER_MAIL_LINES: readonly string[] = [CONFIRMATION_OPENING, REFUSAL_OPENING]
const opening = (text: string, turn: number) => text.replace('#', String(turn))

export interface StoredProgram { version: number; cards: string[]; rebootNext: boolean; sacrificeAt: number; doubleWrench: string; facing: string | null }

const footer = ['', '-- ', 'BotWars (an automatic answer to your mail)', '']

export function confirmationMail(game: string, turn: number, p: StoredProgram, submitLink: string) {
  const body = [
    ...wrap(`${opening(CONFIRMATION_OPENING, turn)} "${game}" is in (version ${p.version}). This is what was stored:`), '',
    ...(p.cards.length ? p.cards.map((c, i) => `  ${i + 1}. ${cardLabel(c)}`) : ['  (no cards)']),
    ...(p.rebootNext ? ['  reboot next turn'] : []),
    `  sacrifice options at ${p.sacrificeAt} HP`,
    `  double wrench: ${p.doubleWrench}`,
    ...(p.facing ? [`  facing ${p.facing}`] : []),
    '', ...wrap('Until the deadline you can change it by replying again or on the web:'), submitLink, ...footer,
  ].join('\n')
  return { subject: `Turn ${turn} of "${game}" — your program is in (version ${p.version})`, body }
}

export function refusalMail(game: string, turn: number, problem: string, submitLink: string) {
  const body = [
    ...wrap(`${opening(REFUSAL_OPENING, turn)} "${game}" was not stored: ${problem}`), '',
    ...wrap('Your previous program, if you sent one, stands. Write one card per line, as the turn mail lists them (for example "1. Move 2 (700)"), and reply again, or use the web form:'),
    submitLink, ...footer,
  ].join('\n')
  return { subject: `Turn ${turn} of "${game}" — your mail was not stored`, body }
}
