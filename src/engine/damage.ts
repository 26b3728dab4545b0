// Damage, option sacrifice, fused registers and destruction (R11, R27, R28, R29).
import { emit, now, ownFused, placeRobot, type Resolution, type TurnRobot } from './context.js'
import type { DamageSource, DestroyCause } from './events.js'
import { REGISTER_COUNT, type OptionName } from './types.js'

/** One strike of a volley (R23, R26): the robot it hits, its damage, and the robot that fired it. */
export interface Hit { robot: TurnRobot; amount: number; by?: string }

/**
 * Deals `amount` points of damage. Point by point: a robot holding an option whose HP is at or
 * below its sacrifice threshold loses its oldest option instead (R28); otherwise HP drops, and
 * at HP h <= 5 register h is fused with the card it holds now (R27). At 0 HP it is destroyed.
 * While damage lands at once (beginAtOnce), the registers are fused when it has all landed.
 */
export function dealDamage(ctx: Resolution, robot: TurnRobot, amount: number, source: DamageSource, by?: string): void {
  const hpBefore = robot.hp
  takeDamage(ctx, robot, amount, source, by)
  if (robot.hp >= hpBefore) return
  if (ctx.fallen === null) fuseFallenRegisters(ctx, robot, hpBefore)
  else if (!ctx.fallen.some((f) => f.robot === robot)) ctx.fallen.push({ robot, hpBefore })
}

/**
 * Damage that lands at once: a board laser volley (R23), a round of robot lasers (R26) or a pusher
 * phase (R20), from beginAtOnce to endAtOnce. The registers each robot fell past are fused when it
 * has all landed, and only by robots still on the board. So a robot that one moment destroys fuses
 * nothing in it (R11, R27), whichever of its strikes came first: at 2 HP, shot for 1 and for 2 by
 * two robots, or pushed into the fence by two pushes, it is destroyed, not first fused and then
 * destroyed. A robot that survives fuses the same registers either way: the ones its HP passed,
 * each with the card it holds this turn.
 */
export function beginAtOnce(ctx: Resolution): void {
  ctx.fallen = []
}

export function endAtOnce(ctx: Resolution): void {
  const fallen = ctx.fallen
  ctx.fallen = null
  if (fallen) for (const { robot, hpBefore } of fallen) fuseFallenRegisters(ctx, robot, hpBefore)
}

/** The strikes of a volley, robot by robot as `hits` lists them (inSeatOrder, A25), all at once. */
export function dealVolley(ctx: Resolution, hits: readonly Hit[], source: DamageSource): void {
  // Most volleys strike one robot once, which is at once already.
  if (hits.length === 1) return dealDamage(ctx, hits[0]!.robot, hits[0]!.amount, source, hits[0]!.by)
  beginAtOnce(ctx)
  for (const hit of hits) dealDamage(ctx, hit.robot, hit.amount, source, hit.by)
  endAtOnce(ctx)
}

/** Damage and option sacrifice point by point (R28), and destruction at 0 HP (R27); no fusing. */
function takeDamage(ctx: Resolution, robot: TurnRobot, amount: number, source: DamageSource, by?: string): void {
  if (robot.mode === 'destroyed' || amount <= 0) return
  let sacrificed: OptionName[] | null = null
  const hpBefore = robot.hp
  for (let point = 0; point < amount && robot.hp > 0; point++) {
    if (robot.options.length > 0 && robot.hp <= robot.sacrificeAt) {
      const option = robot.options.shift()!
      ctx.optionDeck.push(option) // R32: a lost option goes to the bottom of the deck
      ;(sacrificed ??= []).push(option)
      continue
    }
    robot.hp -= 1
  }
  const taken = hpBefore - robot.hp
  // Most damage sacrifices and fuses nothing: no empty arrays are made to loop over.
  if (sacrificed) for (const option of sacrificed) emit(ctx, { time: now(ctx), kind: 'option-sacrificed', player: robot.player, option })
  if (taken > 0) emit(ctx, { time: now(ctx), kind: 'damaged', player: robot.player, amount: taken, source, hp: robot.hp, by })
  if (robot.hp === 0) destroyRobot(ctx, robot, 'damage')
}

/**
 * R27: every register from the HP the robot fell to up to the HP it had before, as it fell. A
 * destroyed robot fuses nothing, even in the registers its HP passed on the way down.
 */
function fuseFallenRegisters(ctx: Resolution, robot: TurnRobot, hpBefore: number): void {
  if (robot.mode === 'destroyed') return
  for (let register = Math.min(hpBefore - 1, REGISTER_COUNT); register >= robot.hp; register--) {
    if (robot.fused[register] !== undefined) continue
    const card = ctx.registers[robot.seat]![register - 1] ?? null
    ownFused(ctx, robot)[register] = card
    emit(ctx, { time: now(ctx), kind: 'register-fused', player: robot.player, register, card })
  }
}

/**
 * Removes a robot from the board at once (R11). It costs the player one robot (R29); options are
 * hardware and go back to the bottom of the option deck (R32); a declared reboot lapses (R33).
 */
export function destroyRobot(ctx: Resolution, robot: TurnRobot, cause: DestroyCause): void {
  if (robot.mode === 'destroyed' || robot.at === null) return
  const at = robot.at
  placeRobot(ctx, robot, -1)
  robot.mode = 'destroyed'
  // FORMAT.md §3: a destroyed robot has 0 HP whatever destroyed it, and no registers to fuse.
  robot.hp = 0
  robot.fused = {}
  robot.robotsLeft = Math.max(0, robot.robotsLeft - 1)
  ctx.optionDeck.push(...robot.options)
  robot.options = []
  robot.rebootNext = false
  robot.rebooting = false
  if (robot.robotsLeft === 0) ctx.lostLastRobot.push(robot)
  emit(ctx, { time: now(ctx), kind: 'destroyed', player: robot.player, at, cause, robotsLeft: robot.robotsLeft })
}
