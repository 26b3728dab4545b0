// The GM's job on the web pages (issue 12): the console's corrections, rollback, ending with
// placings, game settings, opening a seat and removing a player; and for everyone at the table the
// message threads, withdrawing, the standings and a withdrawn report. Same services as the API.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { BOT_LEVELS } from '../../bots/index.js'
import { formatCard } from '../../engine/deck.js'
import { badRequest } from '../errors.js'
import { memberOf } from '../routes/api/games.js'
import { messageRequest } from '../schemas-gm.js'
import type { Membership, ServiceContext } from '../services/context.js'
import { openSeatForBot, seatBotByGm } from '../services/bots.js'
import { correctProgram } from '../services/corrections.js'
import { dealtState } from '../services/deal.js'
import { removePlayer } from '../services/games.js'
import { gmSeesTurn } from '../services/lock.js'
import { gmPlays } from '../services/membership.js'
import { hideMessage, messagesFor, messagesMark, messageTargets, postMessage } from '../services/messages.js'
import { rollBack, withdrawnReport } from '../services/rollback.js'
import { goneRobotText } from '../services/gone-robot.js'
import { changeSettings, openSeat, settingsView, withdraw } from '../services/seats.js'
import { endWithPlacings, isStalemate, standingsView } from '../services/standings.js'
import { turnVersion } from '../services/turn-version.js'
import { formValues } from './forms.js'
import { appFieldErrors, sentence, zodFieldErrors, type FieldErrors, type PageKit } from './kit.js'

export const GM_JOB_ACTIONS = ['correct', 'rollback', 'end', 'settings', 'open-seat', 'remove', 'seat-bot'] as const
export type GmJobAction = (typeof GM_JOB_ACTIONS)[number]

/** The ?done= key each action redirects with. */
export const GM_JOB_DONE_OF: Record<GmJobAction, string> = {
  correct: 'corrected', rollback: 'rolled-back', end: 'ended', settings: 'settings', 'open-seat': 'seat-opened', remove: 'removed', 'seat-bot': 'bot-seated',
}

/** Fixed confirmations for those keys (pages/games.ts DONE). */
export const GM_JOB_DONE: Record<string, string> = {
  corrected: 'The program is corrected, the draft resolved again, and the player mailed what changed.',
  'rolled-back': 'The turn is rolled back and under review again; everyone has been mailed. Correct programs if needed, then publish.',
  ended: 'The game is over: the placings are final and everyone has the standings by mail.',
  settings: 'The game settings are saved.',
  'seat-opened': 'The new seat is open and the newcomer invited: their robot enters at the next turn.',
  removed: 'The player is removed from the game.',
  'bot-seated': 'The bot has its seat: it plays from the next hand dealt to its robot (at once, if its robot has a program due now).',
  withdrawn: 'You have left the game.',
  messaged: 'Your message is posted.',
  hidden: 'The message is hidden.',
}

const checkbox = z.preprocess((v) => v === 'on', z.boolean())
const optionalCount = (what: string, max: number) => z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : null),
  z.number({ error: `enter ${what} as a whole number` }).int(`enter ${what} as a whole number`).min(1, `${what} must be at least 1`).max(max, `${what} must be at most ${max}`).nullable())

const correctForm = z.object({
  player: z.string({ error: 'choose the player' }).regex(/^P[1-8]$/, 'choose the player'),
  cards: z.string().default('').transform((s) => s.split(/[\s,;]+/).filter(Boolean)),
  rebootNext: checkbox,
})
const settingsForm = z.object({
  turnLimit: optionalCount('the turn limit', 10_000),
  stalemateTurns: optionalCount('the stalemate count', 1000),
  tableTalk: checkbox,
  goneRobot: z.enum(['random', 'leave', 'bot'], { error: 'choose what a robot whose player left does' }),
  goneRobotBot: z.enum(BOT_LEVELS, { error: 'choose the bot that takes over' }).optional(),
})
const confirmed = (values: Record<string, string>, what: string) => {
  if (values.confirm !== 'on') throw badRequest(`tick the box to confirm ${what}`, 'confirm')
}

function firstError(error: z.ZodError): never {
  const [field, message] = Object.entries(zodFieldErrors(error))[0]!
  throw badRequest(message, field)
}

/** Runs one of the console's issue-12 actions; throws an AppError naming the field when refused. */
export function runGmJobAction(ctx: ServiceContext, m: Membership, action: GmJobAction, body: unknown, reason: string): void {
  const values = formValues(body)
  const expectedTurn = values.expectedTurn || undefined
  const current = ctx.turns.current(m.game.id)
  switch (action) {
    case 'correct': {
      const form = correctForm.safeParse(body ?? {})
      if (!form.success) firstError(form.error)
      if (!reason) throw badRequest('give a reason: the player and the report see it', 'reason')
      correctProgram(ctx, m, current?.number ?? 0, { ...form.data, reason, expectedTurn })
      return
    }
    case 'rollback': {
      confirmed(values, 'the rollback')
      if (!reason) throw badRequest('give a reason: everyone is mailed it', 'reason')
      rollBack(ctx, m, ctx.gm.lastPublished(m.game.id)?.number ?? 0, reason, expectedTurn)
      return
    }
    case 'end': {
      confirmed(values, 'that the game ends now with placings')
      endWithPlacings(ctx, m, reason, expectedTurn)
      return
    }
    case 'settings': {
      const form = settingsForm.safeParse(body ?? {})
      if (!form.success) firstError(form.error)
      changeSettings(ctx, m, { ...form.data, reason })
      return
    }
    case 'open-seat': {
      const email = z.string().trim().pipe(z.email('enter the newcomer\'s email address').max(254)).safeParse(values.email ?? '')
      if (!email.success) throw badRequest('enter the newcomer\'s email address', 'email')
      openSeat(ctx, m, email.data, reason)
      return
    }
    case 'seat-bot': {
      const level = z.enum(BOT_LEVELS).safeParse(values.bot)
      if (!level.success) throw badRequest('choose the bot', 'bot')
      if (values.seat === 'new') openSeatForBot(ctx, m, level.data, reason)
      else {
        const seat = Number(values.seat)
        if (!Number.isInteger(seat) || seat < 1 || seat > 8) throw badRequest('choose a seat for the bot', 'seat')
        seatBotByGm(ctx, m, seat, level.data, reason)
      }
      return
    }
    case 'remove': {
      const seat = Number(values.seat)
      if (!Number.isInteger(seat) || seat < 1 || seat > 8) throw badRequest('choose a seat', 'seat')
      confirmed(values, 'the removal')
      removePlayer(ctx, m, seat, reason)
      return
    }
  }
}

/** What the console's issue-12 sections need. */
export function gmJobModel(ctx: ServiceContext, m: Membership, viewerId: number) {
  const game = ctx.games.byId(m.game.id)!
  const current = ctx.turns.current(game.id)
  const live = game.status === 'running' || game.status === 'paused'
  const draft = current?.status === 'draft' && live && gmSeesTurn(m, current) ? current : null
  const dealt = draft ? dealtState(draft) : null
  const latest = draft ? new Map(ctx.turns.latestSubmissions(draft.id).map((s) => [s.player_id, JSON.parse(s.cards_json) as string[]])) : new Map()
  const last = ctx.gm.lastPublished(game.id)
  return {
    expectedTurn: turnVersion(current),
    correctable: dealt ? m.seats.flatMap((s) => {
      const robot = dealt.robots.find((r) => r.player === s.player_id)
      if (!robot || (gmPlays(m) && s.player_id === m.seat?.player_id)) return []
      return [{ player: s.player_id, name: s.name ?? s.player_id, hand: (dealt.hands[s.player_id] ?? []).map(formatCard), program: latest.get(s.player_id) ?? null }]
    }) : [],
    rollbackTurn: last && (live || game.status === 'finished') ? last.number : null,
    settings: settingsView(game),
    goneRobotText: goneRobotText(game),
    botLevels: BOT_LEVELS,
    stalemate: isStalemate(ctx, game),
    live,
    canOpenSeat: live && m.seats.length < 8,
    // Issue 15: seats a bot may take (nobody holds them), and whether a new one can be opened for a bot.
    botSeats: game.status === 'finished' || game.status === 'abandoned' ? [] : m.seats.filter((s) => s.user_id === null && !s.bot)
      .map((s) => ({ seat: s.seat_no, label: `Seat ${s.seat_no}${s.name ? ` (${s.name}'s robot)` : s.invite_email ? ' (invited, not joined)' : ' (empty)'}` })),
    canOpenBotSeat: live && m.seats.length < 8,
    removable: live ? m.seats.filter((s) => s.user_id !== null && !(gmPlays(m) && s.id === m.seat?.id)).map((s) => ({ seat: s.seat_no, name: s.name ?? s.player_id })) : [],
    ...threads(ctx, m, viewerId),
  }
}

/** The threads the viewer may read, whom they may write to, and the mark live.js compares (src/server/live). */
function threads(ctx: ServiceContext, m: Membership, viewerId: number) {
  const messages = messagesFor(ctx, m, viewerId)
  return { messages, messagesMark: messagesMark(messages), messageTargets: messageTargets(m, viewerId) }
}

/** The game page's and turn page's share: the threads, whom one may write to, withdrawing. */
export function tableModel(ctx: ServiceContext, m: Membership, viewerId: number) {
  return {
    ...threads(ctx, m, viewerId),
    canWithdraw: m.seat !== undefined && !(gmPlays(m) && m.game.status !== 'setup') && m.game.status !== 'finished' && m.game.status !== 'abandoned',
    goneRobotText: goneRobotText(m.game),
    hasStandings: m.game.status !== 'setup',
  }
}

/** Only paths inside this game are followed back after a form (never another site). */
function backTo(gameId: string, back: string | undefined): string {
  const base = `/games/${gameId}`
  return back && (back === base || /^\/turns\/\d{1,6}$/.test(back.slice(base.length))) && back.startsWith(base) ? back : base
}

export function gmJobPages(app: FastifyInstance, kit: PageKit, rerender: {
  game(request: FastifyRequest, reply: FastifyReply, gameId: string, extra: Record<string, unknown>, status: number): unknown
}): void {
  const { ctx } = kit

  kit.post('/games/:gameId/messages', async (request, reply) => {
    const user = kit.user(request)
    const { gameId } = request.params as { gameId: string }
    const m = memberOf(ctx, gameId, request.viewer)
    const values = formValues(request.body)
    let errors: FieldErrors = {}
    const parsed = messageRequest.safeParse({ body: values.body ?? '', to: values.to || 'all' })
    if (!parsed.success) errors = zodFieldErrors(parsed.error)
    else {
      try {
        postMessage(ctx, m, user.id, parsed.data)
      } catch (err) {
        errors = appFieldErrors(err, 'body')
      }
    }
    if (Object.keys(errors).length) {
      const fixed: FieldErrors = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k === 'to' ? 'message-to' : 'message-body', sentence(v)]))
      return rerender.game(request, reply, gameId, { messageErrors: fixed, messageValues: values }, 400)
    }
    return reply.redirect(`${backTo(gameId, values.back)}?done=messaged#messages`, 303)
  })

  kit.post('/games/:gameId/messages/:messageId/hide', async (request, reply) => {
    kit.user(request)
    const { gameId, messageId } = request.params as { gameId: string; messageId: string }
    const m = memberOf(ctx, gameId, request.viewer)
    const values = formValues(request.body)
    hideMessage(ctx, m, Number(messageId) || 0, (values.reason ?? '').trim().slice(0, 500) || 'hidden by the GM')
    return reply.redirect(`/games/${gameId}/gm?done=hidden#messages`, 303)
  })

  kit.post('/games/:gameId/withdraw', async (request, reply) => {
    kit.user(request)
    const { gameId } = request.params as { gameId: string }
    const m = memberOf(ctx, gameId, request.viewer)
    const values = formValues(request.body)
    try {
      if (values.confirm !== 'on') throw badRequest('tick the box to confirm that you leave the game', 'confirm')
      withdraw(ctx, m, (values.reason ?? '').trim().slice(0, 500))
    } catch (err) {
      // Named by the page's own fields, so the error summary leads to them (views/pages/game.ejs).
      const withdrawErrors = Object.fromEntries(Object.entries(appFieldErrors(err)).map(([field, message]) =>
        [field === 'confirm' || field === 'reason' ? `withdraw-${field}` : '_form', message]))
      return rerender.game(request, reply, gameId, { withdrawErrors }, 400)
    }
    return reply.redirect('/?done=withdrawn', 303)
  })

  app.get<{ Params: { gameId: string } }>('/games/:gameId/standings', async (request, reply) => {
    kit.user(request)
    const m = memberOf(ctx, request.params.gameId, request.viewer)
    const view = standingsView(ctx, m.game)
    return kit.render(request, reply, 'standings', { title: `${view.final ? 'Final standings' : 'Standings'}: ${m.game.name}`, standings: view, base: `/games/${m.game.id}` })
  })

  app.get<{ Params: { gameId: string; turn: string; version: string } }>('/games/:gameId/turns/:turn/withdrawn/:version', async (request, reply) => {
    kit.user(request)
    const m = memberOf(ctx, request.params.gameId, request.viewer)
    const report = withdrawnReport(ctx, m.game.id, Number(request.params.turn) || 0, Number(request.params.version) || 0)
    return kit.render(request, reply, 'withdrawn', { title: `Turn ${report.turn}, withdrawn version ${report.version}`, report, base: `/games/${m.game.id}`, game: { name: m.game.name } })
  })
}

