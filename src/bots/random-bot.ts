// The random bot: what the server does for a missing program (R9), by the engine's own fill.
import { fillMissingOrders } from '../engine/program.js'
import { seedRandom } from '../engine/random.js'
import type { TurnOrders } from '../engine/types.js'
import { planningState, type SeatView } from './seat-view.js'

export function randomOrders(view: SeatView, seed: number): TurnOrders {
  const [filled] = fillMissingOrders({ ...planningState(view), rng: seedRandom(seed) }, view.player)
  // The bot chose these cards itself: they were not filled by the server.
  return { cards: filled.cards, rebootNext: false }
}
