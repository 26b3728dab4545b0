// The mail settings page (signed in: every mail / a daily digest / none but sign-in) and the
// unsubscribe link every mail carries in List-Unsubscribe. Opening the link only shows a page
// (mail scanners open links by themselves); the one-click POST of RFC 8058, which mail clients
// send themselves, or the page's button, sets the preference to 'none'. The link's token is an
// HMAC of the address (mail/preferences.ts): it authorises, so those POSTs need no CSRF token.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { formValues } from '../pages/forms.js'
import type { PageKit } from '../pages/kit.js'
import { SETTINGS_PATH } from './compose.js'
import { MAIL_MODES, MODE_LABELS, preferencesRepository, unsubscribePath, type MailMode } from './preferences.js'

const unsubscribeQuery = z.object({ a: z.string().regex(/^[A-Za-z0-9_-]{1,400}$/), t: z.string().regex(/^[A-Za-z0-9_-]{43}$/) })
const settingsForm = z.object({ mode: z.enum(MAIL_MODES) })

export function mailPages(app: FastifyInstance, kit: PageKit): void {
  const { ctx } = kit
  const prefs = preferencesRepository(ctx.db)
  const modes = MAIL_MODES.map((mode) => ({ mode, label: MODE_LABELS[mode] }))

  // `chosen` is the choice ticked: the stored one, or on a refused form what was sent, if one of the
  // three (never the stored one in its place: the person would take it for what they had sent).
  const settings = (request: FastifyRequest, reply: FastifyReply, form: { saved: boolean; chosen?: string | null; errors?: Record<string, string> }) => {
    const user = kit.user(request)
    const stored = prefs.modeOf(user.email)
    return kit.render(request, reply, 'mail-settings', {
      title: 'Mail settings', email: user.email, chosen: form.errors ? form.chosen : stored, storedLabel: MODE_LABELS[stored], modes,
      saved: form.saved, errors: form.errors ?? {},
    }, form.errors ? 400 : 200)
  }
  app.get(SETTINGS_PATH, async (request, reply) => settings(request, reply, { saved: false }))
  kit.post(SETTINGS_PATH, async (request, reply) => {
    const user = kit.user(request)
    const parsed = settingsForm.safeParse(request.body ?? {})
    if (!parsed.success) {
      const sent = formValues(request.body).mode
      return settings(request, reply, { saved: false, chosen: MAIL_MODES.find((mode) => mode === sent) ?? null, errors: { mode: 'Choose one of the three.' } })
    }
    ctx.write(() => prefs.setMode(user.email, parsed.data.mode, ctx.now()))
    return settings(request, reply, { saved: true })
  })

  /** The address of a valid unsubscribe link, or null. */
  const addressOf = (query: unknown): string | null => {
    const parsed = unsubscribeQuery.safeParse(query)
    if (!parsed.success) return null
    const email = Buffer.from(parsed.data.a, 'base64url').toString('utf8')
    return /^[^\s@]+@[^\s@]+$/.test(email) && prefs.checkUnsubscribeToken(email, parsed.data.t) ? email : null
  }
  const badLink = (request: FastifyRequest, reply: FastifyReply) =>
    kit.render(request, reply, 'error', { title: 'This link does not work', message: 'This unsubscribe link is not one we sent. Sign in and use the mail settings page instead.' }, 400)

  app.get('/mail/unsubscribe', async (request, reply) => {
    const email = addressOf(request.query)
    if (!email) return badLink(request, reply)
    reply.header('cache-control', 'no-store')
    return kit.render(request, reply, 'mail-unsubscribe', { title: 'Stop BotWars mail', email, current: prefs.modeOf(email), done: false, action: unsubscribePath(prefs, email) })
  })
  // One-click unsubscribe (RFC 8058): mail programs POST "List-Unsubscribe=One-Click", preferably
  // as multipart/form-data. The link's signed query is the whole authority, so the body is read
  // (within a small limit) and not looked at, whatever its type.
  void app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: 16 * 1024 }, (_request, _body, done) => done(null, null))
    scope.post('/mail/unsubscribe', async (request, reply) => {
      const email = addressOf(request.query)
      if (!email) return badLink(request, reply)
      ctx.write(() => prefs.setMode(email, 'none' satisfies MailMode, ctx.now()))
      return kit.render(request, reply, 'mail-unsubscribe', { title: 'BotWars mail stopped', email, current: 'none', done: true, action: '' })
    })
  })
}
