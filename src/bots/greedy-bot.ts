// The greedy bot: every ordering of its hand on its own robot, the others standing still, scored
// by progress to the next flag, damage, pits and the fence (objectives.ts).
import type { TurnOrders } from '../engine/types.js'
import { greedyObjective } from './objectives.js'
import { bestPlan } from './plan.js'
import type { SeatView } from './seat-view.js'

export function greedyOrders(view: SeatView): TurnOrders {
  return bestPlan(view, greedyObjective).orders
}
