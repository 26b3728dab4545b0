// The end of a turn: repairs and options (R31), reboots (R33), reinstatement (R29) and the end
// of the game by elimination (R34).
import { emit, now, isOnFloor, ownFused, setPhase, setStage, type Resolution, type TurnRobot } from './context.js'
import { squareIndex } from './board.js'
import { MAX_HP, REGISTER_COUNT } from './types.js'

export function endTurn(ctx: Resolution): { gameOver: boolean; winners: string[] } {
  setStage(ctx, 0)
  setPhase(ctx, 'end')
  for (const robot of ctx.robots) repair(ctx, robot)
  for (const robot of ctx.robots) settleReboot(ctx, robot)
  for (const robot of ctx.robots) reinstate(ctx, robot)
  if (ctx.lostLastRobot.length === 0) return { gameOver: false, winners: [] }
  const standing = ctx.robots.filter((robot) => robot.robotsLeft > 0)
  if (standing.length > 1) return { gameOver: false, winners: [] }
  const winners = standing.map((robot) => robot.player)
  emit(ctx, { time: now(ctx), kind: 'game-over', winners })
  return { gameOver: true, winners }
}

/** R31: +1 HP per wrench, +1 on a flag, never above 10; a double wrench may give an option instead. */
function repair(ctx: Resolution, robot: TurnRobot): void {
  if (!isOnFloor(robot) || robot.rebooting) return
  // The type from floorTypes first (see Board.floorTypes): most robots end the turn on no wrench or flag.
  const index = robot.atIndex
  if ((ctx.board.floorTypes[index] ?? null) === null) return
  const element = ctx.board.floor[index]!
  let amount = 0
  if (element.type === 'flag') amount = 1
  if (element.type === 'wrench') {
    if (element.count === 2 && robot.doubleWrench === 'option' && ctx.optionDeck.length > 0) {
      const option = ctx.optionDeck.shift()!
      robot.options = [...robot.options, option]
      emit(ctx, { time: now(ctx), kind: 'option-taken', player: robot.player, option })
      return
    }
    amount = element.count
  }
  const healed = Math.min(MAX_HP, robot.hp + amount) - robot.hp
  if (healed <= 0) return
  robot.hp += healed
  emit(ctx, { time: now(ctx), kind: 'repaired', player: robot.player, amount: healed, hp: robot.hp })
  // R27: a register stays fused only while its number is at least HP.
  for (let k = 1; k < Math.min(robot.hp, REGISTER_COUNT + 1); k++) {
    if (k in robot.fused) {
      delete ownFused(ctx, robot)[k]
      emit(ctx, { time: now(ctx), kind: 'register-unfused', player: robot.player, register: k })
    }
  }
}

/** R33: a declared reboot takes effect now: full HP, nothing fused, and the next turn spent rebooting. */
function settleReboot(ctx: Resolution, robot: TurnRobot): void {
  const declared = robot.rebootNext && isOnFloor(robot)
  robot.rebootNext = false
  robot.rebooting = declared
  if (!declared) return
  robot.hp = MAX_HP
  robot.fused = {}
  emit(ctx, { time: now(ctx), kind: 'reboot', player: robot.player })
}

/** R29: a destroyed robot comes back, virtual, on its last checkpoint if the player has robots left. */
function reinstate(ctx: Resolution, robot: TurnRobot): void {
  if (robot.mode !== 'destroyed') return
  if (robot.robotsLeft <= 0) {
    // Out this turn, not in an earlier one: its last robot was destroyed in this turn.
    if (ctx.lostLastRobot.includes(robot)) emit(ctx, { time: now(ctx), kind: 'player-out', player: robot.player })
    return
  }
  const at = robot.checkpoint ?? ctx.board.start.at
  // Field by field: Object.assign with a literal is a slow, generic copy. Not through placeRobot:
  // the robot comes back virtual (R29), so it takes no square in the grid of real robots. Set
  // down, not moved: a switch or a teleporter on the square does nothing (A30).
  robot.at = at
  robot.atIndex = squareIndex(ctx.board, at)
  robot.facing = ctx.board.start.facing
  robot.hp = MAX_HP
  robot.mode = 'virtual'
  robot.fused = {}
  robot.options = []
  robot.rebooting = false
  robot.rebootNext = false
  robot.placedAfterTurn = ctx.turn
  emit(ctx, { time: now(ctx), kind: 'reinstated', player: robot.player, at, facing: robot.facing })
}
