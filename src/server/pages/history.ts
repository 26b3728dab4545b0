// A game's history for its page: one line per player per published turn (src/render/story.ts) and
// the race chart (flags and HP after every turn, src/render/race.ts). Published turns never change,
// so each turn's part is worked out once and kept (keyed by the turn row and its revision), and a
// turn's stored result is read only then.
import type { TurnResult } from '../../engine/turn.js'
import { MAX_HP } from '../../engine/types.js'
import { raceChart, type RaceSeries } from '../../render/race.js'
import { turnStory, type StoryLine } from '../../render/story.js'
import type { GameRow, SeatRow } from '../repositories/games.js'
import type { PublishedHead } from '../repositories/turns.js'
import { reportNames, type ServiceContext } from '../services/context.js'
import { lruMap } from '../services/lru.js'

interface TurnPart { number: number; story: StoryLine[]; after: Record<string, { flags: number; hp: number }> }

// 2,000 turns' parts at most (about 6 MiB for 8-player turns), least recently used out first.
const parts = lruMap<string, TurnPart>(2000)

/** A turn's part, from the kept ones; its stored result is read only when it is not kept (published turns do not change). */
function turnPart(ctx: ServiceContext, gameId: string, turn: PublishedHead, names: Record<string, string>): TurnPart | null {
  // The revision moves with a rollback and a corrected result, even within the same millisecond;
  // the game id keeps two databases' turn rows apart (tests open many in one process).
  const { id, number } = turn
  const key = `${gameId}:${id}:${turn.revision}:${turn.published_at ?? 0}:${JSON.stringify(names)}`
  let part = parts.get(key)
  if (!part) {
    const resultJson = ctx.turns.resultJson(id)
    if (!resultJson) return null
    const result = JSON.parse(resultJson) as TurnResult
    part = {
      number,
      story: turnStory(result, names),
      after: Object.fromEntries(result.end.robots.map((r) => [r.player, { flags: r.flags, hp: r.hp }])),
    }
    parts.set(key, part)
  }
  return part
}

/** The viewer's own line first: a player reads about their robot before the others. */
export function mineFirst<T extends { player: string }>(list: readonly T[], me: string | null | undefined): T[] {
  if (!me) return [...list]
  return [...list.filter((x) => x.player === me), ...list.filter((x) => x.player !== me)]
}

export interface GameHistory {
  turns: { number: number; story: (StoryLine & { mine: boolean })[] }[]
  chart: string | null
}

export function gameHistory(ctx: ServiceContext, game: GameRow, seats: readonly SeatRow[], me: string | null): GameHistory {
  const { names, colours } = reportNames(seats)
  const turns = ctx.turns.publishedHeads(game.id)
    .map((t) => turnPart(ctx, game.id, t, names))
    .filter((t): t is TurnPart => t !== null)
  const series: RaceSeries[] = seats.filter((s) => s.user_id !== null || turns.some((t) => s.player_id in t.after)).map((s) => ({
    player: s.player_id, name: names[s.player_id] ?? s.player_id, colour: colours[s.player_id], mine: s.player_id === me,
    points: [
      { turn: 0, flags: 0, hp: MAX_HP },
      ...turns.filter((t) => t.after[s.player_id]).map((t) => ({ turn: t.number, ...t.after[s.player_id]! })),
    ],
  }))
  const flagCount = ctx.board(game).flagCount
  return {
    turns: turns.slice().reverse().map((t) => ({ number: t.number, story: mineFirst(t.story.map((l) => ({ ...l, mine: l.player === me })), me) })),
    chart: turns.length ? raceChart(series, { flagCount, maxHp: MAX_HP }) : null,
  }
}
