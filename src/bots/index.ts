// The built-in bots by level: each turns a seat view (what its seat may see) into orders.
import type { TurnOrders } from '../engine/types.js'
import { greedyOrders } from './greedy-bot.js'
import { randomOrders } from './random-bot.js'
import type { SeatView } from './seat-view.js'
import { strongOrders } from './strong-bot.js'

export const BOT_LEVELS = ['random', 'greedy', 'strong'] as const
export type BotLevel = (typeof BOT_LEVELS)[number]

/** A bot's decision: pure, given the view and a seed for whatever it draws at random. */
export type Bot = (view: SeatView, seed: number) => TurnOrders

export const BOTS: Record<BotLevel, Bot> = {
  random: randomOrders,
  greedy: (view) => greedyOrders(view),
  strong: strongOrders,
}

export function isBotLevel(text: string): text is BotLevel {
  return (BOT_LEVELS as readonly string[]).includes(text)
}

/** The name a bot's seat shows, e.g. "Bot (greedy)". */
export function botSeatName(level: BotLevel): string {
  return `Bot (${level})`
}
