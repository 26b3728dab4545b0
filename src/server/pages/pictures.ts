// Board pictures as SVG and PNG, and the legend page that explains their symbols: the boards of the gallery, a game's current board, and each
// picture of a turn (before and after every stage, end of turn). A published turn's pictures never
// change, so they are cached for a year (immutable) with an ETag; a draft's and the current
// board's are revalidated every time. Who may see a turn comes from services/views.ts.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { compileBoard, parseBoard } from '../../engine/board.js'
import type { GameEvent } from '../../engine/events.js'
import type { Board, BoardState, RobotSnapshot } from '../../engine/types.js'
import { legendEntries } from '../../render/legend.js'
import { boardPng } from '../../render/png.js'
import { boardSvg } from '../../render/svg.js'
import { notFound } from '../errors.js'
import { memberOf } from '../routes/api/games.js'
import type { GameRow, SeatRow } from '../repositories/games.js'
import { reportNames, type ServiceContext } from '../services/context.js'
import { gameView, spectatorGameView, spectatorTurnView, turnView } from '../services/views.js'
import { lruMap } from '../services/lru.js'
import type { PageKit } from './kit.js'

export type TurnResultView = NonNullable<ReturnType<typeof turnView>['result']>

export interface Picture { robots: RobotSnapshot[]; boardState: BoardState | undefined; events?: GameEvent[]; title: string }

/** The picture names of a turn, in replay order: start, after-1 … after-5, end. "before-k" is after-(k-1). */
export function pictureOf(result: TurnResultView, which: string): Picture | null {
  const snap = (robots: readonly RobotSnapshot[]) => robots.map((r) => ({ player: r.player, at: r.at, facing: r.facing, hp: r.hp, mode: r.mode, rebooting: r.rebooting }))
  const stages = result.stages
  const before = /^before-([1-5])$/.exec(which)
  const after = /^after-([1-5])$/.exec(which)
  if (which === 'start' || before?.[1] === '1') {
    return { robots: snap(result.start.robots), boardState: result.start.board, title: `Turn ${result.turn}: before stage 1` }
  }
  if (before) {
    const stage = stages[Number(before[1]) - 2]
    return stage ? { robots: snap(stage.robots), boardState: stage.board, title: `Turn ${result.turn}: before stage ${before[1]}` } : null
  }
  if (after) {
    const stage = stages[Number(after[1]) - 1]
    return stage ? { robots: snap(stage.robots), boardState: stage.board, events: stage.events, title: `Turn ${result.turn}: after stage ${after[1]}, with its laser fire` } : null
  }
  if (which === 'end') {
    const last = stages.at(-1)
    return { robots: snap(result.end.robots as unknown as RobotSnapshot[]), boardState: last?.board ?? result.start.board, title: `Turn ${result.turn}: end of turn` }
  }
  return null
}

/** `highlight`: the viewer's own robot, ringed (members' pictures only; the cache is private to them). */
export function drawPicture(board: Board, seats: readonly SeatRow[], picture: Picture, highlight?: string): string {
  return boardSvg(board, { ...reportNames(seats), robots: picture.robots, boardState: picture.boardState, events: picture.events, title: picture.title, highlight })
}

// PNGs drawn lately, by the SVG's ETag: 64 at most and 16 MiB together (a 12×12 board's PNG is
// 100–140 KB; a 50×50 one can be several times that), least recently used out first.
const pngCache = lruMap<string, Buffer>({ maxEntries: 64, maxWeight: 16 * 1024 * 1024, weigh: (png) => png.length })

/** Sends an SVG or its PNG with an ETag; 304 when the browser has it already. */
export function sendPicture(request: FastifyRequest, reply: FastifyReply, svg: string, ext: string, cache: string, filename: string): FastifyReply {
  const etag = `"${createHash('sha256').update(svg).digest('hex').slice(0, 24)}-${ext}"`
  reply.header('etag', etag).header('cache-control', cache).header('x-content-type-options', 'nosniff')
  if (request.headers['if-none-match'] === etag) return reply.status(304).send()
  if (ext === 'svg') return reply.type('image/svg+xml; charset=utf-8').send(svg)
  let png = pngCache.get(etag)
  if (!png) {
    png = boardPng(svg)
    pngCache.set(etag, png)
  }
  return reply.type('image/png').header('content-disposition', `inline; filename="${filename}.png"`).send(png)
}

const FILE = /^([a-z0-9-]{1,20})\.(svg|png)$/
const IMMUTABLE = 'max-age=31536000, immutable'

function fileParam(file: string): { name: string; ext: string } {
  const match = FILE.exec(file)
  if (!match) throw notFound('no such picture')
  return { name: match[1]!, ext: match[2]! }
}

const boardCache = new Map<string, { board: Board; svg: string }>()

export function galleryBoard(ctx: ServiceContext, id: string): { board: Board; svg: string } | null {
  if (!/^[a-z0-9][a-z0-9-]{0,60}$/.test(id)) return null
  const cached = boardCache.get(id)
  if (cached) return cached
  try {
    const parsed = parseBoard(JSON.parse(readFileSync(join(ctx.boardsDir, `${id}.json`), 'utf8')))
    if (!parsed.ok) return null
    const board = compileBoard(parsed.value)
    const entry = { board, svg: boardSvg(board, { title: board.name }) }
    boardCache.set(id, entry)
    return entry
  } catch {
    return null
  }
}

function currentBoardSvg(ctx: ServiceContext, game: GameRow, view: { robots: RobotSnapshot[]; boardState: BoardState | null }, seats: readonly SeatRow[], highlight?: string): string {
  const current = ctx.turns.current(game.id)
  const title = current ? `${game.name}: before turn ${current.status === 'open' ? current.number : current.number + 1}` : game.name
  return drawPicture(ctx.board(game), seats, { robots: view.robots, boardState: view.boardState ?? undefined, title }, highlight)
}

export function picturePages(app: FastifyInstance, kit: PageKit): void {
  const { ctx } = kit

  app.get<{ Params: { file: string } }>('/boards/:file', async (request, reply) => {
    const { name, ext } = fileParam(request.params.file)
    const entry = galleryBoard(ctx, name)
    if (!entry) throw notFound('no such board')
    return sendPicture(request, reply, entry.svg, ext, 'public, max-age=3600', name)
  })

  app.get<{ Params: { gameId: string; file: string } }>('/games/:gameId/pictures/:file', async (request, reply) => {
    const { name, ext } = fileParam(request.params.file)
    if (name !== 'board') throw notFound('no such picture')
    const m = memberOf(ctx, request.params.gameId, request.viewer)
    const view = gameView(ctx, m)
    return sendPicture(request, reply, currentBoardSvg(ctx, m.game, view, m.seats, m.seat?.player_id), ext, 'private, no-cache', `${m.game.id}-board`)
  })

  app.get<{ Params: { gameId: string; turn: string; file: string } }>('/games/:gameId/turns/:turn/pictures/:file', async (request, reply) => {
    const { name, ext } = fileParam(request.params.file)
    const m = memberOf(ctx, request.params.gameId, request.viewer)
    const turn = ctx.turns.byNumber(m.game.id, Number(request.params.turn))
    const result = turn ? turnView(ctx, m, turn).result : null
    const picture = result && pictureOf(result, name)
    if (!turn || !picture) throw notFound('no such picture')
    const cache = turn.status === 'published' ? `private, ${IMMUTABLE}` : 'private, no-cache'
    return sendPicture(request, reply, drawPicture(ctx.board(m.game), m.seats, picture, m.seat?.player_id), ext, cache, `turn-${turn.number}-${name}`)
  })

  app.get<{ Params: { publicToken: string; file: string } }>('/watch/:publicToken/pictures/:file', async (request, reply) => {
    const { name, ext } = fileParam(request.params.file)
    if (name !== 'board') throw notFound('no such picture')
    const view = spectatorGameView(ctx, request.params.publicToken)
    const game = ctx.games.byPublicToken(request.params.publicToken)!
    return sendPicture(request, reply, currentBoardSvg(ctx, game, view, ctx.games.seats(game.id)), ext, 'public, no-cache', 'board')
  })

  app.get<{ Params: { publicToken: string; turn: string; file: string } }>('/watch/:publicToken/turns/:turn/pictures/:file', async (request, reply) => {
    const { name, ext } = fileParam(request.params.file)
    const number = Number(request.params.turn)
    if (!Number.isInteger(number) || number < 1) throw notFound('no such turn')
    const view = spectatorTurnView(ctx, request.params.publicToken, number)
    const game = ctx.games.byPublicToken(request.params.publicToken)!
    const picture = pictureOf(view.result, name)
    if (!picture) throw notFound('no such picture')
    return sendPicture(request, reply, drawPicture(ctx.board(game), ctx.games.seats(game.id), picture), ext, `public, ${IMMUTABLE}`, `turn-${number}-${name}`)
  })

  app.get('/legend', async (request, reply) => {
    return kit.render(request, reply, 'legend', { title: 'Legend: the symbols of the board pictures', entries: legendEntries(56) })
  })
}
