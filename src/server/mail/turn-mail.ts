// The mails of a turn, each with a text part and an HTML part made from the same facts:
// the turn mail (what happened to you, the board picture, your new hand and state, the deadline,
// the form, the reply address), the results-only mail (no next hand: the GM who does not play, a
// robot out of the game), the natural game-over mail, and the reminder.
import { unfusedRegisters } from '../../engine/deck.js'
import { choosesFacing } from '../../engine/turn.js'
import { DIRECTIONS, type Card, type Direction, type RobotState } from '../../engine/types.js'
import { formatSquare } from '../../engine/geometry.js'
import { DIRECTION_WORDS, plural } from '../../render/board-words.js'
import { cardLabel, cardsInWords } from '../../render/cards.js'
import { standingsText, type StandingLine } from './gm-templates.js'
import { mailHtml } from './html.js'
import { PICTURE_CID } from './picture.js'
import { dueText, heading, TEXT_WIDTH, wrap } from './text.js'

export interface RichMail { subject: string; body: string; html: string }

export interface PreviousTurn {
  number: number
  /** This reader's line of the turn's story (turnStory, src/render/story.ts), or null for a reader with no robot. */
  story: string | null
  reportLink: string
  /** For a reader with no robot in the turn (the GM who does not play, a player already out): each robot's line. */
  everyone: readonly string[]
  /** Whether the board picture is attached; `own` when it rings the reader's robot. */
  picture: boolean
  own: boolean
  /** What the GM corrected in the turn's programs (issue 12), as the published report lists it; `mine` for the reader's own. */
  corrections: readonly TurnCorrection[]
}

export interface TurnCorrection { name: string; mine: boolean; at: string; before: string; after: string; reason: string }

/** How the game ended, when the published turn ended it (services/standings.ts). */
export interface Ending { headline: string; outcome: string; turnsPlayed: number; standings: readonly StandingLine[]; standingsLink: string }

export interface HandPart {
  turn: number; robot: RobotState; hand: readonly Card[]; deadline: number; submitLink: string
  /** The player's reply address for this turn, when programs by reply are on. */
  replyAddress: string | null
  /** Held for the reader's daily digest, whose own Reply-To is not this address. */
  inDigest?: boolean
}

export interface TurnMailInput {
  game: string; name: string; settingsLink: string
  previous: PreviousTurn | null
  hand: HandPart
}

function robotState(r: RobotState): [string, string][] {
  const fused = Object.entries(r.fused).sort(([a], [b]) => Number(a) - Number(b))
  return [
    ['HP', String(r.hp)],
    ['Robots left', String(r.robotsLeft)],
    ['Position', r.at ? `${formatSquare(r.at)} facing ${DIRECTION_WORDS[r.facing]}${r.mode === 'virtual' ? ' (virtual)' : ''}` : 'off the board'],
    ['Flags', String(r.flags)],
    ['Options', r.options.length ? r.options.join(', ') : 'none'],
    ['Fused', fused.length ? fused.map(([k, c]) => `register ${k} = ${c ? cardLabel(c) : '(no card yet)'}`).join(', ') : 'none'],
  ]
}

/** The line under the title that says what to do and by when; '#' stands for the turn. */
const DUE_OPENING = 'Your program for turn # is due'
/** The heading of the hand; '#' stands for the number of cards (text part) or the turn (HTML part). */
const HAND_HEADING = 'Your hand (# cards):'
/** Its form for one card: a stop line that the plural form starts with too, once compared (own-lines.ts). */
const HAND_HEADING_ONE = 'Your hand (# card):'
const HTML_HAND_HEADING = 'Your hand for turn #'
const REPLY_INVITATION = 'Or reply to this mail with your program, one card per line (registers in order), for example:'
const HTML_REPLY_INVITATION = 'Or reply to this mail with your program, one card per line:'
/** In a digest, which has no reply address of its own, the address is written out instead. */
const DIGEST_REPLY_INVITATION = 'Or send your program to the address below, one card per line (registers in order), for example:'
const CORRECTIONS_HEADING = 'Corrections by the GM'
const REMINDER_REPLY_INVITATION = 'Or reply to your turn mail (or to this one) with your program, one card per line.'
const DIGEST_REMINDER_INVITATION = 'Or send your program to the address of your turn, one card per line.'

/**
 * Lines only the server's own turn mails and reminders contain ('#' stands for a number), in the
 * text part and in the HTML part (which the template takes from here, so the two cannot drift). A
 * reply is read only up to the first of them (inbound/own-lines.ts): a turn mail quoted without
 * ">" holds the player's hand and an example program made of their own cards, never theirs to send,
 * and the GM's corrections list programs in card codes.
 */
export const TURN_MAIL_LINES: readonly string[] = [DUE_OPENING, HAND_HEADING, HAND_HEADING_ONE, HTML_HAND_HEADING, REPLY_INVITATION, HTML_REPLY_INVITATION, DIGEST_REPLY_INVITATION, REMINDER_REPLY_INVITATION, DIGEST_REMINDER_INVITATION, CORRECTIONS_HEADING]

/** The direction a quarter turn right of `facing`: an example of another facing to name. */
const otherFacing = (facing: Direction) => DIRECTION_WORDS[DIRECTIONS[(DIRECTIONS.indexOf(facing) + 1) % 4]!]

/**
 * An example reply made from the reader's own first cards, so it can be copied and edited; with
 * no cards dealt (a rebooting robot, R33) the empty program, never cards the reader does not hold.
 */
function replyExample(hand: HandPart): string {
  const registers = unfusedRegisters(hand.robot)
  const cards = hand.hand.length ? registers.map((register, i) => `${register}. ${cardLabel(hand.hand[i])}`) : ['no cards']
  const facing = choosesFacing(hand.robot, hand.turn) ? [`facing ${otherFacing(hand.robot.facing).padEnd(14)}(optional: R29)`] : []
  const sacrifice = hand.hand.length ? ['sacrifice at 3        (optional: R28)'] : []
  return [...cards, ...facing, ...sacrifice, 'reboot                (optional: R33)'].join('\n')
}

/** What the player of a robot reinstated at the end of the last turn may do about its facing (R29), or null. */
function facingChoice(hand: HandPart): string | null {
  if (!choosesFacing(hand.robot, hand.turn)) return null
  const how = hand.replyAddress ? ` on the web, or with a line such as "facing ${otherFacing(hand.robot.facing)}" in your reply` : ' on the web'
  return `Your new robot faces ${DIRECTION_WORDS[hand.robot.facing]} (R29). You may name another facing for it with this turn's program:${how}.`
}

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`

function correctionsText(list: readonly TurnCorrection[]): string[] {
  if (!list.length) return []
  return [`${CORRECTIONS_HEADING}:`, ...list.flatMap((c) => [
    ...wrap(`${c.mine ? 'Your program' : c.name}, corrected ${when(c.at)}:`, TEXT_WIDTH, '  '),
    ...wrap(`before: ${cardsInWords(c.before)}`, TEXT_WIDTH, '    '),
    ...wrap(`now: ${cardsInWords(c.after)}`, TEXT_WIDTH, '    '),
    ...wrap(`why: ${c.reason}`, TEXT_WIDTH, '    '),
  ]), '']
}

/** The picture's caption, for a reader whose robot is ringed in it or not. */
const pictureText = (own: boolean) => `The board at the end of the turn is in the attached picture${own ? ' (your robot ringed in yellow)' : ''}.`

function previousText(p: PreviousTurn): string[] {
  return [
    ...(p.story ? [...wrap(`Turn ${p.number}: ${p.story}`), ''] : []),
    ...(p.everyone.length ? [`What happened in turn ${p.number}:`, ...p.everyone.flatMap((line) => wrap(line, TEXT_WIDTH, '  ')), ''] : []),
    ...correctionsText(p.corrections),
    ...(p.picture ? [...wrap(pictureText(p.own)), ''] : []),
    'The full report:', p.reportLink, '',
  ]
}

const REBOOTING = 'Your robot is rebooting this turn: it is dealt no cards, so its program is "no cards". You may declare another reboot with it.'

function registersText(robot: RobotState): string {
  const registers = unfusedRegisters(robot)
  return registers.length === 1 ? `Program register ${registers[0]} (one card).` : `Program registers ${registers.join(', ')} (one card each, in order).`
}

const replyOwner = (address: string) => `Replies go to ${address}, which is yours alone for this turn.`

function handText(h: HandPart): string[] {
  const lines: string[] = []
  if (h.robot.rebooting) lines.push(...wrap(REBOOTING))
  else if (h.hand.length) {
    lines.push(HAND_HEADING.replace('# cards', plural(h.hand.length, 'card')))
    const cards = h.hand.map(cardLabel)
    for (let i = 0; i < cards.length; i += 3) lines.push(`  ${cards.slice(i, i + 3).map((c) => c.padEnd(22)).join(' ').trimEnd()}`)
    lines.push(registersText(h.robot))
  } else lines.push('You have no cards to play this turn.')
  const facing = facingChoice(h)
  if (facing) lines.push('', ...wrap(facing))
  lines.push('', 'Your robot:', ...robotState(h.robot).flatMap(([k, v]) => wrap(v, 60).map((line, i) => `  ${(i === 0 ? `${k}:` : '').padEnd(14)}${line}`)))
  lines.push('', `Your program is due ${dueText(h.deadline)}.`, '', 'Send it on the web:', h.submitLink)
  if (h.replyAddress) {
    lines.push('', ...wrap(h.inDigest ? DIGEST_REPLY_INVITATION : REPLY_INVITATION), '',
      ...replyExample(h).split('\n').map((l) => `  ${l}`), '', ...wrap(h.inDigest ? `Send it to ${h.replyAddress}, which is yours alone for this turn.` : replyOwner(h.replyAddress)))
  }
  return lines
}

/** The previous turn's part of the HTML template's data (nothing when there is no previous turn). */
function previousHtml(p: PreviousTurn | null) {
  return {
    story: p?.story && `Turn ${p.number}: ${p.story}`, everyone: p?.everyone ?? [], picture: p?.picture ?? false, own: p?.own ?? false, pictureCid: PICTURE_CID,
    previousTurn: p?.number, reportLink: p?.reportLink,
    corrections: (p?.corrections ?? []).map((c) => ({ ...c, at: when(c.at), before: cardsInWords(c.before), after: cardsInWords(c.after) })), correctionsHeading: CORRECTIONS_HEADING,
  }
}

const footer = (settingsLink: string) => ['', '-- ', `BotWars. Mail settings: ${settingsLink}`, '']

export function turnMail(m: TurnMailInput): RichMail {
  const h = m.hand
  const title = `Turn ${h.turn} of "${m.game}" — ${m.name}`
  // A robot dealt no cards (rebooting, R33) has nothing it must send: only another reboot to declare, if its player wants one.
  const dueLine = h.hand.length
    ? `${DUE_OPENING.replace('#', String(h.turn))} ${dueText(h.deadline)}.`
    : `Your robot plays no cards in turn ${h.turn}: nothing is due, but you may declare another reboot until ${dueText(h.deadline)}.`
  const body = [...heading(title), '', ...wrap(dueLine), '', ...(m.previous ? previousText(m.previous) : []), ...handText(h), ...footer(m.settingsLink)].join('\n')
  const subject = h.hand.length
    ? `Turn ${h.turn} of "${m.game}" — your program is due ${dueText(h.deadline)}`
    : `Turn ${h.turn} of "${m.game}" — your robot plays no cards: nothing is due`
  return {
    subject, body,
    html: mailHtml('turn', subject, m.settingsLink, {
      ...previousHtml(m.previous), heading: title, ending: null, dueLine,
      due: dueText(h.deadline), facingChoice: facingChoice(h), rebootingText: REBOOTING, replyOwner: h.replyAddress && replyOwner(h.replyAddress), submitLink: h.submitLink, replyAddress: h.replyAddress, replyExample: replyExample(h),
      handHeading: HTML_HAND_HEADING.replace('#', String(h.turn)), replyInvitation: HTML_REPLY_INVITATION,
      hand: {
        rebooting: h.robot.rebooting, cards: h.hand.map(cardLabel), registers: registersText(h.robot), state: robotState(h.robot),
      },
    }),
  }
}

function endingText(game: string, e: Ending): string[] {
  return [
    ...wrap(`The game "${game}" is over after ${e.turnsPlayed} turn${e.turnsPlayed === 1 ? '' : 's'}.`), ...wrap(e.outcome), '',
    'Final standings:', '', standingsText(e.standings), '', 'The standings page:', e.standingsLink,
  ]
}

/** No next hand for this reader: the turn's results only, or the game's end with its final standings. */
export function resultsOnlyMail(game: string, previous: PreviousTurn, settingsLink: string, ending: Ending | null): RichMail {
  const subject = ending ? `"${game}" is over — ${ending.headline}` : `Turn ${previous.number} of "${game}" — results`
  const title = ending ? `"${game}" is over` : `Turn ${previous.number} of "${game}"`
  const body = [...heading(title), '', ...previousText(previous), ...(ending ? endingText(game, ending) : []), ...footer(settingsLink)].join('\n')
  return {
    subject, body,
    html: mailHtml('turn', subject, settingsLink, {
      ...previousHtml(previous), heading: title, ending, hand: null, dueLine: null,
    }),
  }
}

/** `inDigest`: held for the reader's daily digest, which has no reply address of its own. */
export function reminderMail(game: string, turn: number, deadline: number, submitLink: string, replyAddress: string | null, settingsLink: string, inDigest = false) {
  const subject = `Turn ${turn} of "${game}" — reminder: your program is due ${dueText(deadline)}`
  const body = [
    ...wrap(`Your program for turn ${turn} of "${game}" is not in yet. The turn closes ${dueText(deadline)}.`), '',
    'Send it on the web:', submitLink, '',
    ...(replyAddress ? [...wrap(inDigest ? `${DIGEST_REMINDER_INVITATION} It is ${replyAddress}.` : `${REMINDER_REPLY_INVITATION} Replies go to ${replyAddress}.`), ''] : []),
    ...wrap('Without a program the server fills your registers at random from your hand (R9).'),
    ...footer(settingsLink),
  ].join('\n')
  return { subject, body }
}
