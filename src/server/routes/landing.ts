// The few server-rendered routes the mail links need before the web pages exist: the sign-in
// link (consumes the token, sets the cookie, redirects to /). The pages issue restyles these.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { signInWithLink } from '../services/auth.js'
import type { ServiceContext } from '../services/context.js'

const linkQuery = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{10,200}$/) })

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`

export function landingRoutes(app: FastifyInstance, ctx: ServiceContext) {
  app.get('/auth/link', async (request, reply) => {
    const query = linkQuery.safeParse(request.query)
    const signedIn = query.success ? signInWithLink(ctx, query.data.token) : null
    if (!signedIn) {
      return reply.status(400).type('text/html').send(page('Sign-in link not valid', 'This sign-in link is unknown, already used or expired. Ask for a new one.'))
    }
    app.startSession(reply, signedIn.sessionId)
    return reply.redirect('/', 303)
  })
}
