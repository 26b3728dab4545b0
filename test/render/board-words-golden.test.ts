// The board in words (src/render/board-words.ts), word for word: what a player who cannot see the
// picture hears of the board, the robots and the squares around their own. Kept in
// test/render/board-words/: on the every-element board from each of its squares (facings in turn,
// another robot beside, one destroyed), and on each shipped board from its start square. A change
// fails until the new text is read and taken (`npx vitest -u`).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileBoard, parseBoard } from '../../src/engine/board.js'
import { DIRECTIONS, type Board } from '../../src/engine/types.js'
import { boardInWords, type WordsRobot } from '../../src/render/board-words.js'
import { everyElementBoard } from './fixture.js'

const KEPT = join(import.meta.dirname, 'board-words')
const BOARDS = join(import.meta.dirname, '..', '..', 'boards')

function told(board: Board, robots: WordsRobot[], names: Record<string, string>): string {
  const words = boardInWords({ board, robots, names, viewer: robots[0]!.player })
  return [
    ...words.robots.map((robot) => `${robot.name}: ${robot.where}; to tag: ${robot.flagsToTag ?? '(not known)'}`),
    ...(words.nearby ? words.nearby.lines.map((line) => `  ${line}`) : ['  (no surroundings)']),
  ].join('\n')
}

describe('the board in words, word for word', () => {
  it('the every-element board, from each of its squares', async () => {
    const board = everyElementBoard()
    const names = { P1: 'Ann', P2: 'Bob', P3: 'Cy' }
    const parts = [boardInWords({ board, robots: [] }).summary]
    board.squares.forEach((square, i) => {
      const robots: WordsRobot[] = [
        { player: 'P1', at: square, facing: DIRECTIONS[i % 4]!, hp: 10 - (i % 10), mode: i % 3 === 0 ? 'virtual' : 'real', rebooting: i % 5 === 0, flags: i % 3 },
        { player: 'P2', at: board.squares[(i + 1) % board.squares.length]!, facing: 'W', hp: 4, mode: 'real', rebooting: false, flags: 1 },
        { player: 'P3', at: null, facing: 'N', hp: 0, mode: 'destroyed', rebooting: false },
      ]
      parts.push('', `From r${square.row}c${square.col}:`, told(board, robots, names))
    })
    await expect(parts.join('\n') + '\n').toMatchFileSnapshot(join(KEPT, 'every-element.txt'))
  })

  for (const file of readdirSync(BOARDS).filter((f) => f.endsWith('.json')).sort()) {
    it(`${file}, from its start square`, async () => {
      const parsed = parseBoard(JSON.parse(readFileSync(join(BOARDS, file), 'utf8')))
      if (!parsed.ok) throw new Error(`${file}: ${parsed.error}`)
      const board = compileBoard(parsed.value)
      const robots: WordsRobot[] = [{ player: 'P1', at: board.start.at, facing: board.start.facing, hp: 10, mode: 'virtual', rebooting: false, flags: 0 }]
      const text = [boardInWords({ board, robots: [] }).summary, '', told(board, robots, { P1: 'Ann' })].join('\n')
      await expect(text + '\n').toMatchFileSnapshot(join(KEPT, file.replace(/\.json$/, '.txt')))
    })
  }
})
