// The path preview of "my turn": as the player fills registers, the project's own rules engine
// (src/engine, bundled for the browser by build.ts) plays the program for the player's robot
// alone on the board as it stands, and the board picture shows where the robot would go, stage by
// stage. Other robots stay where they stand: the page says they are not predicted. Nothing here
// talks to the server; the page hands over only the board, its state and the player's own robot.
import type { GameEvent } from '../engine/events.js'
import { formatSquare } from '../engine/geometry.js'
import { resolveTurn, type TurnResult } from '../engine/turn.js'
import type { Board, BoardState, Card, Direction, GameState, RobotSnapshot, RobotState, Square } from '../engine/types.js'
import { cardLabel } from '../render/cards.js'
import { eventPhrases } from '../render/story.js'
import { boardSvg } from '../render/svg.js'
import { centre, makeLayout, vector, type Layout } from '../render/util.js'

/** What the page gives the preview (views/pages/submit.ejs, #preview-data). */
export interface PreviewData {
  board: unknown
  boardState: BoardState
  turn: number
  me: RobotState
  others: RobotSnapshot[]
  colours: Record<string, string>
  names: Record<string, string>
  title: string
}

/** A register with no card yet plays nothing: an idle card no deck holds, so the stage shows only what the board does. */
const NO_CARD: Card = { kind: 'IDLE', priority: 0 }
const FACING: Record<Direction, string> = { N: 'north', E: 'east', S: 'south', W: 'west' }

export interface StagePrediction {
  stage: number
  /** The card of this stage's register, or null when the register is still empty. */
  card: Card | null
  at: Square | null
  facing: Direction
  hp: number
  /** Every square the robot stood on during the stage, in order, starting where it began. */
  path: Square[]
  events: GameEvent[]
  /** Switches, drawbridges and teleporters at the end of the stage (R15, R16). */
  boardState: BoardState
  phrases: string[]
}

/** Plays the registers (null = not chosen yet) for the robot alone; fused registers keep their cards (R27). */
export function predict(board: Board, data: Pick<PreviewData, 'boardState' | 'turn' | 'me'>, chosen: (Card | null)[], facing?: Direction): { start: Square | null; stages: StagePrediction[] } {
  const me = data.me
  const state: GameState = {
    turn: data.turn, robots: [me], board: data.boardState, optionDeck: [], hands: {}, rng: [0, 0, 0, 0], gameOver: false, winners: [],
  }
  const cards = chosen.map((c) => c ?? NO_CARD)
  const result: TurnResult = resolveTurn(board, state, { [me.player]: { cards, rebootNext: false, ...(facing ? { facing } : {}) } })
  let open = 0
  let at = result.start.robots[0]!.at
  const stages = result.stages.map((played): StagePrediction => {
    const fused = me.fused[played.stage]
    const card = fused !== undefined ? fused : chosen[open++] ?? null
    const path: Square[] = at ? [at] : []
    for (const event of played.events) {
      if ((event.kind === 'moved' || event.kind === 'teleported') && event.player === me.player) path.push(event.to)
    }
    const robot = played.robots[0]!
    at = robot.at
    return {
      stage: played.stage, card, at: robot.at, facing: robot.facing, hp: robot.hp, path, events: played.events, boardState: played.board,
      phrases: eventPhrases(played.events, me.player, {}, true).filter((p) => !p.startsWith(cardLabel(card))),
    }
  })
  return { start: result.start.robots[0]!.at, stages }
}

/** The path so far as a line, and a numbered ghost of the robot at the end of each stage. */
function pathLayer(layout: Layout, start: Square | null, stages: StagePrediction[], upTo: number): string {
  const points: string[] = []
  const ghosts: string[] = []
  if (start) { const c = centre(layout, start); points.push(`${c.x},${c.y}`) }
  for (const s of stages) {
    if (s.stage > upTo) break
    for (const square of s.path.slice(1)) { const c = centre(layout, square); points.push(`${c.x},${c.y}`) }
    if (!s.at) continue
    const c = centre(layout, s.at)
    const v = vector(s.facing)
    const current = s.stage === upTo
    ghosts.push(
      `<g class="preview-stop${current ? ' current' : ''}" data-stage="${s.stage}" data-square="${formatSquare(s.at)}" data-facing="${s.facing}">` +
      `<line x1="${c.x}" y1="${c.y}" x2="${c.x + v.dx * 44}" y2="${c.y + v.dy * 44}" stroke="#111" stroke-width="${current ? 8 : 5}" stroke-linecap="round"/>` +
      `<circle cx="${c.x}" cy="${c.y}" r="${current ? 24 : 18}" fill="${current ? '#ffd400' : '#fff'}" stroke="#111" stroke-width="4"/>` +
      `<text x="${c.x}" y="${c.y + 9}" text-anchor="middle" font-size="26" font-weight="bold" fill="#111">${s.stage}</text></g>`)
  }
  const line = points.length > 1
    ? `<polyline points="${points.join(' ')}" fill="none" stroke="#111" stroke-width="10" stroke-dasharray="18 12" stroke-linecap="round" stroke-linejoin="round" opacity="0.75"/>`
    : ''
  return `<g class="layer preview-path">${line}${ghosts.join('')}</g>`
}

/** The board at the end of stage `upTo` (0 = now), with the predicted path drawn over it. */
export function previewSvg(board: Board, data: PreviewData, prediction: ReturnType<typeof predict>, upTo: number): string {
  const stage = upTo > 0 ? prediction.stages[upTo - 1] : undefined
  const mine: RobotSnapshot = stage
    ? { player: data.me.player, at: stage.at, facing: stage.facing, hp: stage.hp, mode: data.me.mode, rebooting: false }
    : { player: data.me.player, at: prediction.start, facing: data.me.facing, hp: data.me.hp, mode: data.me.mode, rebooting: false }
  // Only board lasers (and the player's own shots at nobody) are drawn: other robots are not predicted.
  const events = stage ? stage.events.filter((e) => e.kind === 'board-laser' && e.hits.includes(data.me.player)) : []
  const boardState = stage ? stage.boardState : data.boardState
  const title = upTo > 0 ? `Your plan: after stage ${upTo}` : data.title
  const svg = boardSvg(board, { robots: [...data.others, mine], boardState, events, colours: data.colours, names: data.names, title, highlight: data.me.player })
  const layout = makeLayout(board.rows, board.cols, true)
  return svg.replace('<g class="layer labels">', `${pathLayer(layout, prediction.start, prediction.stages, upTo)}<g class="layer labels">`)
}

export { FACING }
