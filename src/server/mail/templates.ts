// The text of every message the server sends. Plain text, the way a GM would have written it.
import { unfusedRegisters } from '../../engine/deck.js'
import { cardLabel } from '../../render/cards.js'
import { formatSquare } from '../../engine/geometry.js'
import type { Card, RobotState } from '../../engine/types.js'

export interface Mail { subject: string; body: string }

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace(/:\d\d\.\d+Z$/, ' UTC')

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

export interface HandMailInput {
  game: string; turn: number; name: string; robot: RobotState; hand: readonly Card[]; deadline: number; submitLink: string
}

export function handMail(m: HandMailInput): Mail {
  const r = m.robot
  const fused = Object.entries(m.robot.fused).sort(([a], [b]) => Number(a) - Number(b))
  const lines = [
    `Turn ${m.turn} of "${m.game}" — ${m.name}`,
    '',
    `HP:            ${r.hp}`,
    `Robots left:   ${r.robotsLeft}`,
    `Position:      ${r.at ? `${formatSquare(r.at)} facing ${r.facing}` : 'off the board'}${r.mode === 'virtual' ? ' (virtual)' : ''}`,
    `Flags:         ${r.flags}`,
    `Options:       ${r.options.length ? r.options.join(', ') : 'none'}`,
    `Fused:         ${fused.length ? fused.map(([k, c]) => `register ${k} = ${c ? cardLabel(c) : '(no card yet)'}`).join(', ') : 'none'}`,
    '',
  ]
  if (r.rebooting) lines.push('Your robot is rebooting this turn: it is dealt no cards. You may declare another reboot.')
  else if (m.hand.length) {
    lines.push(`Your hand (${m.hand.length} cards):`, ...m.hand.map((c) => `  ${cardLabel(c)}`), '',
      `Program registers ${unfusedRegisters(r).join(', ')} (one card each, in order).`)
  } else lines.push('You have no cards to play this turn.')
  lines.push('', `Deadline: ${when(m.deadline)}`, '', `Submit your program: ${m.submitLink}`, '')
  return { subject: `BotWars "${m.game}" turn ${m.turn}: your hand`, body: lines.join('\n') }
}

export function reminderMail(game: string, turn: number, deadline: number, submitLink: string): Mail {
  return {
    subject: `BotWars "${game}" turn ${turn}: 24 hours left`,
    body: `Your program for turn ${turn} of "${game}" is not in yet. The turn closes at ${when(deadline)}.\n\nSubmit it here: ${submitLink}\n\nWithout a program the server fills your registers at random from your hand (R9).\n`,
  }
}

export function deadlineMovedMail(game: string, turn: number, deadline: number, reason: string, link: string): Mail {
  return {
    subject: `BotWars "${game}" turn ${turn}: the deadline moved`,
    body: `The GM moved the deadline of turn ${turn} of "${game}" to ${when(deadline)}.\nReason: ${reason || '(no reason given)'}\n\nYour program can be sent or changed until then: ${link}\n`,
  }
}

export function draftReadyMail(game: string, turn: number, reviewUntil: number, report: string, link: string): Mail {
  return {
    subject: `BotWars "${game}" turn ${turn}: draft ready for review`,
    body: `Turn ${turn} of "${game}" has closed and been resolved. Review it, reopen a submission if needed, and publish:\n${link}\n\nWithout action it is published at ${when(reviewUntil)}.\n\n${report}`,
  }
}

export function reopenedMail(game: string, turn: number, reason: string, link: string): Mail {
  return {
    subject: `BotWars "${game}" turn ${turn}: your program was reopened`,
    body: `The GM reopened your program for turn ${turn} of "${game}" for a correction.\nReason: ${reason}\n\nSubmit the corrected program here: ${link}\n`,
  }
}

export function resultsMail(game: string, turn: number, report: string, link: string): Mail {
  return { subject: `BotWars "${game}" turn ${turn}: results`, body: `${report}\nSee the turn: ${link}\n` }
}

export function gameOverMail(game: string, winners: string[], abandoned: string | null, link: string): Mail {
  const outcome = abandoned !== null
    ? `The GM ended the game early. Reason: ${abandoned}`
    : winners.length ? `Winner${winners.length > 1 ? 's' : ''}: ${winners.join(' and ')}.` : 'Nobody won.'
  return { subject: `BotWars "${game}": game over`, body: `The game "${game}" is over.\n${outcome}\n\n${link}\n` }
}
