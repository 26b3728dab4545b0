// Shared by the GM tests (issue 12): a started game with the clock and mail at hand.
import type { FastifyInstance } from 'fastify'
import { greedyOrders } from '../../src/bots/greedy-bot.js'
import { seatViewOf } from '../../src/bots/seat-view.js'
import { formatCard } from '../../src/engine/deck.js'
import type { GameState } from '../../src/engine/types.js'
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

/** Closes the open turn at its deadline and the GM publishes it; returns its number. */
export async function playTurn(app: FastifyInstance, clock: { now: number }, gm: Client, gameId: string): Promise<number> {
  const n = await closeTurn(app, clock, gm, gameId)
  const published = await gm.call('POST', `/api/v1/games/${gameId}/turns/${n}/publish`, { reason: 'ok' })
  if (published.status !== 200) throw new Error(`publish: ${published.status} ${published.text}`)
  return n
}

export function mailsOf(app: FastifyInstance, gameId: string | null, kind: string) {
  return app.services.outbox.all().filter((m) => m.kind === kind && (gameId === null || m.game_id === gameId))
}

/** What the greedy bot chooses for `player` from that seat's own view of turn `number` as dealt (issue 15). */
export function greedyChoice(app: FastifyInstance, gameId: string, number: number, player: string): string[] {
  const turn = app.services.turns.byNumber(gameId, number)!
  const dealt = JSON.parse(turn.dealt_state_json) as GameState
  const board = app.services.board(app.services.games.byId(gameId)!)
  return greedyOrders(seatViewOf(board, dealt, player)).cards.map(formatCard)
}
