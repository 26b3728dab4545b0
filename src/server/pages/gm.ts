// The GM console: who has submitted, the deadline, close now, extend, pause/resume, the draft with
// every program, reopen one submission, re-resolve, publish, replace a player, end the game, and
// the action log. Each action is a small form; a refused one comes back with its message beside it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { badRequest } from '../errors.js'
import { memberOf } from '../routes/api/games.js'
import type { Membership } from '../services/context.js'
import { lockGmProgram } from '../services/lock.js'
import { abandonGame, extendDeadline, pauseGame, removePlayer, resumeGame } from '../services/games.js'
import { requireGm } from '../services/membership.js'
import { publishByGm, reopenSubmission, reresolve } from '../services/turns.js'
import { gameView, historyView } from '../services/views.js'
import { formValues, reasonForm } from './forms.js'
import { DONE, playerRows } from './games.js'
import { appFieldErrors, sentence, zodFieldErrors, type PageKit } from './kit.js'
import { closeNow, parseHours } from './services.js'
import { cardView } from './turns.js'
import { GM_JOB_ACTIONS, GM_JOB_DONE_OF, gmJobModel, runGmJobAction, type GmJobAction } from './gm-job.js'
import { undeliveredReason } from '../mail/undelivered.js'
import { checkExpectedTurn } from '../services/turn-version.js'
import { PREVIEW_ACTION, PREVIEW_DONE_KEY, runPreviewAction } from './gm-preview.js'

const ACTIONS = ['lock', 'close', 'extend', 'pause', 'resume', 'reopen', 'resolve', 'publish', 'replace', 'abandon', PREVIEW_ACTION, ...GM_JOB_ACTIONS] as const
type Action = (typeof ACTIONS)[number]

const DONE_OF: Record<Action, string> = {
  lock: 'locked', close: 'closed', extend: 'extended', pause: 'paused', resume: 'resumed', reopen: 'reopened', resolve: 'resolved',
  publish: 'published', replace: 'replaced', abandon: 'abandoned', [PREVIEW_ACTION]: PREVIEW_DONE_KEY, ...GM_JOB_DONE_OF,
}
const isGmJob = (action: Action): action is GmJobAction => (GM_JOB_ACTIONS as readonly string[]).includes(action)

const seatForm = z.object({ seat: z.coerce.number({ error: 'choose a seat' }).int().min(1, 'choose a seat').max(8), email: z.string().trim().pipe(z.email('enter the newcomer\'s email address').max(254)) })

export function gmPages(app: FastifyInstance, kit: PageKit): void {
  const { ctx } = kit

  const gmOf = (request: FastifyRequest, gameId: string): Membership => {
    kit.user(request)
    const m = memberOf(ctx, gameId, request.viewer)
    requireGm(m)
    return m
  }

  const consolePage = (request: FastifyRequest, reply: FastifyReply, gameId: string, problem: { action: string; message: string; values: Record<string, string>; stale?: boolean } | null) => {
    const m = gmOf(request, gameId)
    const view = gameView(ctx, m)
    const turn = view.currentTurn
    const done = (request.query as Record<string, string | undefined>).done
    const names = Object.fromEntries(m.seats.map((s) => [s.player_id, s.name ?? `${s.player_id} (empty seat)`]))
    return kit.render(request, reply, 'gm', {
      title: `GM console: ${view.name}`, game: view, players: playerRows(view), turn, names,
      programs: turn?.programs ? Object.entries(turn.programs).map(([player, p]) => ({ player, name: names[player] ?? player, ...p, cardViews: p.cards.map(cardView) })) : null,
      history: historyView(ctx, m.game, { isGm: true }).reverse(), problem, done: done ? DONE[done] ?? null : null,
      // Mail the server gave up on (mail/worker.ts): the GM is who can reach that player otherwise.
      // Of a digest, only this game's parts and no words of the mail server's: the digest itself
      // may be about other games (mail/undelivered.ts).
      undelivered: ctx.outbox.failedForGame(m.game.id).map((row) => ({
        to: row.recipient, subject: row.subject, at: row.created_at, error: undeliveredReason(row),
      })),
      job: gmJobModel(ctx, m, kit.user(request).id),
    }, problem ? 400 : 200)
  }

  app.get<{ Params: { gameId: string } }>('/games/:gameId/gm', async (request, reply) => consolePage(request, reply, request.params.gameId, null))

  for (const action of ACTIONS) {
    kit.post(`/games/:gameId/gm/${action}`, async (request, reply) => {
      const { gameId } = request.params as { gameId: string }
      const m = gmOf(request, gameId)
      const values = formValues(request.body)
      try {
        const parsedReason = reasonForm.safeParse(request.body ?? {})
        if (!parsedReason.success) throw badRequest(Object.values(zodFieldErrors(parsedReason.error))[0]!, 'reason')
        const reason = parsedReason.data.reason
        // Two tabs (issue 12): the form carries the turn state it was shown with; a changed turn
        // refuses it. The check and the action are one transaction, so no other process on the
        // database can change the turn in between (test/gm/console-check-atomic.test.ts).
        ctx.write(() => {
          checkExpectedTurn(ctx, m.game.id, values.expectedTurn)
          ctx.crash('gm-console-checked')
          const current = ctx.turns.current(m.game.id)
          const turnNumber = current?.number ?? 0
          if (isGmJob(action)) runGmJobAction(ctx, m, action, request.body, reason)
          else switch (action) {
            case 'lock': {
              if (values.confirm !== 'on') throw badRequest('tick the box to confirm that your program is final for this turn', 'confirm')
              lockGmProgram(ctx, m, turnNumber, true, reason)
              break
            }
            case 'close': closeNow(ctx, m, reason); break
            case 'extend': {
              if (!current || current.status !== 'open') throw badRequest('no turn is open')
              extendDeadline(ctx, m, current.deadline + parseHours(values.hours, 'hours') * 3600_000, reason)
              break
            }
            case 'pause': pauseGame(ctx, m, reason); break
            case 'resume': resumeGame(ctx, m, reason); break
            case 'reopen': {
              if (!values.player) throw badRequest('choose the player whose program to reopen', 'player')
              reopenSubmission(ctx, m, turnNumber, values.player, reason)
              break
            }
            case 'resolve': reresolve(ctx, m, turnNumber, reason); break
            case 'publish': publishByGm(ctx, m, turnNumber, reason); break
            case 'replace': {
              const seat = seatForm.safeParse(request.body ?? {})
              if (!seat.success) throw badRequest(Object.values(zodFieldErrors(seat.error))[0]!, 'email')
              removePlayer(ctx, m, seat.data.seat, reason, seat.data.email)
              break
            }
            case PREVIEW_ACTION: runPreviewAction(ctx, m, request.body, reason); break
            case 'abandon': {
              if (values.confirm !== 'on') throw badRequest('tick the box to confirm that the game ends now', 'confirm')
              abandonGame(ctx, m, reason)
              break
            }
          }
        })
      } catch (err) {
        const errors = appFieldErrors(err)
        const message = Object.values(errors)[0] ?? 'that did not work'
        // A form from before the turn changed may not be on the page any more: say so at the top.
        return consolePage(request, reply, gameId, { action, message: sentence(message), values, stale: 'expectedTurn' in errors })
      }
      return reply.redirect(`/games/${gameId}/gm?done=${DONE_OF[action]}#done`, 303)
    })
  }
}
