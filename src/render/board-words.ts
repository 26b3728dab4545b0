// The board in words: what a board picture shows, said in sentences, for players who cannot see
// the picture (screen readers, braille, text-only mail clients). Pure like the pictures: a board,
// the robots as they stand and the mechanisms' state in, plain text out; no rule is re-run.
//
// It says where every robot stands, which way it faces, its mode and HP, the flags it still has
// to tag and where they are; and, for the viewer's own robot, every board piece within two
// squares (R1 names the squares: row 1 at the bottom, column 1 at the left).
import { initialBoardState, isOnBoard } from '../engine/board.js'
import { opposite, turnLeft, turnRight } from '../engine/geometry.js'
import type { Board, BoardElement, BoardState, Direction, RobotSnapshot, Square } from '../engine/types.js'
import { beamSquares } from './beams.js'
import { sq } from './util.js'

/** A robot as the picture draws it, plus the flags tagged so far where that is known. */
export type WordsRobot = RobotSnapshot & { flags?: number }

export interface BoardWordsInput {
  board: Board
  robots: readonly WordsRobot[]
  /** Switches, drawbridges and teleporters as they stand; default: as the board starts. */
  boardState?: BoardState | null
  /** Player → display name. */
  names?: Record<string, string>
  /** The player whose robot's surroundings are described (the signed-in player), if any. */
  viewer?: string | null
}

export interface RobotWords {
  player: string
  name: string
  /** "r3c4, facing north, real, 9 HP" */
  where: string
  /** "flag 2 at r8c5 (5 north, 1 east), then flag 3 at r1c12"; null when the count is unknown. */
  flagsToTag: string | null
}

export interface BoardWords {
  /** "Training floor: 12 columns by 12 rows; 3 flags. The start square is r1c1, facing north." */
  summary: string
  robots: RobotWords[]
  /** The viewer's robot's surroundings, square by square; null without a viewer on the board. */
  nearby: { player: string; name: string; lines: string[] } | null
}

export const DIRECTION_WORDS: Record<Direction, string> = { N: 'north', E: 'east', S: 'south', W: 'west' }

/** "1", "1 and 3", "1, 3 and 5". */
export function listWords(items: readonly (string | number)[]): string {
  const words = items.map(String)
  if (words.length <= 1) return words.join('')
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`
}

/** "1 card", "9 cards": a count and its noun, for people (pages, mail and the board in words). */
export const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

const squares = (count: number) => plural(count, 'square')

/** Where `to` lies from `from`: "here", "1 north", "2 north, 1 east". */
export function offsetWords(from: Square, to: Square): string {
  const dr = to.row - from.row
  const dc = to.col - from.col
  const parts: string[] = []
  if (dr) parts.push(`${Math.abs(dr)} ${dr > 0 ? 'north' : 'south'}`)
  if (dc) parts.push(`${Math.abs(dc)} ${dc > 0 ? 'east' : 'west'}`)
  return parts.length ? parts.join(', ') : 'here'
}

/** "ahead", "behind", "to the left", "to the right" for squares straight in line with a facing robot. */
function relativeWords(from: Square, facing: Direction, to: Square): string | null {
  const dr = to.row - from.row
  const dc = to.col - from.col
  if (dr && dc) return null
  const dir: Direction | null = dr > 0 ? 'N' : dr < 0 ? 'S' : dc > 0 ? 'E' : dc < 0 ? 'W' : null
  if (!dir) return null
  if (dir === facing) return 'ahead'
  if (dir === opposite(facing)) return 'behind'
  if (dir === turnLeft(facing)) return 'to the left'
  if (dir === turnRight(facing)) return 'to the right'
  return null
}

function modeWords(robot: WordsRobot): string {
  const mode = robot.mode === 'virtual' ? 'virtual (passes through other robots)' : robot.mode
  return robot.rebooting ? `${mode}, rebooting` : mode
}

/** One board piece of a square, as a phrase: "express conveyor moving east", "wall on the north side". */
export function elementWords(element: BoardElement, state: BoardState): string {
  const key = sq(element.at)
  switch (element.type) {
    case 'wall': return `wall on the ${DIRECTION_WORDS[element.side]} side`
    case 'pit': return 'pit'
    case 'conveyor': return `${element.colour === 'blue' ? 'express conveyor' : 'conveyor'} moving ${DIRECTION_WORDS[element.dir]}`
    case 'pusher':
      return `pusher on the ${DIRECTION_WORDS[element.side]} wall, pushing ${DIRECTION_WORDS[opposite(element.side)]} in stage${element.stages.length === 1 ? '' : 's'} ${listWords(element.stages)}`
    case 'gear': return element.turn === 'uturn' ? 'gear turning robots round (U-turn)' : `gear turning robots ${element.turn}`
    case 'crusher': return `crusher in stage${element.stages.length === 1 ? '' : 's'} ${listWords(element.stages)}`
    case 'laser':
      return `${element.colour} laser turret on the ${DIRECTION_WORDS[opposite(element.dir)]} wall, firing ${DIRECTION_WORDS[element.dir]}, ${element.strength} damage`
    case 'drawbridge':
      return (state.drawbridges[key] ?? 'raised') === 'raised'
        ? `raised drawbridge (a pit; its bridge is on the ${DIRECTION_WORDS[element.side]} side)`
        : 'lowered drawbridge (plain floor)'
    case 'teleporter': {
      const active = (state.teleporters[key] ?? (element.active ? 'active' : 'inactive')) === 'active'
      return `${element.colour} teleporter, ${active ? 'active' : 'inactive'}`
    }
    case 'switch':
      return `${element.kind} switch, ${state.switches[key] ?? 'off'}, works ${listWords(element.targets.map(sq))}`
    case 'wrench': return element.count === 2 ? 'double wrench (repairs 2 HP or gives an option)' : 'wrench (repairs 1 HP)'
    case 'flag': return `flag ${element.number}`
    case 'upgrade': return 'upgrade station'
  }
}

/** Board pieces by square name, in board order (a square's floor element, then its walls, pushers, turrets). */
function piecesBySquare(board: Board): Map<string, BoardElement[]> {
  const map = new Map<string, BoardElement[]>()
  const floorFirst = [...board.elements].sort((a, b) => Number(a.type === 'wall' || a.type === 'pusher' || a.type === 'laser') - Number(b.type === 'wall' || b.type === 'pusher' || b.type === 'laser'))
  for (const element of floorFirst) {
    const key = sq(element.at)
    const list = map.get(key) ?? []
    list.push(element)
    map.set(key, list)
  }
  return map
}

/** The flags a robot still has to tag, in order, with where they are from the robot. */
function flagsWords(board: Board, robot: WordsRobot): string | null {
  if (robot.flags === undefined) return null
  const flags = board.elements
    .filter((e): e is Extract<BoardElement, { type: 'flag' }> => e.type === 'flag' && e.number > robot.flags!)
    .sort((a, b) => a.number - b.number)
  if (!flags.length) return 'every flag tagged'
  return flags.map((f, i) => {
    const from = robot.at && i === 0 ? ` (${offsetWords(robot.at, f.at)})` : ''
    return `${i === 0 ? '' : 'then '}flag ${f.number} at ${sq(f.at)}${from}`
  }).join(', ')
}

function robotWhere(robot: WordsRobot): string {
  if (robot.mode === 'destroyed' || !robot.at) return robot.mode === 'destroyed' ? 'destroyed, not on the board' : 'not on the board'
  return `${sq(robot.at)}, facing ${DIRECTION_WORDS[robot.facing]}, ${modeWords(robot)}, ${robot.hp} HP`
}

/** What stands within two squares of `robot`: one line per square that holds anything, nearest first. */
function surroundings(board: Board, state: BoardState, robot: WordsRobot & { at: Square }, robots: readonly WordsRobot[], nameOf: (p: string) => string): string[] {
  const pieces = piecesBySquare(board)
  const beams = new Map<string, string[]>()
  for (const laser of board.lasers) {
    // The turret's own square is said once, as the turret; the beam is said on the squares after it.
    for (const s of beamSquares(board, state, laser).slice(1)) {
      const list = beams.get(sq(s)) ?? []
      list.push(`in the beam of the ${laser.colour} laser at ${sq(laser.at)} (firing ${DIRECTION_WORDS[laser.dir]}, ${laser.strength} damage)`)
      beams.set(sq(s), list)
    }
  }
  const lines: { distance: number; row: number; col: number; text: string }[] = []
  for (let dr = 2; dr >= -2; dr--) {
    for (let dc = -2; dc <= 2; dc++) {
      const at = { row: robot.at.row + dr, col: robot.at.col + dc }
      if (!isOnBoard(board, at)) continue
      const key = sq(at)
      const things = (pieces.get(key) ?? []).map((e) => elementWords(e, state))
      if (board.start.at.row === at.row && board.start.at.col === at.col) things.push(`start square (facing ${DIRECTION_WORDS[board.start.facing]})`)
      things.push(...(beams.get(key) ?? []))
      for (const other of robots) {
        if (other.player !== robot.player && other.at && other.mode !== 'destroyed' && sq(other.at) === key) {
          things.push(`${nameOf(other.player)}'s robot, facing ${DIRECTION_WORDS[other.facing]}${other.mode === 'virtual' ? ' (virtual)' : ''}`)
        }
      }
      if (!things.length) continue
      const relative = relativeWords(robot.at, robot.facing, at)
      const where = dr === 0 && dc === 0 ? `${key}, your square` : `${key}, ${offsetWords(robot.at, at)}${relative ? ` (${relative})` : ''}`
      lines.push({ distance: Math.max(Math.abs(dr), Math.abs(dc)), row: -at.row, col: at.col, text: `${where}: ${things.join('; ')}` })
    }
  }
  lines.sort((a, b) => a.distance - b.distance || a.row - b.row || a.col - b.col)
  const edges = (['N', 'E', 'S', 'W'] as const).flatMap((dir) => {
    const gap = dir === 'N' ? board.rows - robot.at.row : dir === 'S' ? robot.at.row - 1 : dir === 'E' ? board.cols - robot.at.col : robot.at.col - 1
    return gap <= 2 ? [gap === 0 ? `right beside you to the ${DIRECTION_WORDS[dir]}` : `${squares(gap)} ${DIRECTION_WORDS[dir]}`] : []
  })
  const out = lines.map((l) => l.text)
  if (edges.length) out.push(`The board's edge (the electric fence): ${listWords(edges)}.`)
  if (!lines.length) out.unshift('Nothing but plain floor within two squares.')
  return out
}

export function boardInWords(input: BoardWordsInput): BoardWords {
  const { board } = input
  const state = input.boardState ?? initialBoardState(board)
  const nameOf = (player: string) => input.names?.[player] ?? player
  const flags = board.elements.filter((e) => e.type === 'flag').length
  const summary = `${board.name}: ${board.cols} columns by ${board.rows} rows; ${flags} flag${flags === 1 ? '' : 's'}. ` +
    `Squares are named r(row)c(column); row 1 is the bottom (south) row, column 1 the left (west) column. ` +
    `The start square is ${sq(board.start.at)}, facing ${DIRECTION_WORDS[board.start.facing]}.`
  const robots = input.robots.map((robot) => ({
    player: robot.player, name: nameOf(robot.player), where: robotWhere(robot), flagsToTag: flagsWords(board, robot),
  }))
  const mine = input.viewer ? input.robots.find((r) => r.player === input.viewer) : undefined
  const nearby = mine && mine.at && mine.mode !== 'destroyed'
    ? { player: mine.player, name: nameOf(mine.player), lines: surroundings(board, state, { ...mine, at: mine.at }, input.robots, nameOf) }
    : null
  return { summary, robots, nearby }
}

interface FlagLog {
  stages: readonly { events: readonly { kind: string; player?: string }[] }[]
  end: { events: readonly { kind: string; player?: string }[]; robots: readonly { player: string; flags: number }[] }
}

/**
 * Flags tagged by each player before stage 1 (index 0) and after each stage (index k), read from
 * the turn's log: the end-of-turn count less the flags tagged later. Stage snapshots carry no count.
 */
export function flagsAtStages(result: FlagLog): Record<string, number>[] {
  const tagged = (events: FlagLog['end']['events'], player: string) => events.filter((e) => e.kind === 'flag-tagged' && e.player === player).length
  const counts: Record<string, number>[] = []
  let now = Object.fromEntries(result.end.robots.map((r) => [r.player, r.flags - tagged(result.end.events, r.player)]))
  for (let k = result.stages.length - 1; k >= 0; k--) {
    counts.unshift(now)
    now = Object.fromEntries(Object.entries(now).map(([player, flags]) => [player, flags - tagged(result.stages[k]!.events, player)]))
  }
  counts.unshift(now)
  return counts
}
