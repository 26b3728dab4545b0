// The two limits on asking for a sign-in link, shared by the sign-in page and the JSON API:
// requests per address of origin per minute (one bucket for both, @fastify/rate-limit's store),
// and mails per recipient address per hour (counted in the database by services/auth.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { rateLimited } from '../errors.js'

/** Sign-in requests a minute from one address of origin, the page and the API together. */
export const SIGN_IN_REQUESTS_PER_MINUTE = 20

export interface SignInLimits {
  /** Counts the request against its address of origin; 429 over the limit. */
  guard(request: FastifyRequest): Promise<void>
  mailsPerHour: number
}

export function signInLimits(app: FastifyInstance, perMinute: number, mailsPerHour: number): SignInLimits {
  const perAddress = app.createRateLimit({ max: perMinute, timeWindow: 60_000 })
  return {
    async guard(request) {
      const limit = await perAddress(request)
      if (!limit.isAllowed && limit.isExceeded) throw rateLimited(`too many sign-in requests from your address: try again in ${limit.ttlInSeconds} seconds`)
    },
    mailsPerHour,
  }
}
