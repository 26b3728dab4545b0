// What must hold of the robots at every moment a turn shows (its start, each stage, its end), for
// the property tests: real robots never share a square (R24), HP within 0-10 (R27), never off the
// board (R3), off the floor exactly when destroyed, and a destroyed robot at 0 HP and not rebooting
// (FORMAT.md section 3).
import { expect } from 'vitest'
import { formatSquare } from '../../src/engine/geometry.js'
import type { Board, RobotSnapshot, RobotState } from '../../src/engine/types.js'

const onBoard = (board: Board, r: { at: { row: number; col: number } | null }) =>
  r.at === null || (r.at.row >= 1 && r.at.row <= board.rows && r.at.col >= 1 && r.at.col <= board.cols)

export function checkRobots(board: Board, robots: readonly (RobotSnapshot | RobotState)[], where: string): void {
  const real = robots.filter((r) => r.mode === 'real' && r.at !== null).map((r) => formatSquare(r.at!))
  expect(new Set(real).size, `${where}: two real robots share a square (${real.join(' ')})`).toBe(real.length)
  for (const r of robots) {
    expect(r.hp, `${where}: ${r.player} hp`).toBeGreaterThanOrEqual(0)
    expect(r.hp, `${where}: ${r.player} hp`).toBeLessThanOrEqual(10)
    expect(onBoard(board, r), `${where}: ${r.player} off the board`).toBe(true)
    expect(r.mode === 'destroyed', `${where}: ${r.player} is destroyed exactly when off the floor`).toBe(r.at === null)
    // FORMAT.md section 3: a destroyed robot has 0 HP and is not rebooting, whatever destroyed it.
    if (r.mode === 'destroyed') expect({ hp: r.hp, rebooting: r.rebooting }, `${where}: destroyed ${r.player}`).toEqual({ hp: 0, rebooting: false })
  }
}
