// What a player reads of a turn, word for word, beyond the engine's tables (report-golden.test.ts
// keeps those): the mail's text (src/render/report-text.ts: the story line of each robot, then the
// tables with cards in words) and the story stage by stage with the cards played, as the planning
// preview tells it (src/render/story.ts). Kept in test/render/turn-texts/ for the turns of
// test/engine/golden-turns.ts; a change fails until the new text is read and taken (`npx vitest -u`).
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { turnReportText } from '../../src/render/report-text.js'
import { eventPhrases } from '../../src/render/story.js'
import { fileOf, GOLDEN, played } from '../engine/golden-turns.js'

const TEXTS = join(import.meta.dirname, 'turn-texts')

describe('the turn as players read it, word for word', () => {
  for (const golden of GOLDEN) {
    it(fileOf(golden), async () => {
      const { board, result } = played(golden)
      const names = golden.options?.names ?? {}
      const stages = result.stages.map((stage) => [
        `Stage ${stage.stage}`,
        ...stage.robots.map((robot) => `  ${names[robot.player] ?? robot.player}: ${eventPhrases(stage.events, robot.player, names, true).join(', ') || '(nothing)'}`),
      ].join('\n'))
      const text = [turnReportText(board, result, golden.options), 'Stage by stage, as the preview tells it', '', ...stages].join('\n')
      await expect(text + '\n').toMatchFileSnapshot(join(TEXTS, `${fileOf(golden)}.txt`))
    })
  }
})
