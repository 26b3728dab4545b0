// A board (and optionally its robots) as an ASCII map, row 1 at the bottom (R1): for
// `botwars board show`, for tests and for failure messages. Each square is three characters:
// its floor element and a mark for a turret or pusher on its walls.
import { squareIndex } from './board.js'
import { formatSquare } from './geometry.js'
import { WALL_BITS, type Board, type BoardState, type Direction, type FloorElement, type RobotSnapshot } from './types.js'

const ARROWS: Record<Direction, string> = { N: '^', E: '>', S: 'v', W: '<' }

function floorSymbol(element: FloorElement | null, state?: BoardState): string {
  if (!element) return '  '
  const key = formatSquare(element.at)
  switch (element.type) {
    case 'pit': return '##'
    case 'conveyor': return element.colour === 'blue' ? ARROWS[element.dir].repeat(2) : ` ${ARROWS[element.dir]}`
    case 'gear': return element.turn === 'left' ? 'G(' : element.turn === 'right' ? 'G)' : 'GU'
    case 'crusher': return `X${element.stages[0]}`
    case 'drawbridge': return state?.drawbridges[key] === 'lowered' ? '__' : `D${element.side.toLowerCase()}`
    case 'teleporter': return `T${element.colour[0]!.toLowerCase()}`
    case 'switch': return element.kind === 'pressure' ? 'Sp' : 'St'
    case 'wrench': return `W${element.count}`
    case 'flag': return element.number < 10 ? `F${element.number}` : String(element.number).slice(-2)
    case 'upgrade': return 'UP'
  }
}

export const ASCII_LEGEND = [
  '## pit   ^^ >> vv << express (blue) conveyor   ^ > v < conveyor (yellow)   G( G) GU gear left/right/u-turn',
  'Xn crusher (first stage)   Dn/De/Ds/Dw raised drawbridge (bridge side)   __ lowered drawbridge   Tx teleporter',
  'Sp pressure switch   St toggle switch   W1 W2 wrench   Fn flag   UP upgrade station   @ start square',
  'mark after a square: L laser turret (red: R), p pusher   | and --- walls   : and ... the board\'s edge, no wall',
  'a robot shows as its initial and facing (A^)',
].join('\n')

/** Draws the board; robots on the floor replace their square's symbol with their initial and facing. */
export function boardToAscii(board: Board, robots: readonly RobotSnapshot[] = [], state?: BoardState): string {
  const lines: string[] = []
  const header = '     ' + Array.from({ length: board.cols }, (_, i) => `c${i + 1}`.padEnd(4)).join('')
  lines.push(header.trimEnd())
  const hasWall = (row: number, col: number, dir: Direction) =>
    row >= 1 && col >= 1 && row <= board.rows && col <= board.cols && (board.walls[squareIndex(board, { row, col })]! & WALL_BITS[dir]) !== 0
  const horizontal = (row: number) => {
    // The line above `row` (between row and row + 1).
    let line = '    +'
    for (let col = 1; col <= board.cols; col++) {
      const wall = hasWall(row, col, 'N') || hasWall(row + 1, col, 'S')
      const edge = row === 0 || row === board.rows
      line += (wall ? '---' : edge ? '...' : '   ') + '+'
    }
    return line
  }
  lines.push(horizontal(board.rows))
  for (let row = board.rows; row >= 1; row--) {
    let line = `r${row}`.padEnd(4) + (hasWall(row, 1, 'W') ? '|' : ':')
    for (let col = 1; col <= board.cols; col++) {
      const square = { row, col }
      const index = squareIndex(board, square)
      const robot = robots.find((r) => r.at && r.at.row === row && r.at.col === col && r.mode !== 'destroyed')
      let cell = floorSymbol(board.floor[index] ?? null, state)
      if (board.start.at.row === row && board.start.at.col === col && cell === '  ') cell = ' @'
      if (robot) cell = `${robot.player[0]!.toUpperCase()}${ARROWS[robot.facing]}`
      const turret = board.lasers.find((l) => l.at.row === row && l.at.col === col)
      const pusher = board.pushers.find((p) => p.at.row === row && p.at.col === col)
      const mark = turret ? (turret.colour === 'red' ? 'R' : 'L') : pusher ? 'p' : ' '
      const east = hasWall(row, col, 'E') || hasWall(row, col + 1, 'W')
      line += cell + mark + (east ? '|' : col === board.cols ? ':' : ' ')
    }
    lines.push(line)
    lines.push(horizontal(row - 1))
  }
  return lines.join('\n')
}
