import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A guard against a test that hangs, not a measure of speed (that is bench/'s): the property
    // tests take 7-16 s alone and were once cut off at 30 s on a machine loaded by other work.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
})
