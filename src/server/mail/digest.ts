// The daily digest: mail held for people who asked for one digest a day (outbox.add holds it)
// is folded into one message per person, at most once every 24 hours. Each held mail's text is
// kept whole, reply addresses included, so a digest reader can still play by reply. The held
// mails stay, as the digest's parts, until it has gone: a rollback, or the reader losing their
// seat, makes it again without the mail it withdrew (withdraw.ts).
import type { DigestRow } from '../repositories/outbox.js'
import type { ServiceContext } from '../services/context.js'
import { preferencesRepository } from './preferences.js'
import { SETTINGS_PATH } from './compose.js'
import { heading } from './text.js'

export const DIGEST_EVERY_MS = 24 * 3600_000

/** A held mail's text without its signature (the settings link, once per mail): the digest ends with one for all. */
function withoutSignature(body: string): string {
  const lines = body.trimEnd().split('\n')
  const at = lines.lastIndexOf('-- ')
  return (at < 0 ? lines : lines.slice(0, at)).join('\n').trimEnd()
}

/** One digest of `held` (at least one mail, oldest first): its subject, text and game (if only one). */
export function composeDigest(ctx: ServiceContext, held: readonly DigestRow[]): { subject: string; body: string; gameId: string | null } {
  const body = [
    ...heading(`Your BotWars digest: ${held.length} ${held.length === 1 ? 'mail' : 'mails'}`), '',
    ...held.flatMap((m) => [...heading(m.subject).map((l, i) => (i === 1 ? l.replace(/=/g, '-') : l)), '', withoutSignature(m.body), '', '']),
    '-- ', `You get one digest a day. Mail settings: ${ctx.link(SETTINGS_PATH)}`, '',
  ].join('\n')
  const games = new Set(held.map((m) => m.game_id))
  const subject = `BotWars digest: ${held.map((m) => m.subject).slice(0, 2).join('; ')}${held.length > 2 ? '; …' : ''}`
  return { subject, body, gameId: games.size === 1 ? held[0]!.game_id : null }
}

/** Queues the digests that are due; returns how many. */
export function queueDigests(ctx: ServiceContext, limit: number): number {
  const now = ctx.now()
  const prefs = preferencesRepository(ctx.db)
  let queued = 0
  for (const recipient of ctx.outbox.digestsDue(now - DIGEST_EVERY_MS, limit)) {
    ctx.write(() => {
      const held = ctx.outbox.held(recipient)
      if (held.length === 0) return
      const lastId = held.at(-1)!.id
      const id = prefs.modeOf(recipient) === 'none' ? null : ctx.mail({ kind: 'digest', to: recipient, ...composeDigest(ctx, held) })
      if (id === null) {
        // They want no mail now (or the digest could not be queued): what was held is dropped.
        ctx.outbox.dropHeld(recipient, lastId, now)
        return
      }
      ctx.outbox.released(recipient, lastId, id, now)
      queued++
    })
  }
  return queued
}
