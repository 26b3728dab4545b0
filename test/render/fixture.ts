// A board that uses every element type (FORMAT.md section 1), for the picture tests.
import { compileBoard, parseBoard } from '../../src/engine/board.js'
import type { Board } from '../../src/engine/types.js'

export const EVERY_ELEMENT = {
  name: 'Every element',
  rows: 6,
  cols: 7,
  start: { at: 'r1c1', facing: 'N' },
  elements: [
    { type: 'wall', at: 'r2c2', side: 'N' },
    { type: 'wall', at: 'r1c7', side: 'E' },
    { type: 'pit', at: 'r3c3' },
    { type: 'conveyor', at: 'r2c4', dir: 'N', colour: 'blue' },
    { type: 'conveyor', at: 'r3c4', dir: 'N', colour: 'blue' },
    // A yellow belt that bends: r4c5 runs west into r4c4, which runs north.
    { type: 'conveyor', at: 'r4c5', dir: 'W', colour: 'yellow' },
    { type: 'conveyor', at: 'r4c4', dir: 'N', colour: 'yellow' },
    { type: 'pusher', at: 'r1c3', side: 'W', stages: [1, 3, 5] },
    { type: 'gear', at: 'r4c6', turn: 'left' },
    { type: 'gear', at: 'r5c6', turn: 'right' },
    { type: 'gear', at: 'r6c6', turn: 'uturn' },
    { type: 'crusher', at: 'r5c5', stages: [2, 4] },
    { type: 'laser', at: 'r3c1', dir: 'E', colour: 'blue', strength: 1 },
    { type: 'laser', at: 'r6c2', dir: 'S', colour: 'red', strength: 2 },
    { type: 'drawbridge', at: 'r4c2', side: 'S' },
    { type: 'drawbridge', at: 'r6c7', side: 'W' },
    { type: 'teleporter', at: 'r5c1', colour: 'amber', active: true },
    { type: 'teleporter', at: 'r6c4', colour: 'violet' },
    { type: 'switch', at: 'r1c5', kind: 'pressure', targets: ['r4c2', 'r5c1'] },
    { type: 'switch', at: 'r2c6', kind: 'toggle', targets: ['r6c4'] },
    { type: 'wrench', at: 'r2c5', count: 1 },
    { type: 'wrench', at: 'r2c7', count: 2 },
    { type: 'flag', at: 'r5c3', number: 1 },
    { type: 'flag', at: 'r3c7', number: 2 },
    { type: 'upgrade', at: 'r3c5' },
  ],
}

export function everyElementBoard(): Board {
  const parsed = parseBoard(EVERY_ELEMENT)
  if (!parsed.ok) throw new Error(parsed.error)
  return compileBoard(parsed.value)
}
