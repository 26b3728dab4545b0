// The board picture of a turn mail: the end of the turn, as the turn report shows it, with the
// reader's own robot ringed so it is found at a glance. Rendered when the mail is sent (not in
// the transaction that queues it); attached as a PNG and shown inline by its Content-ID.
import type { TurnResult } from '../../engine/turn.js'
import type { Board, RobotSnapshot, Square } from '../../engine/types.js'
import { boardPng } from '../../render/png.js'
import { boardSvg } from '../../render/svg.js'
import { centre, makeLayout, U } from '../../render/util.js'

/** What the worker needs to draw a mail's picture; stored with the queued message. */
export interface PictureRequest { gameId: string; turn: number; player: string | null }

export const PICTURE_CID = 'board@botwars'
/** Wide enough to read on a phone, small enough for the mail (about 30–60 kB). */
const PICTURE_WIDTH = 560

function ring(board: Board, at: Square, withTitle: boolean): string {
  const { x, y } = centre(makeLayout(board.rows, board.cols, withTitle), at)
  return `<g class="layer mark"><circle cx="${x}" cy="${y}" r="${U * 0.56}" fill="none" stroke="#111" stroke-width="9"/>` +
    `<circle cx="${x}" cy="${y}" r="${U * 0.56}" fill="none" stroke="#ffd400" stroke-width="5"/></g>`
}

export function turnPicturePng(board: Board, result: TurnResult, player: string | null, names: Record<string, string>, colours: Record<string, string>): Buffer {
  const robots = result.end.robots.map((r): RobotSnapshot => ({ player: r.player, at: r.at, facing: r.facing, hp: r.hp, mode: r.mode, rebooting: r.rebooting }))
  const boardState = result.stages.at(-1)?.board ?? result.start.board
  const title = `Turn ${result.turn}: end of turn`
  let svg = boardSvg(board, { robots, boardState, names, colours, title })
  const own = player === null ? undefined : robots.find((r) => r.player === player && r.at !== null && r.mode !== 'destroyed')
  if (own?.at) svg = svg.replace(/<\/svg>$/, `${ring(board, own.at, true)}</svg>`)
  return boardPng(svg, PICTURE_WIDTH)
}
