// The board in words for the pages (src/render/board-words.ts says it): for the game page, the
// program form, and each picture of a turn report. Only what the picture beside it shows goes in:
// robots, mechanisms and flags, never a hand or a program.
import type { Board, BoardState } from '../../engine/types.js'
import { boardInWords, flagsAtStages, type BoardWords, type WordsRobot } from '../../render/board-words.js'
import type { SeatRow } from '../repositories/games.js'
import { reportNames } from '../services/context.js'
import { pictureOf, type TurnResultView } from './pictures.js'

/** Player → "Ann (red)": the name and the colour the picture draws, so words and picture meet. */
export function wordNames(seats: readonly SeatRow[]): Record<string, string> {
  const { names, colours } = reportNames(seats)
  return Object.fromEntries(Object.entries(names).map(([player, name]) => [player, colours[player] ? `${name} (${colours[player]})` : name]))
}

/** Only the fields the words need: a robot state also holds the fused registers and choices. */
const visible = (r: WordsRobot): WordsRobot =>
  ({ player: r.player, at: r.at, facing: r.facing, hp: r.hp, mode: r.mode, rebooting: r.rebooting, ...(r.flags === undefined ? {} : { flags: r.flags }) })

export function currentWords(board: Board, seats: readonly SeatRow[], robots: readonly WordsRobot[], boardState: BoardState | null, viewer: string | null): BoardWords {
  return boardInWords({ board, robots: robots.map(visible), boardState, names: wordNames(seats), viewer })
}

/** The words for a report section's picture: `before-k` (k = 1…5) or `end`. */
export function sectionWords(board: Board, seats: readonly SeatRow[], result: TurnResultView, sectionId: string, viewer: string | null): BoardWords | null {
  const which = sectionId === 'end' ? 'end' : sectionId.replace('stage-', 'before-')
  const picture = pictureOf(result, which)
  if (!picture) return null
  const flags = flagsAtStages(result)
  const counts = which === 'end' ? Object.fromEntries(result.end.robots.map((r) => [r.player, r.flags])) : flags[Number(which.slice('before-'.length)) - 1] ?? {}
  const robots = picture.robots.map((r) => ({ ...r, ...(counts[r.player] === undefined ? {} : { flags: counts[r.player] }) }))
  return currentWords(board, seats, robots, picture.boardState ?? null, viewer)
}

/** A picture's text alternative: what it is, and where each robot stands. */
export function pictureAlt(what: string, words: BoardWords | null): string {
  if (!words) return what
  const robots = words.robots.map((r) => `${r.name} ${r.where.split(', ').slice(0, 2).join(' ')}`)
  return `${what}: ${robots.join('; ')}. The board in words follows.`
}

/** A page's words and its board picture's text alternative. */
export function boardWords(words: BoardWords, what = 'The board now'): { words: BoardWords; boardAlt: string } {
  return { words, boardAlt: pictureAlt(what, words.robots.length ? words : null) }
}
