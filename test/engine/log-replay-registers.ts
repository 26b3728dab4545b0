// Fused registers as the log tells them (R27, R31, R33): a robot whose HP falls to h <= 5 and
// survives has every register from h to 5 fused at once, keeping the card it holds this turn; a
// repair unfuses every register below the new HP; a reboot and a destruction clear them all.
// Each damage or repair says which register events must follow in the same moment.
import type { GameEvent } from '../../src/engine/events.js'
import { formatCard } from '../../src/engine/deck.js'
import { REGISTER_COUNT } from '../../src/engine/types.js'
import type { ReplayedRobot, World } from './log-replay-world.js'

/** After a robot's HP changed (the event applied): the register events that must follow. */
export function expectRegisters(world: World, player: string, robot: ReplayedRobot): void {
  if (robot.hp <= 0) return // a destroyed robot fuses nothing
  for (let k = 1; k <= REGISTER_COUNT; k++) {
    const fused = robot.fused.has(k)
    if (!fused && k >= robot.hp) {
      const card = world.registers[player]?.[k - 1] ?? null
      world.registerEvents.push(`${player} register ${k} fused with ${card === null ? 'no card' : formatCard(card)}`)
    }
    if (fused && k < robot.hp) world.registerEvents.push(`${player} register ${k} unfused`)
  }
}

/** Checks a register event against what the HP changes before it call for, and plays it. */
export function registerEvent(world: World, robot: ReplayedRobot, event: GameEvent, where: string, problems: string[]): void {
  if (event.kind !== 'register-fused' && event.kind !== 'register-unfused') return
  const words = event.kind === 'register-fused'
    ? `${event.player} register ${event.register} fused with ${event.card === null ? 'no card' : formatCard(event.card)}`
    : `${event.player} register ${event.register} unfused`
  const i = world.registerEvents.indexOf(words)
  if (i >= 0) world.registerEvents.splice(i, 1)
  else problems.push(`${where}: ${words}, which no change of HP called for (R27)`)
  if (event.kind === 'register-fused') robot.fused.add(event.register)
  else robot.fused.delete(event.register)
}

/** At the end of a moment: register events called for and not shown. */
export function registerLeftovers(world: World, where: string, problems: string[]): void {
  for (const words of world.registerEvents) problems.push(`${where}: the log does not show: ${words} (R27)`)
  world.registerEvents = []
}
