// Form bodies arrive as strings: these zod schemas turn them into the inputs of the shared
// schemas (src/server/schemas.ts) and name the field of every problem in words for people.
import { z } from 'zod'
import { BOT_LEVELS, type BotLevel } from '../../bots/index.js'
import { DIRECTIONS, DOUBLE_WRENCH_CHOICES, MAX_HP } from '../../engine/types.js'
import { colour, normalName, normalText, SERIES_STOP_WHEN } from '../schemas.js'

export const ROBOT_COLOURS = ['red', 'blue', 'green', 'orange', 'purple', 'teal', 'pink', 'brown', 'gold', 'black'] as const

const text = (max: number, what: string) => z.string({ error: `enter ${what}` }).overwrite(normalName).min(1, `enter ${what}`).max(max, `${what} is too long (at most ${max} characters)`)
const checkbox = z.preprocess((v) => v === 'on' || v === 'true' || v === '1', z.boolean())
const blankIsNone = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v)
const optionalText = z.preprocess(blankIsNone, z.string().trim().optional())
/** A name that may be left blank; otherwise checked as the shared schema will (a name of control characters only is none). */
const optionalName = (max: number, what: string) => z.preprocess(blankIsNone, text(max, what).optional())
const number = (what: string, min: number, max: number, integer = false) => z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : undefined),
  (integer ? z.number({ error: `enter ${what}` }).int(`${what} must be a whole number`) : z.number({ error: `enter ${what}` }))
    .min(min, `${what} must be at least ${min}`).max(max, `${what} must be at most ${max}`),
)

const botChoice = (what: string) => z.enum(BOT_LEVELS, { error: `choose ${what}` })
/** Selects bot1..bot7: a bot for each of the first free seats, or "" for none. */
export const BOT_SEAT_FIELDS = 7
const oneBotSeat = (n: number) => z.preprocess((v) => (v === '' ? undefined : v), botChoice(`a bot for bot seat ${n}`).optional())
const botSeatFields = Object.fromEntries(Array.from({ length: BOT_SEAT_FIELDS }, (_, i) => [`bot${i + 1}`, oneBotSeat(i + 1)])) as
  Record<`bot${1 | 2 | 3 | 4 | 5 | 6 | 7}`, ReturnType<typeof oneBotSeat>>

export const createGameForm = z.object({
  name: text(80, 'a name for the game'),
  boardChoice: z.string().default(''),
  boardFile: optionalText,
  seats: number('the number of seats', 2, 8, true),
  turnLengthHours: number('the turn length in hours', 1, 24 * 60),
  reviewWindowHours: number('the review window in hours', 0, 24 * 30),
  closeEarly: checkbox,
  pathPreview: checkbox,
  reminderHours: number('the reminder time in hours', 1, 7 * 24).optional(),
  replyFromAnyAddress: checkbox,
  gmPlays: checkbox,
  gmName: optionalName(60, 'your robot\'s name'),
  gmColour: z.preprocess(blankIsNone, z.string({ error: 'choose a colour' }).pipe(colour).optional()),
  // Issue 12: endings, table talk, a robot whose player left.
  turnLimit: z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : undefined),
    z.number({ error: 'enter the turn limit as a whole number' }).int('enter the turn limit as a whole number').min(1, 'the turn limit must be at least 1').max(10_000, 'the turn limit must be at most 10000').optional()),
  stalemateTurns: z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : undefined),
    z.number({ error: 'enter the stalemate count as a whole number' }).int('enter the stalemate count as a whole number').min(1, 'the stalemate count must be at least 1').max(1000, 'the stalemate count must be at most 1000').optional()),
  tableTalk: checkbox,
  goneRobot: z.preprocess((v) => (v === undefined || v === '' ? 'random' : v), z.enum(['random', 'leave', 'bot'], { error: 'choose what a robot whose player left does' })),
  goneRobotBot: botChoice('the bot that plays a robot whose player left').default('greedy'),
  // Issue 15: bots in the first free seats (bot1..bot7, "" for none) and a bot for missed programs ("" = R9).
  ...botSeatFields,
  missedProgramBot: z.preprocess((v) => (v === '' ? undefined : v), botChoice('the bot that plays a missed program').optional()),
})

/** The bots a form's bot1..botN selects chose, in order (empty ones left out). */
export function chosenBots(values: object): BotLevel[] {
  return Array.from({ length: BOT_SEAT_FIELDS }, (_, i) => (values as Record<string, BotLevel | undefined>)[`bot${i + 1}`]).filter((b): b is BotLevel => b !== undefined)
}

/** A practice game from the home page: a board of the gallery and the opponents (issue 15). */
export const practiceForm = z.object({
  practiceBoard: z.string({ error: 'choose a board' }).regex(/^[a-z0-9][a-z0-9-]{0,60}$/, 'choose a board'),
  ...botSeatFields,
}).refine((v) => chosenBots(v).length > 0, { message: 'choose at least one bot to play against', path: ['bot1'] })

export const displayNameForm = z.object({ displayName: text(60, 'the name others see') })

export const joinForm = z.object({
  name: text(60, 'your robot\'s name'),
  colour: z.string({ error: 'choose a colour' }).pipe(colour),
})

export const inviteForm = z.object({ email: z.string().trim().pipe(z.email('enter an email address like ann@example.com').max(254)) })

/** Stopping a series from its page: when, why, and the tick that confirms it (services/series.ts stopSeries). */
export const seriesStopForm = z.object({
  when: z.enum(SERIES_STOP_WHEN, { error: 'choose when the series stops' }),
  reason: z.string({ error: 'give the reason once, as text' }).overwrite(normalText).min(1, 'give a reason: the players of an abandoned game are mailed it')
    .max(500, 'the reason is too long (at most 500 characters)'),
  confirm: z.literal('on', { error: 'tick the box to confirm that the series stops for good' }),
})

export const reasonForm = z.object({ reason: z.string({ error: 'give the reason once, as text' }).overwrite(normalText).max(500, 'the reason is too long (at most 500 characters)').default('') })

export const submitForm = z.object({
  r1: optionalText, r2: optionalText, r3: optionalText, r4: optionalText, r5: optionalText,
  rebootNext: checkbox,
  sacrificeAt: z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), z.number().int().min(0).max(MAX_HP).optional()),
  doubleWrench: z.preprocess((v) => (v === '' ? undefined : v), z.enum(DOUBLE_WRENCH_CHOICES).optional()),
  facing: z.preprocess((v) => (v === '' ? undefined : v), z.enum(DIRECTIONS).optional()),
})

/** The form's own values, kept to show them again next to an error. */
export function formValues(body: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (body && typeof body === 'object') {
    for (const [key, value] of Object.entries(body)) if (typeof value === 'string' && key !== '_csrf') out[key] = value
  }
  return out
}
