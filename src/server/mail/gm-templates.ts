// The text of the mail the GM's job sends (issue 12): corrections, rollbacks, seats, standings,
// stalemate and message digests. Plain text; every name in them is a person's own text, never a
// secret another player's mail could leak (a correction goes to its player only).
import { cardsInWords } from '../../render/cards.js'
import type { Mail } from './templates.js'

export interface StandingLine { place: number; name: string; flags: number; robotsLeft: number; hp: number; out: boolean; winner: boolean }

export function standingsText(lines: readonly StandingLine[]): string {
  const width = Math.max(6, ...lines.map((l) => l.name.length))
  const head = `Place  ${'Player'.padEnd(width)}  Flags  Robots  HP`
  return [head, ...lines.map((l) =>
    `${String(l.place).padStart(5)}  ${l.name.padEnd(width)}  ${String(l.flags).padStart(5)}  ${String(l.robotsLeft).padStart(6)}  ${String(l.hp).padStart(2)}${l.winner ? '  winner' : l.out ? '  out' : ''}`)].join('\n')
}

export function finalStandingsMail(game: string, outcome: string, turnsPlayed: number, lines: readonly StandingLine[], link: string): Mail {
  return {
    subject: `BotWars "${game}": game over`,
    body: `The game "${game}" is over after ${turnsPlayed} turn${turnsPlayed === 1 ? '' : 's'}.\n${outcome}\n\nFinal standings:\n\n${standingsText(lines)}\n\nThe standings page: ${link}\n`,
  }
}

export function stalemateMail(game: string, turns: number, lines: readonly StandingLine[], link: string): Mail {
  return {
    subject: `BotWars "${game}": no flag touched ${turns === 1 ? 'in the last turn' : `for ${turns} turns`}`,
    body: `Nobody has touched a flag in the last ${turns === 1 ? 'turn' : `${turns} turns`} of "${game}". If the race has stalled, you can end the game with placings from the GM console:\n${link}\n\nPlacings if it ended now:\n\n${standingsText(lines)}\n`,
  }
}

/** How the correction mail opens ('#' stands for the turn). */
const CORRECTION_OPENING = 'The GM corrected your program for turn # of'
/**
 * Lines only the GM's mails contain, where a reply is read no further (inbound/own-lines.ts): the
 * correction mail lists the program before and after in card codes, and a digest holding it may be
 * answered by reply, quoting it.
 */
export const GM_MAIL_LINES: readonly string[] = [CORRECTION_OPENING]

export function correctionMail(game: string, turn: number, before: string, after: string, reason: string, link: string): Mail {
  return {
    subject: `BotWars "${game}" turn ${turn}: the GM corrected your program`,
    body: `${CORRECTION_OPENING.replace('#', String(turn))} "${game}" while reviewing the draft.\n\nBefore: ${cardsInWords(before)}\nNow:    ${cardsInWords(after)}\nReason: ${reason}\n\nThe turn is resolved again with it; the published report lists the correction.\n${link}\n`,
  }
}

export function rollbackMail(game: string, turn: number, reason: string, link: string): Mail {
  return {
    subject: `BotWars "${game}": turn ${turn} is rolled back`,
    body: `The GM rolled back turn ${turn} of "${game}": the game stands as it did before it, and the turn is under review again. Programs may be corrected before it is published anew; the withdrawn report stays readable in the game's history. The hand of turn ${turn + 1}, if you were mailed one, is void, with any program sent for it: new hands are dealt when turn ${turn} is published again.\nReason: ${reason}\n\n${link}\n`,
  }
}

export function seatLeftMail(game: string, who: string, how: string, robot: string, link: string): Mail {
  return { subject: `BotWars "${game}": ${who} left the game`, body: `${who} ${how}.\n${robot}\n\n${link}\n` }
}

/**
 * The same news to the player who left, or was removed: told to them, not about them, and sent
 * to their own games (the game's pages are no longer theirs to open).
 */
export function ownSeatLeftMail(game: string, removed: boolean, reason: string, robot: string, homeLink: string): Mail {
  const why = reason ? `: ${reason}` : ''
  return {
    subject: removed ? `BotWars "${game}": the GM removed you from the game` : `BotWars "${game}": you left the game`,
    body: `${removed ? `The GM removed you from the game "${game}"${why}.` : `You withdrew from the game "${game}"${why}.`}\n${robot}\n\nYour games: ${homeLink}\n`,
  }
}

export interface DigestMessage { game: string; from: string; private: boolean; at: number; body: string }

export function messagesMail(messages: readonly DigestMessage[], link: (game: string) => string, games: Record<string, string>): Mail {
  const byGame = new Map<string, DigestMessage[]>()
  for (const m of messages) byGame.set(m.game, [...(byGame.get(m.game) ?? []), m])
  const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC'
  const parts = [...byGame].map(([gameId, list]) => [
    `"${games[gameId] ?? gameId}":`,
    ...list.map((m) => `\n${when(m.at)} ${m.from}${m.private ? ' (to you only)' : ' (to everyone)'}:\n${m.body.split('\n').map((l) => `  ${l}`).join('\n')}`),
    '', `Read and answer: ${link(gameId)}`, '',
  ].join('\n'))
  const count = messages.length
  return {
    subject: byGame.size === 1 ? `BotWars "${games[[...byGame.keys()][0]!]}": ${count} new message${count === 1 ? '' : 's'}` : `BotWars: ${count} new messages in ${byGame.size} games`,
    body: parts.join('\n'),
  }
}
