// The standings page of a series (issue 15): its games as they are played and the standings so
// far, for the series' GM; the same seriesView the JSON API returns.
import type { FastifyInstance } from 'fastify'
import { seriesView } from '../services/series.js'
import type { PageKit } from './kit.js'

export function seriesPages(app: FastifyInstance, kit: PageKit): void {
  app.get<{ Params: { seriesId: string } }>('/series/:seriesId', async (request, reply) => {
    const user = kit.user(request)
    const series = seriesView(kit.ctx, request.params.seriesId, user.id)
    return kit.render(request, reply, 'series', { title: series.name, series })
  })
}
