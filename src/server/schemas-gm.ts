// The JSON API's shapes for the GM's job (issue 12): corrections, rollback, ending, seats, game
// settings and messages. Collected into /api/v1/openapi.json like schemas.ts.
import { z } from 'zod'
import { gameIdParams, goneRobotBotField, goneRobotField, normalText, turnParams } from './schemas.js'

export const expectedTurn = z.string().regex(/^(none|\d{1,6}\.\d{1,9})$/, 'a turn state like "3.2" as the game view gives it (currentTurnVersion)')
  .optional().describe('The turn state this action was decided on (the game view\'s currentTurnVersion); refused with 409 if the turn changed meanwhile')

// Reasons are stored and mailed to the table: control characters go, as in every reason (normalText).
const requiredReason = z.string().overwrite(normalText).min(1, 'give a reason: players see it').max(500).describe('Why; shown in the game history')
const optionalReason = z.string().overwrite(normalText).max(500).default('').describe('Why; shown in the game history')
const player = z.string().regex(/^P[1-8]$/, 'a player id P1..P8').describe('The seat\'s player id, P1..P8')

export const correctionRequest = z.strictObject({
  player,
  cards: z.array(z.string().max(12)).max(5).describe('The corrected cards for the unfused registers in order, e.g. ["FWD2:700"]'),
  rebootNext: z.boolean().default(false).describe('Declare a reboot for the next turn (R33)'),
  reason: requiredReason,
  expectedTurn,
})
export const rollbackRequest = z.strictObject({ reason: requiredReason, expectedTurn })
export const endRequest = z.strictObject({ reason: optionalReason, expectedTurn })

export const openSeatRequest = z.strictObject({ email: z.email().max(254).describe('Who is invited to the new seat'), reason: optionalReason })
export const withdrawRequest = z.strictObject({ reason: optionalReason })

export const settingsRequest = z.strictObject({
  turnLimit: z.number().int().min(1).max(10_000).nullable().optional().describe('The game ends with placings after this turn; null for none'),
  stalemateTurns: z.number().int().min(1).max(1000).nullable().optional().describe('Mail the GM when no flag was touched for this many turns; null for off'),
  tableTalk: z.boolean().optional().describe('Players may message each other privately'),
  goneRobot: goneRobotField.optional(),
  goneRobotBot: goneRobotBotField.optional(),
  pathPreview: z.boolean().optional().describe('Players see where their program would take their robot while they plan (issue 13); changeable at any time'),
  reason: optionalReason,
})
  // For the OpenAPI document: a changed turn limit needs a reason (services/seats.ts changeSettings).
  .meta({ anyOf: [{ not: { required: ['turnLimit'] } }, { required: ['reason'] }], description: 'Send only what changes; a turnLimit needs a reason' })

/** Plain text: no control characters but line breaks and tabs; Windows line ends made plain. */
const plainText = (max: number) => z.string().transform((s) => s.replace(/\r\n?/g, '\n').replace(/[^\P{Cc}\n\t]/gu, '').trim())
  .pipe(z.string().min(1, 'write a message').max(max, `a message has at most ${max} characters`))

export const MESSAGE_MAX = 2000
export const messageRequest = z.strictObject({
  body: plainText(MESSAGE_MAX).describe('Plain text, at most 2000 characters'),
  to: z.union([z.literal('all'), z.literal('gm'), player]).default('all')
    .describe('"all" (the public thread), "gm" (privately to the GM), or a player id (privately; player to player only if the game allows table talk)'),
})
export const hideMessageRequest = z.strictObject({ reason: requiredReason })
export const messageParams = gameIdParams.extend({ messageId: z.coerce.number().int().min(1).max(2 ** 31) })
export const withdrawnParams = turnParams.extend({ version: z.coerce.number().int().min(1).max(1000) })
