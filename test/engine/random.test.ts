// The engine's own drawing (random.ts Generator) must give exactly pure-rand's xoroshiro128+ and
// uniformInt, draw for draw, and leave the same state: stored games replay with the stream they
// were played with (R7, R9, R32, R33).
import fc from 'fast-check'
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus'
import { describe, expect, it } from 'vitest'
import { Generator, ownState, randomStream, seedRandom, shuffleAdvancing, shuffleInPlace, withGenerator, withRandom } from '../../src/engine/random.js'

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
    const own = ownState(state)
    expect(shuffleAdvancing(['only card'], own)).toEqual(['only card'])
    expect(own).toEqual(state)
  })
  it('shuffles a deck as the Fisher–Yates shuffle with pure-rand did, through a closure or a state advanced in place', () => {
    fc.assert(fc.property(states, fc.integer({ min: 0, max: 200 }), (state, size) => {
      const deck = Array.from({ length: size }, (_, i) => i)
      const theirs = xoroshiro128plusFromState(state)
      const expected = shuffleInPlace(deck.slice(), (min, max) => uniformInt(theirs, min, max))
      expect(withRandom(state, (randomInt) => shuffleInPlace(deck.slice(), randomInt))).toEqual([expected, [...theirs.getState()]])
      const own = ownState(state)
      expect([shuffleAdvancing(deck.slice(), own), own]).toEqual([expected, [...theirs.getState()]])
    }), { numRuns: 500 })
  })
  it('advances one state through shuffles in turn as one generator does (the fills of R9, one robot after another)', () => {
    fc.assert(fc.property(states, fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 8 }), (state, sizes) => {
      const hands = sizes.map((size) => Array.from({ length: size }, (_, i) => i))
      const [expected, end] = withRandom(state, (randomInt) => hands.map((hand) => shuffleInPlace(hand.slice(), randomInt)))
      const before = state.slice()
      const own = ownState(state)
      expect(hands.map((hand) => shuffleAdvancing(hand.slice(), own))).toEqual(expected)
      expect(own).toEqual(end)
      expect(state).toEqual(before) // never changed: ownState made the copy
    }), { numRuns: 500 })
  })
  it('refuses a range it cannot draw from', () => {
    const generator = new Generator(seedRandom(1))
    expect(() => generator.int(3, 2)).toThrow(/no range of/)
    expect(() => generator.int(0, 2 ** 32)).toThrow(/no range of/)
    expect(() => ownState([1, 2, 3])).toThrow(/xoroshiro128plus/)
    expect(() => new Generator([1, 2, 3, 4, 5])).toThrow(/xoroshiro128plus/)
    expect(() => withRandom([1, 2, 3], () => null)).toThrow(/xoroshiro128plus/)
  })
  it('draws again on the value where the last whole run of the range begins, as pure-rand does', () => {
    // For 3 values, 2^32 holds 1,431,655,765 whole runs and one value over: the raw value 2^32 - 1
    // must be drawn again, or 0 would come up a little more often than 1 and 2. A random state
    // reaches that one value once in 2^32 draws, so the property tests above never meet it: the
    // state is made so that its first output is it (xoroshiro128+ gives s00 + s10 first).
    const edge = [0, 0x7fffffff, 0, 0] // s01, s00, s11, s10
    const theirs = xoroshiro128plusFromState(edge)
    const expected = [uniformInt(theirs, 0, 2), uniformInt(theirs, 0, 2)]
    expect(withGenerator(edge, (generator) => [generator.int(0, 2), generator.int(0, 2)])).toEqual([expected, [...theirs.getState()]])
    const three = xoroshiro128plusFromState(edge)
    const shuffledThree = shuffleInPlace([0, 1, 2], (min, max) => uniformInt(three, min, max))
    const own = ownState(edge)
    expect([shuffleAdvancing([0, 1, 2], own), own]).toEqual([shuffledThree, [...three.getState()]])
  })
  it('keeps the streams the server fills programs from (R9) as games were played with them', () => {
    // A turn rolled back and resolved again fills the same programs only if these never change,
    // e.g. with another version of pure-rand's jump.
    const state = seedRandom(2026)
    expect(state).toEqual([-1, -2027, 2026, 0])
    expect(randomStream(state, 0)).toEqual([-935509691, 1302949798, 2054413397, -144427704])
    expect(randomStream(state, 3)).toEqual([-1267545792, 1644306718, -19844911, -96094888])
  })
})
