// Board pictures as SVG and PNG, and the legend page that explains their symbols: the boards of the gallery, a game's current board, and each
// picture of a turn (before and after every stage, end of turn). A published turn's pictures do
// change: a rollback, a correction and a new publication redraw them, and so does a seat's new
// name or colour, and a release that draws differently. So the pages link them under a version
// (turnPictureBase) that names everything they are drawn from, the drawing code included
// (drawing-fingerprint.ts); only there are they cached for a year (immutable), and an older version
// is redirected to the current one, never answered with the new content. A draft's pictures, the
// unversioned URLs and the current board are revalidated every time (ETag, which names the drawing
// code too). Who may see a turn comes from services/views.ts.
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
import type { TurnRow } from '../repositories/turns.js'
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

// PNGs drawn lately, by the SVG's ETag (which names the drawing code, png.ts among it): 64 at most
// and 16 MiB together (a 12×12 board's PNG is 100–140 KB; a 50×50 one can be several times that),
// least recently used out first.
const pngCache = lruMap<string, Buffer>({ maxEntries: 64, maxWeight: 16 * 1024 * 1024, weigh: (png) => png.length })

/**
 * Sends an SVG or its PNG with an ETag; 304 when the browser has it already. The ETag names the
 * drawing code as well as the SVG: a new PNG rasteriser (png.ts, resvg) draws another PNG from
 * the same SVG, and a browser revalidating its copy must get that.
 */
export function sendPicture(request: FastifyRequest, reply: FastifyReply, picture: { svg: string; drawing: string }, ext: string, cache: string, filename: string): FastifyReply {
  const { svg, drawing } = picture
  const etag = `"${createHash('sha256').update(`${drawing}\n`).update(svg).digest('hex').slice(0, 24)}-${ext}"`
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
const VERSION = /^r\d{1,12}-[A-Za-z0-9_-]{12}$/
const IMMUTABLE = 'max-age=31536000, immutable'

/**
 * The version of a turn's pictures as one viewer sees them: the turn's revision (migration 025's
 * trigger moves it with every change of status or result, so a rollback, a correction and a new
 * publication each give a new one, and it never goes back) and a hash of the rest they are drawn
 * from: the turn row, the seats' names and colours, the robot ringed for the viewer (so one
 * member's URL never names another's picture) and the code that draws them (`drawing`: kit's
 * pictureFingerprint, so a release that draws differently gives new URLs). The board is fixed for the game.
 */
export function pictureVersion(turn: Pick<TurnRow, 'id' | 'revision'>, seats: readonly SeatRow[], highlight: string | null | undefined, drawing: string): string {
  const { names, colours } = reportNames(seats)
  const drawnFrom = JSON.stringify([turn.id, names, colours, highlight ?? null, drawing])
  return `r${turn.revision}-${createHash('sha256').update(drawnFrom).digest('base64url').slice(0, 12)}`
}

/** Where the pages link a turn's pictures (`<turnBase>/pictures/<version>`, then `/end.svg` and so on). */
export function turnPictureBase(turnBase: string, turn: Pick<TurnRow, 'id' | 'revision'>, seats: readonly SeatRow[], highlight: string | null | undefined, drawing: string): string {
  return `${turnBase}/pictures/${pictureVersion(turn, seats, highlight, drawing)}`
}

/**
 * How a turn's picture is cached, or where to find it instead. Immutable only at the current
 * version of a published turn; a draft is asked for again every time (its access is checked each
 * time, and a correction redraws it), as is the unversioned URL, whose content changes.
 * `audience`: `private` for members, `public` for spectators.
 */
function turnPictureCaching(asked: string | undefined, current: string, published: boolean, audience: 'private' | 'public'): { cache: string } | { moved: true } {
  if (asked === undefined) return { cache: `${audience}, no-cache` }
  if (!VERSION.test(asked)) throw notFound('no such picture')
  if (asked !== current) return { moved: true }
  return { cache: published ? `${audience}, ${IMMUTABLE}` : `${audience}, no-cache` }
}

/**
 * A stale or someone else's version (an older revision, an older release's drawing, another
 * member's ring): to the current one, by a redirect nobody keeps. Not the current picture under
 * the old URL: a browser or proxy may hold that URL as immutable already, so one URL must never
 * name two pictures; the redirect is `no-store`, so it follows the version wherever it moves next.
 */
function toCurrentVersion(reply: FastifyReply, turnBase: string, current: string, file: string): FastifyReply {
  return reply.header('cache-control', 'no-store').redirect(`${turnBase}/pictures/${current}/${file}`, 302)
}

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
  // The board is the game's state: a draft is not in it until published, so an open turn and one
  // under review are both still ahead of it; a published one is behind it.
  const title = current ? `${game.name}: before turn ${current.status === 'published' ? current.number + 1 : current.number}` : game.name
  return drawPicture(ctx.board(game), seats, { robots: view.robots, boardState: view.boardState ?? undefined, title }, highlight)
}

export function picturePages(app: FastifyInstance, kit: PageKit): void {
  const { ctx } = kit
  const drawing = kit.pictureFingerprint

  app.get<{ Params: { file: string } }>('/boards/:file', async (request, reply) => {
    const { name, ext } = fileParam(request.params.file)
    const entry = galleryBoard(ctx, name)
    if (!entry) throw notFound('no such board')
    return sendPicture(request, reply, { svg: entry.svg, drawing }, ext, 'public, max-age=3600', name)
  })

  app.get<{ Params: { gameId: string; file: string } }>('/games/:gameId/pictures/:file', async (request, reply) => {
    const { name, ext } = fileParam(request.params.file)
    if (name !== 'board') throw notFound('no such picture')
    const m = memberOf(ctx, request.params.gameId, request.viewer)
    const view = gameView(ctx, m)
    return sendPicture(request, reply, { svg: currentBoardSvg(ctx, m.game, view, m.seats, m.seat?.player_id), drawing }, ext, 'private, no-cache', `${m.game.id}-board`)
  })

  type MemberPicture = { gameId: string; turn: string; version?: string; file: string }
  const memberTurnPicture = (request: FastifyRequest<{ Params: MemberPicture }>, reply: FastifyReply) => {
    const { name, ext } = fileParam(request.params.file)
    const m = memberOf(ctx, request.params.gameId, request.viewer)
    const turn = ctx.turns.byNumber(m.game.id, Number(request.params.turn))
    const result = turn ? turnView(ctx, m, turn).result : null
    const picture = result && pictureOf(result, name)
    if (!turn || !picture) throw notFound('no such picture')
    const highlight = m.seat?.player_id
    const current = pictureVersion(turn, m.seats, highlight, drawing)
    const caching = turnPictureCaching(request.params.version, current, turn.status === 'published', 'private')
    if ('moved' in caching) return toCurrentVersion(reply, `/games/${m.game.id}/turns/${turn.number}`, current, request.params.file)
    return sendPicture(request, reply, { svg: drawPicture(ctx.board(m.game), m.seats, picture, highlight), drawing }, ext, caching.cache, `turn-${turn.number}-${name}`)
  }
  app.get<{ Params: MemberPicture }>('/games/:gameId/turns/:turn/pictures/:version/:file', async (request, reply) => memberTurnPicture(request, reply))
  app.get<{ Params: MemberPicture }>('/games/:gameId/turns/:turn/pictures/:file', async (request, reply) => memberTurnPicture(request, reply))

  app.get<{ Params: { publicToken: string; file: string } }>('/watch/:publicToken/pictures/:file', async (request, reply) => {
    const { name, ext } = fileParam(request.params.file)
    if (name !== 'board') throw notFound('no such picture')
    const view = spectatorGameView(ctx, request.params.publicToken)
    const game = ctx.games.byPublicToken(request.params.publicToken)!
    return sendPicture(request, reply, { svg: currentBoardSvg(ctx, game, view, ctx.games.seats(game.id)), drawing }, ext, 'public, no-cache', 'board')
  })

  type WatchPicture = { publicToken: string; turn: string; version?: string; file: string }
  const watchTurnPicture = (request: FastifyRequest<{ Params: WatchPicture }>, reply: FastifyReply) => {
    const { name, ext } = fileParam(request.params.file)
    const number = Number(request.params.turn)
    if (!Number.isInteger(number) || number < 1) throw notFound('no such turn')
    const view = spectatorTurnView(ctx, request.params.publicToken, number)
    const game = ctx.games.byPublicToken(request.params.publicToken)!
    const turn = ctx.turns.byNumber(game.id, number)!
    const seats = ctx.games.seats(game.id)
    const picture = pictureOf(view.result, name)
    if (!picture) throw notFound('no such picture')
    // Public: shared caches keep these too, so only a URL naming exactly this content may be immutable.
    const current = pictureVersion(turn, seats, null, drawing)
    const caching = turnPictureCaching(request.params.version, current, true, 'public')
    if ('moved' in caching) return toCurrentVersion(reply, `/watch/${request.params.publicToken}/turns/${number}`, current, request.params.file)
    return sendPicture(request, reply, { svg: drawPicture(ctx.board(game), seats, picture), drawing }, ext, caching.cache, `turn-${number}-${name}`)
  }
  app.get<{ Params: WatchPicture }>('/watch/:publicToken/turns/:turn/pictures/:version/:file', async (request, reply) => watchTurnPicture(request, reply))
  app.get<{ Params: WatchPicture }>('/watch/:publicToken/turns/:turn/pictures/:file', async (request, reply) => watchTurnPicture(request, reply))

  app.get('/legend', async (request, reply) => {
    return kit.render(request, reply, 'legend', { title: 'Legend: the symbols of the board pictures', entries: legendEntries(56) })
  })
}
