// The only source of chance in the engine: a seeded generator whose whole state is a small
// array of numbers kept in the game state (R7, R9, R32, R33), so a stored game replays exactly.
// The generator is xoroshiro128+ as pure-rand makes it, and integers are drawn as pure-rand's
// uniformInt draws them: seeding and jumping use pure-rand itself, while drawing is written out
// here (Generator), because a deal draws 113 times and pure-rand's generic path cost more than
// the rest of the deal. test/engine/random.test.ts checks draw for draw that both agree.
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus'
import type { RandomState } from './types.js'

/** A fresh generator state from an integer seed (any 32-bit integer). */
export function seedRandom(seed: number): RandomState {
  return [...xoroshiro128plus(seed | 0).getState()]
}

/** Draws integers in [min, max], both included. */
export type RandomInt = (min: number, max: number) => number

/** 2^32: the number of values one step of the generator gives. */
const VALUES = 0x100000000

/** The largest multiple of `size` that is at most 2^32 (all of 2^32 for sizes 1 and 2, as pure-rand has it). */
function allowedBelow(size: number): number {
  if (!(size >= 1 && size <= VALUES)) throw new Error(`Generator.int: no range of ${size} integers (1 to 2^32)`)
  return size > 2 ? Math.floor(VALUES / size) * size : VALUES
}

/** allowedBelow for the sizes shuffles draw from (a deck, a hand), worked out once. */
const SMALL = 128
const ALLOWED_BELOW = new Float64Array(SMALL + 1)
for (let size = 1; size <= SMALL; size++) ALLOWED_BELOW[size] = allowedBelow(size)

/**
 * xoroshiro128+ on four 32-bit halves, in pure-rand's state order (s01, s00, s11, s10), with
 * pure-rand's uniformInt for ranges up to 2^32 values: rejection sampling over one 32-bit output.
 */
export class Generator {
  private s01: number
  private s00: number
  private s11: number
  private s10: number

  constructor(state: RandomState) {
    if (state.length !== 4) throw new Error('The state must have been produced by a xoroshiro128plus RandomGenerator')
    // Kept as given, as pure-rand keeps them: a state nothing was drawn from comes back unchanged.
    this.s01 = state[0]!
    this.s00 = state[1]!
    this.s11 = state[2]!
    this.s10 = state[3]!
  }

  /** One step: a signed 32-bit integer, as pure-rand's next(). */
  next(): number {
    const out = (this.s00 + this.s10) | 0
    const a0 = this.s10 ^ this.s00
    const a1 = this.s11 ^ this.s01
    const s00 = this.s00
    const s01 = this.s01
    this.s00 = (s00 << 24) ^ (s01 >>> 8) ^ a0 ^ (a0 << 16)
    this.s01 = (s01 << 24) ^ (s00 >>> 8) ^ a1 ^ ((a1 << 16) | (a0 >>> 16))
    this.s10 = (a1 << 5) ^ (a0 >>> 27)
    this.s11 = (a0 << 5) ^ (a1 >>> 27)
    return out
  }

  /** An integer in [min, max], both included: pure-rand's uniformInt, for max - min < 2^32. */
  int(min: number, max: number): number {
    const size = max - min + 1
    // Values at or above the largest multiple of `size` are drawn again, so every result is as likely.
    const allowed = size >= 1 && size <= SMALL ? ALLOWED_BELOW[size]! : allowedBelow(size)
    let value = this.next() + 0x80000000
    while (value >= allowed) value = this.next() + 0x80000000
    // value % size, without `%`: on numbers beyond 32 bits it is a slow floating-point remainder.
    // The quotient is exact: value < 2^32, far within a double's 53 bits.
    return value - Math.floor(value / size) * size + min
  }

  state(): RandomState {
    return [this.s01, this.s00, this.s11, this.s10]
  }
}

/**
 * Runs `draw` with a generator started from `state` and returns its result with the state the
 * generator ends in. The input state is never changed.
 */
export function withGenerator<T>(state: RandomState, draw: (generator: Generator) => T): [T, RandomState] {
  const generator = new Generator(state)
  const value = draw(generator)
  return [value, generator.state()]
}

/** As withGenerator, for code that only needs integers drawn in a range. */
export function withRandom<T>(state: RandomState, draw: (randomInt: RandomInt) => T): [T, RandomState] {
  return withGenerator(state, (generator) => draw((min, max) => generator.int(min, max)))
}

/** Fisher–Yates shuffle of a copy of `items`. */
export function shuffled<T>(items: readonly T[], randomInt: RandomInt): T[] {
  return shuffleInPlace(items.slice(), randomInt)
}

/** Fisher–Yates shuffle of `items` itself, from the last place down: the draws every shuffle of the game makes. */
export function shuffleInPlace<T>(out: T[], randomInt: RandomInt): T[] {
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(0, i)
    const t = out[i]!
    out[i] = out[j]!
    out[j] = t
  }
  return out
}

/** A working copy of a generator state, for shuffleAdvancing to advance (checked as Generator checks it). */
export function ownState(state: RandomState): RandomState {
  if (state.length !== 4) throw new Error('The state must have been produced by a xoroshiro128plus RandomGenerator')
  return state.slice()
}

/**
 * shuffleInPlace from the generator state `state` itself, which it advances in place (the caller's own
 * working copy, see ownState): the same draws and the same state afterwards as shuffleInPlace drawing from a
 * Generator started from `state`. The generator's four halves stay in local variables for the whole shuffle;
 * kept in a Generator's fields, every step loaded and stored them again, a quarter of a deal's shuffle.
 * Generator.next and Generator.int are written out here once more, step for step.
 */
export function shuffleAdvancing<T>(out: T[], state: RandomState): T[] {
  let s01 = state[0]!
  let s00 = state[1]!
  let s11 = state[2]!
  let s10 = state[3]!
  for (let i = out.length - 1; i > 0; i--) {
    const size = i + 1
    const allowed = size <= SMALL ? ALLOWED_BELOW[size]! : allowedBelow(size)
    let value: number
    do {
      value = ((s00 + s10) | 0) + 0x80000000
      const a0 = s10 ^ s00
      const a1 = s11 ^ s01
      const was00 = s00
      s00 = (was00 << 24) ^ (s01 >>> 8) ^ a0 ^ (a0 << 16)
      s01 = (s01 << 24) ^ (was00 >>> 8) ^ a1 ^ ((a1 << 16) | (a0 >>> 16))
      s10 = (a1 << 5) ^ (a0 >>> 27)
      s11 = (a0 << 5) ^ (a1 >>> 27)
    } while (value >= allowed)
    const j = value - Math.floor(value / size) * size
    const t = out[i]!
    out[i] = out[j]!
    out[j] = t
  }
  state[0] = s01
  state[1] = s00
  state[2] = s11
  state[3] = s10
  return out
}

/**
 * The `index`-th of many independent streams from one state (pure-rand's jump: each jump moves
 * 2^64 draws ahead, so streams never overlap). Lets one draw not depend on whether another
 * happened: the server fills each missing program (R9) from its seat's own stream.
 */
export function randomStream(state: RandomState, index: number): RandomState {
  const generator = xoroshiro128plusFromState(state)
  for (let i = 0; i <= index; i++) generator.jump()
  return [...generator.getState()]
}
