// Shared by the GM tests (issue 12): a started game with the clock and mail at hand.
import type { FastifyInstance } from 'fastify'
import { PLAYERS, setUpGame, type Client } from '../server/helpers.js'

export interface Started { gm: Client; gameId: string; players: Client[] }

/** A game on the training floor, started, turn 1 open; turns close only at their deadline. */
export async function startedGame(app: FastifyInstance, options: Record<string, unknown> = {}, players = PLAYERS): Promise<Started> {
  const game = await setUpGame(app, players, { turnLengthHours: 24, reviewWindowHours: 24, closeEarly: false, ...options })
  const started = await game.gm.call('POST', `/api/v1/games/${game.gameId}/start`, { reason: 'go' })
  if (started.status !== 200) throw new Error(`start: ${started.status} ${started.text}`)
  return game
}

export async function gameOf(c: Client, gameId: string) {
  return (await c.call('GET', `/api/v1/games/${gameId}`)).json
}

/** The first cards of the player's hand, one per unfused register (a legal program, R8). */
export async function someProgram(c: Client, gameId: string, turn: number, reverse = false): Promise<string[]> {
  const me = (await c.call('GET', `/api/v1/games/${gameId}/turns/${turn}`)).json.me
  const unfused = 5 - Object.keys(me.robot.fused).length
  const hand = reverse ? [...me.hand].reverse() : me.hand
  return me.robot.rebooting || me.robot.at === null ? [] : hand.slice(0, unfused)
}

/** Moves the clock past the open turn's deadline and runs the clockwork: the turn becomes a draft. */
export async function closeTurn(app: FastifyInstance, clock: { now: number }, c: Client, gameId: string): Promise<number> {
  const game = await gameOf(c, gameId)
  clock.now = Date.parse(game.currentTurn.deadline) + 1000
  app.runDueWork()
  return game.currentTurn.number
}

export function mailsOf(app: FastifyInstance, gameId: string | null, kind: string) {
  return app.services.outbox.all().filter((m) => m.kind === kind && (gameId === null || m.game_id === gameId))
}
