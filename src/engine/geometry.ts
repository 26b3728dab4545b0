// Squares, directions and their notations (R1, R2). Pure helpers used by every rule.
import { DIRECTIONS, type Direction, type Square } from './types.js'

// One way to write each square: no leading zeros, so that a square's text is its key everywhere.
const SQUARE_PATTERN = /^r([1-9]\d{0,2})c([1-9]\d{0,2})$/

/** Parses `r3c4` (R1); returns null for anything else. */
export function parseSquare(text: string): Square | null {
  const match = SQUARE_PATTERN.exec(text)
  if (!match) return null
  const row = Number(match[1])
  const col = Number(match[2])
  return row >= 1 && col >= 1 ? { row, col } : null
}

export function formatSquare(square: Square): string {
  return `r${square.row}c${square.col}`
}

export function sameSquare(a: Square | null, b: Square | null): boolean {
  return a !== null && b !== null && a.row === b.row && a.col === b.col
}

const DELTAS: Record<Direction, Square> = {
  N: { row: 1, col: 0 },
  E: { row: 0, col: 1 },
  S: { row: -1, col: 0 },
  W: { row: 0, col: -1 },
}

/** The square one step from `square` towards `dir` (R1: north is row + 1, east is col + 1). */
export function neighbour(square: Square, dir: Direction): Square {
  const d = DELTAS[dir]
  return { row: square.row + d.row, col: square.col + d.col }
}

/**
 * `DIRECTIONS.indexOf(dir)`, as a switch: robots turn at every turning card, belt bend and gear,
 * and a call into Array#indexOf cost more than the turn itself.
 */
export function directionIndex(dir: Direction): number {
  switch (dir) {
    case 'N': return 0
    case 'E': return 1
    case 'S': return 2
    case 'W': return 3
    default: return -1
  }
}

export function turnRight(dir: Direction): Direction {
  return DIRECTIONS[(directionIndex(dir) + 1) % 4]!
}

export function turnLeft(dir: Direction): Direction {
  return DIRECTIONS[(directionIndex(dir) + 3) % 4]!
}

export function opposite(dir: Direction): Direction {
  return DIRECTIONS[(directionIndex(dir) + 2) % 4]!
}

/** +1 when `to` is 90° clockwise of `from`, -1 when counter-clockwise, 0 otherwise (R18). */
export function quarterTurnBetween(from: Direction, to: Direction): -1 | 0 | 1 {
  const diff = (directionIndex(to) - directionIndex(from) + 4) % 4
  return diff === 1 ? 1 : diff === 3 ? -1 : 0
}

/**
 * Writes a straight run of squares as the rules' tables do (R1): `r4-6c7`, `r3c2-5`, or a
 * single square `r4c7`. The squares must lie on one row or one column, in order.
 */
export function formatRun(squares: readonly Square[]): string {
  if (squares.length === 0) return '-'
  const first = squares[0]!
  const last = squares[squares.length - 1]!
  if (squares.length === 1) return formatSquare(first)
  if (first.col === last.col) {
    const [lo, hi] = first.row < last.row ? [first.row, last.row] : [last.row, first.row]
    return `r${lo}-${hi}c${first.col}`
  }
  const [lo, hi] = first.col < last.col ? [first.col, last.col] : [last.col, first.col]
  return `r${first.row}c${lo}-${hi}`
}
