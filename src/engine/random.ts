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
