// Spectators, with the game's public link: the game page and its published turns, nothing else
// (services/views.ts spectatorGameView and spectatorTurnView decide what that is).
import type { FastifyInstance } from 'fastify'
import { notFound } from '../errors.js'
import type { SeatRow } from '../repositories/games.js'
import { spectatorTurnFacts } from '../services/published-pages.js'
import { spectatorGameView, spectatorTurnView } from '../services/views.js'
import { playerRows } from './games.js'
import { gameHistory } from './history.js'
import { liveAt } from '../live/state.js'
import type { PageKit } from './kit.js'
import { sendPublishedPage } from './published-turn.js'
import { turnPictureBase } from './pictures.js'
import { animationData, colourMap, replayPage, reportSections, told } from './turns.js'
import { boardWords, currentWords, sectionWords } from './words.js'

export function watchPages(app: FastifyInstance, kit: PageKit): void {
  const { ctx } = kit

  const load = (token: string) => {
    const view = spectatorGameView(ctx, token)
    const game = ctx.games.byPublicToken(token)!
    return { view, game, board: ctx.board(game), seats: ctx.games.seats(game.id), base: `/watch/${token}` }
  }
  // Versioned (pages/pictures.ts): shared caches keep these pictures, and a rollback or correction redraws them.
  const pictureBase = (game: { id: string }, seats: readonly SeatRow[], turnBase: string, number: number) =>
    turnPictureBase(turnBase, ctx.turns.byNumber(game.id, number)!, seats, null, kit.pictureFingerprint)
  const turnNumber = (text: string) => {
    const n = Number(text)
    if (!Number.isInteger(n) || n < 1) throw notFound('no such turn')
    return n
  }

  app.get<{ Params: { publicToken: string } }>('/watch/:publicToken', async (request, reply) => {
    const { view, game, board, seats, base } = load(request.params.publicToken)
    return kit.render(request, reply, 'game', {
      ...boardWords(currentWords(board, seats, view.robots, view.boardState, null)),
      title: view.name, game: { ...view, you: { isGm: false, seat: null, player: null }, publicLink: null },
      players: playerRows({ ...view, currentTurn: null }), turn: view.currentTurn, done: null, waiting: null,
      boardPicture: `${base}/pictures/board.svg`, gameBase: base, spectator: true, isOpen: false, history: view.history, live: `${base}/live`, liveAt: liveAt(ctx, game),
      told: gameHistory(ctx, game, seats, null),
    })
  })

  app.get<{ Params: { publicToken: string; turn: string } }>('/watch/:publicToken/turns/:turn', async (request, reply) => {
    const { publicToken } = request.params
    const pageData = () => {
      const { view, game, board, seats, base } = load(publicToken)
      const tv = spectatorTurnView(ctx, publicToken, turnNumber(request.params.turn))
      const turnBase = `${base}/turns/${tv.number}`
      const pictures = pictureBase(game, seats, turnBase, tv.number)
      const { sections, fused } = reportSections(tv.result, pictures, null, (id) => sectionWords(board, seats, tv.result, id, null))
      return {
        title: `Turn ${tv.number} of ${view.name}`, game: { id: view.id, name: view.name }, turn: tv, result: tv.result,
        sections, fused, colours: colourMap(seats), base, turnBase, published: view.publishedTurns,
        draft: false, isGm: false, anim: animationData(tv.result, pictures), ...told(tv.result, tv.programs, Object.fromEntries(seats.map((s) => [s.player_id, s.name ?? s.player_id]))),
        corrections: tv.corrections,
      }
    }
    // Only published turns are shown here, the same to everyone: from the cache (pages/published-turn.ts).
    const facts = spectatorTurnFacts(ctx, publicToken, turnNumber(request.params.turn))
    if (facts?.status !== 'published') return kit.render(request, reply, 'turn', pageData()) // throws: not found
    return sendPublishedPage(kit, request, reply, { variant: `watch/${publicToken}`, facts, path: `/watch/${publicToken}/turns/${facts.turnNumber}`, view: 'turn', data: pageData })
  })

  app.get<{ Params: { publicToken: string; turn: string; step: string } }>('/watch/:publicToken/turns/:turn/replay/:step', async (request, reply) => {
    const { view, game, board, seats, base } = load(request.params.publicToken)
    const tv = spectatorTurnView(ctx, request.params.publicToken, turnNumber(request.params.turn))
    const turnBase = `${base}/turns/${tv.number}`
    return replayPage(kit, request, reply, {
      result: tv.result, step: request.params.step, turnBase, pictureBase: pictureBase(game, seats, turnBase, tv.number), colours: colourMap(seats),
      describe: (id) => sectionWords(board, seats, tv.result, id, null),
      game: { id: view.id, name: view.name }, draft: false, base,
    })
  })

}
