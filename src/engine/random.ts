// The only source of chance in the engine: a seeded generator whose whole state is a small
// array of numbers kept in the game state (R7, R9, R32, R33), so a stored game replays exactly.
// The generator itself comes from pure-rand (xoroshiro128+); this file only adapts it.
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus'
import type { RandomState } from './types.js'

/** A fresh generator state from an integer seed (any 32-bit integer). */
export function seedRandom(seed: number): RandomState {
  return [...xoroshiro128plus(seed | 0).getState()]
}

/** Draws integers in [min, max], both included. */
export type RandomInt = (min: number, max: number) => number

/**
 * Runs `draw` with a generator started from `state` and returns its result with the state the
 * generator ends in. The input state is never changed.
 */
export function withRandom<T>(state: RandomState, draw: (randomInt: RandomInt) => T): [T, RandomState] {
  const generator = xoroshiro128plusFromState(state)
  const value = draw((min, max) => uniformInt(generator, min, max))
  return [value, [...generator.getState()]]
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
