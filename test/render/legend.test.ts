// The legend's data: one entry per symbol, drawn by the picture's own symbol functions.
import { describe, expect, it } from 'vitest'
import { ELEMENT_TYPES } from '../../src/engine/types.js'
import { legendEntries } from '../../src/render/legend.js'
import { boardPng, PNG_SIGNATURE } from '../../src/render/png.js'
import { allElements, byClass } from './svg-query.js'

describe('legendEntries', () => {
  const entries = legendEntries()

  it('has one entry per symbol, each with a label, an explanation and a one-square picture', () => {
    expect(new Set(entries.map((e) => e.type)).size).toBe(entries.length)
    for (const entry of entries) {
      expect(entry.label.length).toBeGreaterThan(0)
      expect(entry.explanation.length).toBeGreaterThan(10)
      const root = allElements(entry.svg)[0]!
      expect(root.tag).toBe('svg')
      expect(root.attrs.class).toBe('legend-square')
    }
  })

  it('covers every element type, both conveyor colours, every gear, both switch kinds, robots and shots', () => {
    const types = entries.map((e) => e.type)
    for (const type of ELEMENT_TYPES) expect(types.some((t) => t === type || t.startsWith(`${type}-`)), type).toBe(true)
    expect(types).toEqual(expect.arrayContaining([
      'conveyor-yellow', 'conveyor-blue', 'conveyor-turn', 'gear-left', 'gear-right', 'gear-uturn',
      'laser-blue', 'laser-red', 'drawbridge-raised', 'drawbridge-lowered', 'teleporter-active', 'teleporter-inactive',
      'switch-pressure', 'switch-toggle', 'wrench-1', 'wrench-2', 'start', 'robot', 'robot-virtual', 'robot-rebooting',
      'shot-robot', 'shot-board',
    ]))
  })

  it('draws element entries with the same symbol group the board picture uses', () => {
    for (const entry of entries) {
      const type = entry.type.split('-')[0]!
      if (!(ELEMENT_TYPES as readonly string[]).includes(type)) continue
      expect(byClass(entry.svg, 'el', type), entry.type).toHaveLength(1)
    }
  })

  it('renders each entry to PNG', () => {
    for (const entry of entries) expect(boardPng(entry.svg).subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
  })
})
