// The engine's own drawing (random.ts Generator) must give exactly pure-rand's xoroshiro128+ and
// uniformInt, draw for draw, and leave the same state: stored games replay with the stream they
// were played with (R7, R9, R32, R33).
import fc from 'fast-check'
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus'
import { describe, expect, it } from 'vitest'
import { Generator, seedRandom, shuffleInPlace, shuffleWith, withGenerator, withRandom } from '../../src/engine/random.js'

const int32 = fc.integer({ min: -0x80000000, max: 0x7fffffff })
const states = fc.oneof(int32.map(seedRandom), fc.tuple(int32, int32, int32, int32))
// Ranges of every kind: tiny, a deck's, just above and below powers of two, and the largest (2^32 values).
const ranges = fc.oneof(
  fc.integer({ min: 0, max: 120 }),
  fc.constantFrom(1, 2, 3, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 3 * 2 ** 30, 2 ** 32 - 2, 2 ** 32 - 1),
  fc.integer({ min: 0, max: 2 ** 32 - 1 }),
).chain((span) => fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.constant(span)))

describe('the seeded generator', () => {
  it('draws exactly what pure-rand draws, in any range of up to 2^32 integers, and ends in the same state', () => {
    fc.assert(fc.property(states, fc.array(ranges, { maxLength: 40 }), (state, draws) => {
      const theirs = xoroshiro128plusFromState(state)
      const expected = draws.map(([min, span]) => uniformInt(theirs, min, min + span))
      const [ours, end] = withGenerator(state, (generator) => draws.map(([min, span]) => generator.int(min, min + span)))
      expect(ours).toEqual(expected)
      expect(end).toEqual([...theirs.getState()])
    }), { numRuns: 2000 })
  })
  it('gives back a state nothing was drawn from unchanged', () => {
    const state = [4294967295, 1, -2, 3]
    expect(withGenerator(state, () => null)[1]).toEqual(state)
    expect(new Generator(state).state()).toEqual(state)
  })
  it('shuffles a deck as the Fisher–Yates shuffle with pure-rand did, through a closure or not', () => {
    fc.assert(fc.property(states, fc.integer({ min: 0, max: 120 }), (state, size) => {
      const deck = Array.from({ length: size }, (_, i) => i)
      const theirs = xoroshiro128plusFromState(state)
      const expected = shuffleInPlace(deck.slice(), (min, max) => uniformInt(theirs, min, max))
      expect(withRandom(state, (randomInt) => shuffleInPlace(deck.slice(), randomInt))).toEqual([expected, [...theirs.getState()]])
      expect(withGenerator(state, (generator) => shuffleWith(deck.slice(), generator))).toEqual([expected, [...theirs.getState()]])
    }), { numRuns: 500 })
  })
  it('refuses a range it cannot draw from', () => {
    const generator = new Generator(seedRandom(1))
    expect(() => generator.int(3, 2)).toThrow(/no range of/)
    expect(() => generator.int(0, 2 ** 32)).toThrow(/no range of/)
  })
})
