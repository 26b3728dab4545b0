// The bot protocol (issue 15): a player registers a webhook URL for their seat in one game; when a
// hand is dealt, the server POSTs that player's own view of the game (the JSON GET
// /api/v1/games/{id} gives them) with an HMAC-SHA256 signature, and the bot answers through the
// ordinary API with its game token. Deliveries are rows queued in the transaction that deals the
// turn (bot-seats.ts afterDeal) and sent by a worker with a timeout and retries (like the mail outbox), so a slow or dead
// bot server never holds up a turn: the deadline and R9 (or the missed-program bot) still apply.
//
// Server-side request forgery: only http and https, no credentials in the URL, no port of another
// protocol, no redirects followed, and in production no loopback, private or link-local address
// (checked when the URL is registered and again by the connection of each delivery, on the very
// addresses it connects to: webhook-post.ts) unless BOTWARS_WEBHOOK_ALLOW_PRIVATE=1.
import { createHmac } from 'node:crypto'
import { isIP } from 'node:net'
import { badRequest, conflict } from '../errors.js'
import { newSecret } from '../repositories/users.js'
import type { DeliveryRow } from '../repositories/bots.js'
import type { Membership, ServiceContext } from './context.js'
import { isPrivateAddress } from './private-addresses.js'
import { otherProtocolPort, postWebhook } from './webhook-post.js'
import { gameView } from './views.js'

export const SIGNATURE_HEADER = 'x-botwars-signature'
export const DELIVERY_TIMEOUT_MS = 5_000
const LEASE_MS = 60_000
const FIRST_RETRY_MS = 5_000
/** Attempts before a delivery is given up (the turn's deadline still stands). */
export const MAX_ATTEMPTS = 6

export interface WebhookPolicy {
  /** Whether loopback and private addresses may be called: outside production, or when the env setting says so. */
  allowPrivate: boolean
}

export function webhookPolicy(env: NodeJS.ProcessEnv = process.env): WebhookPolicy {
  return { allowPrivate: env.NODE_ENV !== 'production' || env.BOTWARS_WEBHOOK_ALLOW_PRIVATE === '1' }
}

/** Why a webhook URL is refused, or null when it may be registered. */
export function webhookUrlProblem(text: string, policy: WebhookPolicy): string | null {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'not a URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs'
  if (url.username || url.password) return 'no user name or password in the URL'
  if (otherProtocolPort(url)) return `not port ${url.port}, which belongs to another protocol (mail, SSH, DNS …)`
  if (policy.allowPrivate) return null
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return 'no loopback address'
  if (isIP(host) && isPrivateAddress(host)) return 'no loopback, private or link-local address'
  return null
}

export function registerWebhook(ctx: ServiceContext, m: Membership, url: string, policy: WebhookPolicy) {
  if (!m.seat || m.seat.user_id === null) throw conflict('only a player with a seat can register a webhook for it')
  const problem = webhookUrlProblem(url, policy)
  if (problem) throw badRequest(`url: ${problem}`, 'url')
  const secret = newSecret()
  ctx.write(() => ctx.bots.putWebhook({ game_id: m.game.id, player_id: m.seat!.player_id, user_id: m.seat!.user_id!, url, secret, created_at: ctx.now() }))
  return {
    url, secret,
    signature: `${SIGNATURE_HEADER}: t=<milliseconds>,sha256=<hex HMAC-SHA256 of "<t>.<body>" keyed with secret>`,
  }
}

export function webhookView(ctx: ServiceContext, m: Membership) {
  const hook = m.seat ? ctx.bots.webhook(m.game.id, m.seat.player_id) : undefined
  if (!hook || hook.user_id !== m.seat!.user_id) return { url: null, deliveries: [] }
  return {
    url: hook.url,
    createdAt: new Date(hook.created_at).toISOString(),
    deliveries: ctx.bots.recentDeliveries(m.game.id, hook.player_id).map((d) => ({
      turn: d.turn_number, status: d.status, attempts: d.attempts, lastError: d.last_error,
      sentAt: d.sent_at === null ? null : new Date(d.sent_at).toISOString(),
    })),
  }
}

export function deleteWebhook(ctx: ServiceContext, m: Membership): { deleted: boolean } {
  if (!m.seat) return { deleted: false }
  return { deleted: ctx.write(() => ctx.bots.deleteWebhook(m.game.id, m.seat!.player_id)) }
}

export function signature(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}

/** Deliveries sent at once at most, each to a different person's bot server (repositories/bots.ts claimDelivery). */
export const CONCURRENT_DELIVERIES = 8

export interface WebhookWorkerOptions {
  policy: WebhookPolicy
  log?: { warn(obj: object, msg: string): void }
  /** Deliveries per call at most. */
  limit?: number
}

/** Why a delivery is no longer worth sending, or null: the turn moved on, the seat changed hands, the hook went. */
function staleReason(ctx: ServiceContext, gameId: string, playerId: string, turnNumber: number): string | null {
  const turn = ctx.turns.current(gameId)
  if (!turn || turn.number !== turnNumber || turn.status !== 'open') return 'the turn is no longer open'
  const hook = ctx.bots.webhook(gameId, playerId)
  const seat = ctx.games.seats(gameId).find((s) => s.player_id === playerId)
  if (!hook || !seat || seat.user_id !== hook.user_id) return 'the webhook or the seat changed'
  return null
}

/** Deliveries in flight per service context (one per process), whichever round sent them. */
const inFlight = new WeakMap<ServiceContext, { count: number }>()

/**
 * Sends the due deliveries, several at once; returns how many were answered with 2xx. Never throws
 * for a delivery's failure. A person's deliveries go one at a time (the claim skips a person with
 * one in flight), so a bot server that never answers holds up its own owner's and no one else's.
 * Rounds may overlap (server.ts starts one every second without waiting for the last, which may
 * be waiting on a slow server): together they keep at most CONCURRENT_DELIVERIES in flight.
 */
export async function deliverWebhooks(ctx: ServiceContext, options: WebhookWorkerOptions): Promise<number> {
  let slots = inFlight.get(ctx)
  if (!slots) inFlight.set(ctx, (slots = { count: 0 }))
  const limit = options.limit ?? 20
  let claimed = 0
  let delivered = 0
  const lane = async (taken: { count: number }) => {
    while (claimed < limit && taken.count < CONCURRENT_DELIVERIES) {
      const row = ctx.write(() => ctx.bots.claimDelivery(ctx.now(), LEASE_MS))
      if (!row) return
      claimed++
      taken.count++
      try {
        if (await deliverOne(ctx, row, options)) delivered++
      } finally {
        taken.count--
      }
    }
  }
  const lanes = Math.max(0, CONCURRENT_DELIVERIES - slots.count)
  await Promise.all(Array.from({ length: lanes }, () => lane(slots)))
  return delivered
}

/** Sends one claimed delivery and records the outcome; whether it was answered with 2xx. */
async function deliverOne(ctx: ServiceContext, row: DeliveryRow, options: WebhookWorkerOptions): Promise<boolean> {
  const stale = staleReason(ctx, row.game_id, row.player_id, row.turn_number)
  const hook = ctx.bots.webhook(row.game_id, row.player_id)
  if (stale || !hook) {
    ctx.write(() => ctx.bots.deliveryFailed(row.id, stale ?? 'no webhook'))
    return false
  }
  try {
    const problem = webhookUrlProblem(hook.url, options.policy)
    if (problem) throw new Error(problem)
    const user = ctx.users.byId(hook.user_id)!
    const game = ctx.games.byId(row.game_id)!
    const seats = ctx.games.seats(game.id)
    const view = gameView(ctx, { game, seats, isGm: game.gm_user_id === user.id, seat: seats.find((s) => s.user_id === user.id) })
    const body = JSON.stringify({ event: 'hand-dealt', gameId: game.id, turn: row.turn_number, player: row.player_id, game: view })
    const status = await postWebhook(new URL(hook.url), body, {
      'content-type': 'application/json', 'x-botwars-event': 'hand-dealt', 'x-botwars-delivery': String(row.id), [SIGNATURE_HEADER]: signature(hook.secret, ctx.now(), body),
    }, { allowPrivate: options.policy.allowPrivate, timeoutMs: DELIVERY_TIMEOUT_MS })
    if (status < 200 || status >= 300) throw new Error(`answered ${status}`)
    ctx.write(() => ctx.bots.deliverySent(row.id, ctx.now()))
    return true
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    ctx.write(() => {
      if (row.attempts >= MAX_ATTEMPTS) ctx.bots.deliveryFailed(row.id, message)
      else ctx.bots.deliveryRetry(row.id, ctx.now() + FIRST_RETRY_MS * 2 ** (row.attempts - 1), message)
    })
    options.log?.warn({ deliveryId: row.id, attempts: row.attempts, err: message }, 'webhook not delivered')
    return false
  }
}
