// The standings page of a series (issue 15): its games as they are played and the standings so
// far, for the series' GM; the same seriesView the JSON API returns. Its GM stops it from here too.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { seriesOfGm, seriesView, stopSeries } from '../services/series.js'
import { formValues, seriesStopForm } from './forms.js'
import { appFieldErrors, zodFieldErrors, type FieldErrors, type PageKit } from './kit.js'

const DONE: Record<string, string> = {
  stopped: 'The series is stopped: no further game starts.',
  stopping: 'The series stops when the game in progress ends: no further game starts.',
}

export function seriesPages(app: FastifyInstance, kit: PageKit): void {
  const page = (request: FastifyRequest, reply: FastifyReply, seriesId: string, form: { errors: FieldErrors; values: Record<string, string> } | null) => {
    const user = kit.user(request)
    const series = seriesView(kit.ctx, seriesId, user.id)
    const done = (request.query as Record<string, string | undefined>).done
    return kit.render(request, reply, 'series', {
      title: form ? `Error: ${series.name}` : series.name, series, done: !form && done && Object.hasOwn(DONE, done) ? DONE[done] : null,
      errors: form?.errors ?? {}, values: form?.values ?? {},
    }, form ? 400 : 200)
  }

  app.get<{ Params: { seriesId: string } }>('/series/:seriesId', async (request, reply) => page(request, reply, request.params.seriesId, null))

  kit.post('/series/:seriesId/stop', async (request, reply) => {
    const { seriesId } = request.params as { seriesId: string }
    // Its GM only, before the form is read: anyone else learns nothing from a 400.
    seriesOfGm(kit.ctx, seriesId, kit.user(request).id)
    const values = formValues(request.body)
    const parsed = seriesStopForm.safeParse(request.body ?? {})
    if (!parsed.success) return page(request, reply, seriesId, { errors: zodFieldErrors(parsed.error), values })
    try {
      stopSeries(kit.ctx, seriesId, kit.user(request).id, parsed.data.when, parsed.data.reason)
    } catch (err) {
      return page(request, reply, seriesId, { errors: appFieldErrors(err), values })
    }
    const stopped = kit.ctx.bots.series(seriesId)!.status === 'stopped'
    return reply.redirect(`/series/${seriesId}?done=${stopped ? 'stopped' : 'stopping'}#done`, 303)
  })
}
