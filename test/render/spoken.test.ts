// The report's short forms spelled out for screen readers; the visible tables keep the short form.
import { describe, expect, it } from 'vitest'
import { spokenCard, spokenLine } from '../../src/render/spoken.js'

describe('spoken forms of the report', () => {
  it('names cards with their priority', () => {
    expect(spokenCard('LF90:350')).toBe('Turn left, priority 350')
    expect(spokenCard('FWD3:840')).toBe('Move 3, priority 840')
    expect(spokenCard('ZZZZ:10')).toBe('ZZZZ:10')
    expect(spokenLine('register 3 fused (UTRN:60)')).toBe('register 3 fused (U-turn, priority 60)')
  })

  it('spells out runs of squares, facings, time indices and damage', () => {
    expect(spokenLine('r1c5-8')).toBe('r1 c5 to c8')
    expect(spokenLine('blue laser r2-6c3')).toBe('blue laser r2 to r6 c3')
    expect(spokenLine('face N')).toBe('face north')
    expect(spokenLine('gear: face W')).toBe('gear: face west')
    expect(spokenLine('pushed by Bob to r3c4 @350.2')).toBe('pushed by Bob to r3c4 at priority 350, step 2')
    expect(spokenLine('shot by Bob -1 HP')).toBe('shot by Bob minus 1 HP')
    expect(spokenLine('→ Bob (2)')).toBe('hits Bob for 2 damage')
    expect(spokenLine('→ real')).toBe('becomes real')
    expect(spokenLine('repaired +2')).toBe('repaired 2 HP')
    expect(spokenLine('-')).toBe('none')
  })

  it('leaves plain words alone', () => {
    expect(spokenLine('move to r3c4')).toBe('move to r3c4')
    expect(spokenLine('9 HP')).toBe('9 HP')
  })
})
