// One stage of a turn, its five steps in the order of R10.
import { touchCheckpoints, settleModes } from './checkpoints.js'
import { setStage, type Resolution } from './context.js'
import { runConveyors } from './conveyors.js'
import { runCrushers, runGears } from './gears-crushers.js'
import { fireBoardLasers, fireRobotLasers } from './lasers.js'
import { runRobotMovement } from './movement.js'
import { runPushers } from './pushers.js'

/** Plays stage `stage` on the working state; returns the players who tagged the last flag (R34). */
export function playStage(ctx: Resolution, stage: number): string[] {
  setStage(ctx, stage)
  runRobotMovement(ctx, stage)          // 1. robot movement, highest priority first
  runConveyors(ctx)                     // 2. mechanisms part 2: conveyors,
  runPushers(ctx, stage)                //    pushers,
  runGears(ctx)                         //    gears,
  runCrushers(ctx, stage)               //    crushers,
  fireBoardLasers(ctx)                  //    board lasers
  fireRobotLasers(ctx)                  // 3. combat
  const finishers = touchCheckpoints(ctx) // 4. checkpoints
  settleModes(ctx, stage)               // 5. virtual → real
  return finishers
}
