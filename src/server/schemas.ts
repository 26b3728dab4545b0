// Every shape the JSON API takes in, in one place: the routes parse with these, the forms can
// reuse them, and /api/v1/openapi.json is generated from them.
import { z } from 'zod'
import { BOT_LEVELS } from '../bots/index.js'
import { DIRECTIONS, DOUBLE_WRENCH_CHOICES, MAX_HP } from '../engine/types.js'
import { colourFill } from '../render/robot-looks.js'

/**
 * A name people type, as it is stored and mailed: control characters (CR, LF, tab, NUL, …), line
 * separators and bidirectional overrides become spaces, runs of spaces one, trimmed. Names go
 * into mail subjects and bodies, so no line break may survive.
 */
export function normalName(text: string): string {
  return text.normalize('NFC').replace(/[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]+/gu, ' ').replace(/\s+/g, ' ').trim()
}
/** Free text (a reason): line breaks kept, every other control character dropped. */
export function normalText(text: string): string {
  return text.normalize('NFC').replace(/\r\n?/g, '\n').replace(/[^\P{Cc}\n]|[\u202a-\u202e\u2066-\u2069]/gu, '').trim()
}
export const displayName = (max: number) => z.string().overwrite(normalName).min(1).max(max)

const reason = z.string().overwrite(normalText).max(500).default('').describe('Why; shown in the game history')

export const loginRequest = z.strictObject({ email: z.email().max(254) })
export const consumeLinkRequest = z.strictObject({ token: z.string().min(10).max(200) })
export const updateMeRequest = z.strictObject({ name: displayName(60) })

/** A robot's colour: a word of the palette or of CSS, or #rrggbb; one the pictures can draw (robot-looks.ts colourFill). */
export const colour = z.string().trim().toLowerCase()
  .refine((text) => (/^#[0-9a-f]{6}$/.test(text) || /^[a-z]+$/.test(text)) && colourFill(text) !== undefined, 'a colour name like "red" or "#ff0000"')
  .describe('A colour word (red, blue, green, orange, purple, teal, pink, brown, gold, black, or any CSS colour name) or #rrggbb')

/** Issue 12 and 15: what a robot does once its player withdrew or was removed (services/gone-robot.ts). */
export const goneRobotField = z.enum(['random', 'leave', 'bot'])
  .describe('A robot whose player withdrew or was removed: keeps playing R9 programs ("random", the default), leaves the board ("leave"; the player is out), or is played by a built-in bot ("bot", see goneRobotBot)')
export const goneRobotBotField = z.enum(BOT_LEVELS)
  .describe('With goneRobot "bot": the bot that plays the robot, shown as "Bot (greedy) for Alice"; greedy when left out')

export const createGameRequest = z.strictObject({
  name: displayName(80),
  board: z.string().regex(/^[a-z0-9][a-z0-9-]{0,60}$/).optional().describe('A board of boards/, by file name without .json'),
  boardFile: z.unknown().optional().describe('An uploaded board file (the JSON of FORMAT.md), instead of `board`'),
  seats: z.number().int().min(2).max(8),
  turnLengthHours: z.number().positive().max(24 * 60).default(5 * 24),
  reviewWindowHours: z.number().min(0).max(24 * 30).default(2 * 24).describe('0 publishes each turn as soon as it closes'),
  closeEarly: z.boolean().default(true).describe('Close the turn as soon as every program is in'),
  gmPlays: z.boolean().default(false),
  pathPreview: z.boolean().default(true).describe('Players see where their program would take their robot while they plan (computed in their browser)'),
  reminderHours: z.number().min(1).max(7 * 24).default(12).describe('The reminder goes this long before the deadline (never for a turn shorter than twice this)'),
  replyFromAnyAddress: z.boolean().default(false).describe('Accept a program by reply from any address holding the player\'s reply token, not only the player\'s own'),
  gmName: displayName(60).optional().describe('When the GM plays: the name shown for the GM\'s robot'),
  gmColour: colour.optional().describe('When the GM plays: the GM robot\'s colour'),
  bots: z.array(z.enum(BOT_LEVELS)).max(7).optional().describe('Built-in bots for the first free seats, e.g. ["greedy", "strong"]; shown as "Bot (greedy)"'),
  missedProgramBot: z.enum(BOT_LEVELS).optional().describe('A bot that plays a missed program instead of R9\'s random fill'),
  turnLimit: z.number().int().min(1).max(10_000).optional().describe('The game ends with placings after this turn (issue 12)'),
  stalemateTurns: z.number().int().min(1).max(1000).optional().describe('Mail the GM when no flag was touched for this many turns'),
  tableTalk: z.boolean().optional().describe('Players may message each other privately (default false)'),
  goneRobot: goneRobotField.optional(),
  goneRobotBot: goneRobotBotField.optional(),
})

export const inviteRequest = z.strictObject({
  email: z.email().max(254),
  seat: z.number().int().min(1).max(8).optional().describe('Seat number; the first free seat when left out'),
})
export const joinRequest = z.strictObject({ name: displayName(60), colour })
export const replaceRequest = z.strictObject({ email: z.email().max(254), reason })
export const reasonRequest = z.strictObject({ reason })

export const submissionRequest = z.strictObject({
  cards: z.array(z.string().max(12)).max(5).describe('Cards for the unfused registers in order, e.g. ["FWD2:700", "LF90:110"]'),
  rebootNext: z.boolean().default(false).describe('Declare a reboot for the next turn (R33)'),
  sacrificeAt: z.number().int().min(0).max(MAX_HP).optional().describe('Option sacrifice threshold (R28); kept when left out'),
  doubleWrench: z.enum(DOUBLE_WRENCH_CHOICES).optional().describe('Double wrench choice (R31); kept when left out'),
  facing: z.enum(DIRECTIONS).optional().describe('After a reinstatement: the new robot\'s facing (R29)'),
})

export const lockRequest = z.strictObject({
  confirm: z.literal(true, { error: 'locking makes your program final; send "confirm": true' }).describe('Must be true: a locked program is final for the turn'),
  reason,
})
export const reopenRequest = z.strictObject({ player: z.string().regex(/^P[1-8]$/).describe('The seat\'s player id, P1..P8'), reason })
export const deadlineRequest = z.strictObject({
  deadline: z.iso.datetime({ offset: true }).optional(),
  extendHours: z.number().positive().max(24 * 60).optional(),
  reason,
}).refine((v) => (v.deadline === undefined) !== (v.extendHours === undefined), { message: 'give either deadline or extendHours', path: ['deadline'] })
  // The refinement, for the OpenAPI document: exactly one of the two (z.toJSONSchema copies meta keys).
  .meta({ oneOf: [{ required: ['deadline'] }, { required: ['extendHours'] }], description: 'Exactly one of deadline (the new deadline) or extendHours (hours added to the current one)' })

/** Versions of the program history per page (the submissions route), by default and at most. */
export const HISTORY_PAGE = 25
export const historyPage = z.object({
  from: z.coerce.number().int().min(1).max(100_000).default(1).describe('The first version to list'),
  limit: z.coerce.number().int().min(1).max(100).default(HISTORY_PAGE).describe('How many versions per player'),
})

export const gameIdParams = z.object({ gameId: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/) })
export const turnParams = gameIdParams.extend({ turn: z.coerce.number().int().min(1).max(100_000) })
export const seatParams = gameIdParams.extend({ seat: z.coerce.number().int().min(1).max(8) })
export const tokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{10,200}$/) })
export const publicParams = z.object({ publicToken: z.string().regex(/^[A-Za-z0-9_-]{10,200}$/) })
export const publicTurnParams = publicParams.extend({ turn: z.coerce.number().int().min(1).max(100_000) })

export const errorResponse = z.object({
  error: z.string().describe('A short code, e.g. bad_request, not_found'),
  message: z.string(),
  field: z.string().optional(),
})

// Bots, webhooks, practice games and series (issue 15).
export const botLevel = z.enum(BOT_LEVELS).describe('A built-in bot: random (R9\'s fill), greedy or strong')
export const seatBotRequest = z.strictObject({ bot: botLevel, reason })
export const practiceRequest = z.strictObject({
  board: z.string().regex(/^[a-z0-9][a-z0-9-]{0,60}$/).describe('A board of boards/, by file name without .json'),
  bots: z.array(botLevel).min(1).max(7),
  name: displayName(80).optional(),
})
export const webhookRequest = z.strictObject({ url: z.string().trim().max(2000).describe('http or https URL the server POSTs your view to when your hand is dealt') })
export const seriesRequest = z.strictObject({
  name: displayName(80),
  boards: z.array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,60}$/)).min(1).max(20).describe('Boards of boards/, played in turn'),
  seats: z.array(z.union([botLevel, z.literal('gm')])).min(2).max(8).describe('The entrants: bots, or "gm" for yourself'),
  rounds: z.number().int().min(1).max(50).default(1).describe('Times through the boards; the seat order rotates each game'),
  turnLengthHours: z.number().positive().max(24 * 60).default(24),
})
export const seriesParams = z.object({ seriesId: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/) })
export const SERIES_STOP_WHEN = ['after-game', 'now'] as const
export const seriesStopRequest = z.strictObject({
  when: z.enum(SERIES_STOP_WHEN, { error: 'choose when the series stops: "after-game" or "now"' })
    .describe('"after-game": the game in progress plays out and no other starts (the series holds its place under your limit of running series until that game ends); '
      + '"now": the game in progress is abandoned (its players are mailed, as by POST /games/{gameId}/abandon) and the series stops at once'),
  reason: z.string().overwrite(normalText).min(1, 'give a reason: the players of an abandoned game are mailed it').max(500)
    .describe('Why; shown on the series and, with "now", mailed to the players of the game abandoned'),
})
