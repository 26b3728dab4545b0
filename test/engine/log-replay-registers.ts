// Fused registers as the log tells them (R27, R31, R33): a robot whose HP falls to h <= 5 and
// survives has every register from h to 5 fused at once, keeping the card it holds this turn; a
// repair unfuses every register below the new HP; a reboot and a destruction clear them all.
// Each damage or repair says which register events must follow in the same moment, as the robot's
// HP now stands: a later strike of the same moment (a volley, R23, R26) replaces what an earlier
// one called for, and a robot the moment destroys fuses nothing in it (R11, R27).
import type { GameEvent } from '../../src/engine/events.js'
import { formatCard } from '../../src/engine/deck.js'
import { REGISTER_COUNT } from '../../src/engine/types.js'
import type { ReplayedRobot, World } from './log-replay-world.js'

/** After a robot's HP changed (the event applied): the register events that must follow. */
export function expectRegisters(world: World, player: string, robot: ReplayedRobot): void {
  world.registerEvents = world.registerEvents.filter((due) => due.player !== player)
  if (robot.hp <= 0) return // a destroyed robot fuses nothing
  for (let k = 1; k <= REGISTER_COUNT; k++) {
    const fused = robot.fused.has(k)
    if (!fused && k >= robot.hp) {
      const card = world.registers[player]?.[k - 1] ?? null
      world.registerEvents.push({ player, words: `${player} register ${k} fused with ${card === null ? 'no card' : formatCard(card)}` })
    }
    if (fused && k < robot.hp) world.registerEvents.push({ player, words: `${player} register ${k} unfused` })
  }
}

/** Checks a register event against what the HP changes before it call for, and plays it. */
export function registerEvent(world: World, robot: ReplayedRobot, event: GameEvent, where: string, problems: string[]): void {
  if (event.kind !== 'register-fused' && event.kind !== 'register-unfused') return
  const words = event.kind === 'register-fused'
    ? `${event.player} register ${event.register} fused with ${event.card === null ? 'no card' : formatCard(event.card)}`
    : `${event.player} register ${event.register} unfused`
  const i = world.registerEvents.findIndex((due) => due.words === words)
  if (i >= 0) world.registerEvents.splice(i, 1)
  else problems.push(`${where}: ${words}, which no change of HP called for (R27)`)
  if (event.kind === 'register-fused') {
    robot.fused.add(event.register)
    world.fusedThisMoment.add(event.player)
  } else {
    robot.fused.delete(event.register)
  }
}

/** At the end of a moment: register events called for and not shown, and fusing by a robot the moment destroyed. */
export function registerLeftovers(world: World, where: string, problems: string[]): void {
  for (const due of world.registerEvents) problems.push(`${where}: the log does not show: ${due.words} (R27)`)
  for (const player of world.fusedThisMoment) {
    if (world.robots.get(player)?.mode === 'destroyed') problems.push(`${where}: ${player} fused a register in the moment that destroyed it (R11, R27)`)
  }
  world.registerEvents = []
  world.fusedThisMoment.clear()
}
