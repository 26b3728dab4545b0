// The short messages, in plain text the way a GM would have written it (their HTML part is made
// from the text when sent). The turn mails are in turn-mail.ts.

import { dueText } from './text.js'

export interface Mail { subject: string; body: string }

export function signInMail(link: string): Mail {
  return {
    subject: 'Your BotWars sign-in link',
    body: `Sign in to BotWars with this link (valid for 30 minutes, once):\n\n${link}\n\nIf you did not ask for it, ignore this message.\n`,
  }
}

export function invitationMail(game: string, gmName: string, seat: number, link: string): Mail {
  return {
    subject: `Invitation to the BotWars game "${game}"`,
    body: `${gmName} invites you to play seat ${seat} in the BotWars game "${game}".\n\nJoin with this link, choosing a name and a robot colour:\n\n${link}\n`,
  }
}

/** `link` is the reader's own program form, or null for a reader with no program to send (the GM who does not play, a player who is out). */
export function deadlineMovedMail(game: string, turn: number, deadline: number, reason: string, link: string | null, gameLink: string): Mail {
  const then = link ? `Your program can be sent or changed until then: ${link}` : `The game: ${gameLink}`
  return {
    subject: `BotWars "${game}" turn ${turn}: the deadline moved`,
    body: `The GM moved the deadline of turn ${turn} of "${game}" to ${dueText(deadline)}.\nReason: ${reason || '(no reason given)'}\n\n${then}\n`,
  }
}

export function draftReadyMail(game: string, turn: number, reviewUntil: number, summary: string, link: string): Mail {
  return {
    subject: `BotWars "${game}" turn ${turn}: draft ready for review`,
    body: `Turn ${turn} of "${game}" has closed and been resolved. Review it, reopen a submission if needed, and publish:\n${link}\n\nWithout action it is published on ${dueText(reviewUntil)}.\n\n${summary}`,
  }
}

export function reopenedMail(game: string, turn: number, reason: string, link: string): Mail {
  return {
    subject: `BotWars "${game}" turn ${turn}: your program was reopened`,
    body: `The GM reopened your program for turn ${turn} of "${game}" for a correction.\nReason: ${reason}\n\nSubmit the corrected program here: ${link}\n`,
  }
}

export function gameOverMail(game: string, winners: string[], abandoned: string | null, link: string): Mail {
  const outcome = abandoned !== null
    ? `The GM ended the game early. Reason: ${abandoned}`
    : winners.length ? `Winner${winners.length > 1 ? 's' : ''}: ${winners.join(' and ')}.` : 'Nobody won.'
  return { subject: `BotWars "${game}": game over`, body: `The game "${game}" is over.\n${outcome}\n\n${link}\n` }
}
