// How robots move, as the log tells it, against the cards and the walls: every robot with a card
// in the stage's register plays that card, unless it is rebooting or was destroyed first (R10, R11,
// R33); a card's steps go the way its kind says from the robot's facing and are all taken unless an
// obstruction ends the card, the robot is destroyed or its steps run out (R2, R12, R13, R17); its
// turns turn the robot as its kind says; robots it pushes go the same way (R13); and no move
// crosses a wall, or a raised drawbridge's bridge side (R4, R15).
import type { GameEvent } from '../../src/engine/events.js'
import { formatCard } from '../../src/engine/deck.js'
import { opposite, turnLeft, turnRight } from '../../src/engine/geometry.js'
import type { CardKind, Direction } from '../../src/engine/types.js'
import { barrier, key, stepDirection, type Watch, type World } from './log-replay-world.js'

/** A card being played: what it still may do. */
interface Playing { player: string; kind: CardKind; dir: Direction | null; stepsLeft: number; turned: boolean; ended: boolean; label: string }

const MOVES: Partial<Record<CardKind, [steps: number, dir: (facing: Direction) => Direction]>> = {
  FWD1: [1, (f) => f], FWD2: [2, (f) => f], FWD3: [3, (f) => f],
  RVS1: [1, opposite], RVS2: [2, opposite], RVS3: [3, opposite],
  SLF1: [1, turnLeft], SRT1: [1, turnRight],
}
const TURNS: Partial<Record<CardKind, (facing: Direction) => Direction>> = { LF90: turnLeft, RT90: turnRight, UTRN: opposite }

export function cardWatch(world: World, stage: number, label: string, problems: string[]): Watch {
  let playing: Playing | null = null
  const played = new Set<string>()
  let movementOver = false
  // Whether each robot's register for this stage is fused as the stage begins (the watch is made
  // then): a card-played event says so, and the story marks the card "(fused)" (R27).
  const fusedAtStart = new Map([...world.robots].map(([player, robot]) => [player, robot.fused.has(stage)]))
  // R10, R11, R33: every robot with a card in this stage's register plays it, unless it is rebooting
  // or was destroyed before its turn came; nobody else plays.
  const unplayed = () => {
    if (movementOver) return
    movementOver = true
    for (const [player, robot] of world.robots) {
      const card = world.registers[player]?.[stage - 1] ?? null
      if (card !== null && !played.has(player) && !robot.rebooting && robot.at !== null && robot.mode !== 'destroyed') {
        problems.push(`${label} movement: ${player} did not play ${formatCard(card)} (R10)`)
      }
    }
  }
  const finish = () => {
    const card = playing
    playing = null
    if (!card) return
    const robot = world.robots.get(card.player)
    const stillThere = robot !== undefined && robot.at !== null && robot.mode !== 'destroyed'
    if (card.dir !== null && card.stepsLeft > 0 && !card.ended && stillThere) {
      problems.push(`${card.label}: ${card.player}'s ${card.kind} stopped with ${card.stepsLeft} step(s) left and no obstruction (R12)`)
    }
    if (TURNS[card.kind] && !card.turned && stillThere) problems.push(`${card.label}: ${card.player}'s ${card.kind} did not turn it (R2)`)
  }
  return {
    /** Before the event is applied to the world. */
    event(event: GameEvent, where: string) {
      if (event.kind === 'card-played' || event.time.phase !== 'movement') finish()
      if (event.time.phase !== 'movement') unplayed()
      if (event.kind === 'moved' || event.kind === 'teleported') wallProblems(world, event, where, problems)
      if (event.kind === 'card-played') {
        const robot = world.robots.get(event.player)!
        const card = world.registers[event.player]?.[stage - 1] ?? null
        if (card === null || formatCard(card) !== formatCard(event.card) || event.register !== stage) {
          problems.push(`${where}: ${event.player} played ${formatCard(event.card)} from register ${event.register}, which holds ${card === null ? 'no card' : formatCard(card)} (R8, R10)`)
        }
        if (event.fused !== fusedAtStart.get(event.player)) {
          problems.push(`${where}: ${event.player}'s register ${stage} told ${event.fused ? '' : 'not '}fused, which it was ${event.fused ? 'not ' : ''}as the stage began (R27)`)
        }
        played.add(event.player)
        const move = MOVES[event.card.kind]
        playing = { player: event.player, kind: event.card.kind, dir: move ? move[1](robot.facing) : null, stepsLeft: move ? move[0] : 0, turned: false, ended: false, label: where }
        return
      }
      const card = playing
      if (!card || !('player' in event)) return
      if (event.kind === 'obstructed' && event.player === card.player) card.ended = true
      if (event.kind === 'turned' && event.cause === 'card') {
        const robot = world.robots.get(event.player)!
        const turn = TURNS[card.kind]
        if (event.player !== card.player || !turn || card.turned || event.facing !== turn(robot.facing)) {
          problems.push(`${where}: ${event.player} turned ${event.facing} while ${card.player} plays ${card.kind} (R2)`)
        }
        card.turned = true
      }
      if (event.kind === 'moved' && (event.cause === 'card' || event.cause === 'push')) {
        const dir = stepDirection(event.from, event.to)
        const mine = event.cause === 'card' ? event.player === card.player : event.by === card.player
        if (!mine || dir !== card.dir || card.ended || card.stepsLeft <= 0) {
          problems.push(`${where}: ${event.player} ${event.cause === 'card' ? 'stepped' : 'was pushed'} ${dir ?? 'away'} while ${card.player} plays ${card.kind} (${card.dir ?? 'no step'}, ${card.stepsLeft} left${card.ended ? ', ended' : ''}) (R12, R13)`)
        }
        if (event.cause === 'card') card.stepsLeft--
      }
    },
    end() {
      finish()
      unplayed()
    },
  }
}

/** A move (not a teleport) goes one square, across no wall and not over a raised drawbridge's bridge side (R4, R15). */
function wallProblems(world: World, event: Extract<GameEvent, { kind: 'moved' | 'teleported' }>, where: string, problems: string[]): void {
  if (event.kind === 'teleported') return
  const dir = stepDirection(event.from, event.to)
  const from = key(event.from)!, to = key(event.to)!
  if (dir === null) {
    problems.push(`${where}: ${event.player} moved from ${from} to ${to}, which do not touch`)
    return
  }
  const stop = barrier(world, from, dir)
  if (stop === 'wall') problems.push(`${where}: ${event.player} moved from ${from} to ${to} through a wall (R4)`)
  if (stop === 'bridge') problems.push(`${where}: ${event.player} moved onto the raised drawbridge ${to} across its bridge side (R15)`)
}
