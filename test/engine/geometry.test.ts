// R1 coordinates and runs, R2 facing, R18's quarter turns: the notation helpers every rule uses.
import { describe, expect, it } from 'vitest'
import { formatRun, formatSquare, neighbour, opposite, parseSquare, quarterTurnBetween, sameSquare, turnLeft, turnRight } from '../../src/engine/geometry.js'
import { sq } from './helpers.js'

describe('R1 squares', () => {
  it('reads and writes r<row>c<col>', () => {
    expect(parseSquare('r3c4')).toEqual({ row: 3, col: 4 })
    expect(parseSquare('r12c50')).toEqual({ row: 12, col: 50 })
    expect(formatSquare({ row: 4, col: 7 })).toBe('r4c7')
    for (const text of ['r1c1', 'r5c2', 'r50c50']) expect(formatSquare(parseSquare(text)!)).toBe(text)
  })
  it('refuses anything else', () => {
    for (const text of ['', 'c3r4', 'r0c1', 'r1c0', 'R3C4', 'r3 c4', 'r-1c2', 'r3c', 'rc3', 'r3c4 ', 'x']) expect(parseSquare(text)).toBeNull()
  })
  it('north is row + 1, east is col + 1, south and west the other way', () => {
    expect(neighbour(sq('r2c2'), 'N')).toEqual(sq('r3c2'))
    expect(neighbour(sq('r2c2'), 'E')).toEqual(sq('r2c3'))
    expect(neighbour(sq('r2c2'), 'S')).toEqual(sq('r1c2'))
    expect(neighbour(sq('r2c2'), 'W')).toEqual(sq('r2c1'))
  })
  it('compares squares, and null is never the same square', () => {
    expect(sameSquare(sq('r2c3'), { row: 2, col: 3 })).toBe(true)
    expect(sameSquare(sq('r2c3'), sq('r3c2'))).toBe(false)
    expect(sameSquare(null, sq('r1c1'))).toBe(false)
    expect(sameSquare(null, null)).toBe(false)
  })
  it('writes a straight run as the report tables do: r4-6c7 or r3c2-5', () => {
    expect(formatRun([sq('r4c7'), sq('r5c7'), sq('r6c7')])).toBe('r4-6c7')
    expect(formatRun([sq('r6c7'), sq('r5c7'), sq('r4c7')])).toBe('r4-6c7')
    expect(formatRun([sq('r3c2'), sq('r3c3'), sq('r3c4'), sq('r3c5')])).toBe('r3c2-5')
    expect(formatRun([sq('r3c5'), sq('r3c4')])).toBe('r3c4-5')
    expect(formatRun([sq('r2c2')])).toBe('r2c2')
  })
})

describe('R2 facing', () => {
  it('LF90 turns counter-clockwise, RT90 clockwise, UTRN half way', () => {
    expect(['N', 'E', 'S', 'W'].map((d) => turnLeft(d as 'N'))).toEqual(['W', 'N', 'E', 'S'])
    expect(['N', 'E', 'S', 'W'].map((d) => turnRight(d as 'N'))).toEqual(['E', 'S', 'W', 'N'])
    expect(['N', 'E', 'S', 'W'].map((d) => opposite(d as 'N'))).toEqual(['S', 'W', 'N', 'E'])
  })
  it('four turns the same way come back round', () => {
    for (const d of ['N', 'E', 'S', 'W'] as const) {
      expect(turnLeft(turnLeft(turnLeft(turnLeft(d))))).toBe(d)
      expect(turnRight(turnLeft(d))).toBe(d)
      expect(opposite(opposite(d))).toBe(d)
      expect(turnRight(turnRight(d))).toBe(opposite(d))
    }
  })
  it('R18: a belt 90° clockwise from the one left is +1, counter-clockwise -1, straight or reversed 0', () => {
    expect(quarterTurnBetween('N', 'E')).toBe(1)
    expect(quarterTurnBetween('W', 'N')).toBe(1)
    expect(quarterTurnBetween('E', 'N')).toBe(-1)
    expect(quarterTurnBetween('N', 'W')).toBe(-1)
    expect(quarterTurnBetween('N', 'N')).toBe(0)
    expect(quarterTurnBetween('N', 'S')).toBe(0)
  })
})
