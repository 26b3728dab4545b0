// Property: on small boards crowded with pushers and robots, every pusher phase the engine plays
// is what R13, R20, R24, A3 and A22 call for, as the log replay judges it from the board file
// (log-replay-pushers.ts, its model of R20 included). Robots play only turning cards, so the
// pushers meet the robots where they were placed, in every stage a pusher acts. Three kinds of
// board: robots in a line driven by a pusher (chains, often into other pushes and the fence), lines
// driven toward one square (chains that meet, A3), and robots round a ring of pushers (cycles of
// waiting pushes, broken in board-file order, R20 and A3).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { GameEvent } from '../../src/engine/events.js'
import { formatSquare } from '../../src/engine/geometry.js'
import { resolveTurn } from '../../src/engine/turn.js'
import { crowdedCase, meetingCase, parsedCase, ringCase } from './crowded-boards.js'
import { modelCounts } from './log-replay-pushers.js'
import { logProblems } from './log-replay.js'

type Moved = Extract<GameEvent, { kind: 'moved' }>

/** Resolves a generated case and returns the log replay's problems with it. */
function problemsOf(json: unknown): { problems: string[]; result: ReturnType<typeof resolveTurn> } {
  const { board, state, orders } = parsedCase(json)
  const result = resolveTurn(board, state, orders)
  return { problems: logProblems(result, 'crowded', state, board, orders), result }
}

/** Asserts that the log replay finds nothing wrong in 1,000 generated cases; returns how often the model judged `corner` in them. */
function cornersJudged(cases: fc.Arbitrary<unknown>, corner: keyof typeof modelCounts): number {
  const before = modelCounts[corner]
  fc.assert(fc.property(cases, (json) => {
    expect(problemsOf(json).problems).toEqual([])
  }), { numRuns: 1000 })
  return modelCounts[corner] - before
}

describe('property: pusher phases on boards crowded with pushers', () => {
  it('move the robots as R13, R20, R24, A3 and A22 call for', () => {
    const before = { ...modelCounts }
    let waited = 0
    fc.assert(fc.property(crowdedCase, (json) => {
      const { problems, result } = problemsOf(json)
      expect(problems).toEqual([])
      // Pushes that waited (R20): a robot moved into the square another robot's own pusher emptied.
      for (const { events } of result.stages) {
        const moves = events.filter((e): e is Moved => e.kind === 'moved' && e.time.phase === 'pusher')
        const left = new Set(moves.filter((m) => m.cause === 'pusher').map((m) => formatSquare(m.from)))
        waited += moves.filter((m) => left.has(formatSquare(m.to))).length
      }
    }), { numRuns: 1500 })
    // The boards are crowded enough that chains and other pushes often act in one phase, and the
    // fence behind them often destroys a weak robot, which the model judges too (about 850 phases).
    expect(waited).toBeGreaterThan(100)
    expect(modelCounts.fenceDeathsJudged - before.fenceDeathsJudged).toBeGreaterThan(300)
  })

  it('fail chains that meet, and let chains wait on a robot between them (R20, A3)', () => {
    // About a third of the cases have chains that meet in some phase the model judges (about 330).
    expect(cornersJudged(meetingCase, 'meetingsJudged')).toBeGreaterThan(150)
  })

  it('break a cycle of waiting pushes at its first pusher in the board file (R20, A3)', () => {
    // About one ring in five closes a cycle that the model judges (about 210 in 1,000); in the
    // others a wall, a second pusher or a swap breaks the ring first, or A3's order decides.
    expect(cornersJudged(ringCase, 'cyclesJudged')).toBeGreaterThan(100)
  })
})
