// Games: the home page (my games, open games), creating a game (gallery or uploaded board with a
// preview), the game page, inviting, joining (by invitation or an open seat) and starting.
import { z } from 'zod'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { compileBoard, parseBoard } from '../../engine/board.js'
import { DEFAULT_PALETTE } from '../../render/util.js'
import { robotFill } from '../../render/robot-looks.js'
import { boardSvg } from '../../render/svg.js'
import { AppError, notFound } from '../errors.js'
import type { GameRow, SeatRow } from '../repositories/games.js'
import { memberOf } from '../routes/api/games.js'
import { createGameRequest } from '../schemas.js'
import type { Membership, ServiceContext } from '../services/context.js'
import { createGame, invitation, invite, joinGame, listBoards, startGame } from '../services/games.js'
import { membership, requireGm } from '../services/membership.js'
import { gameView } from '../services/views.js'
import { plansSettled } from '../services/bot-plans.js'
import { createPracticeGame } from '../services/bots.js'
import { BOT_LEVELS } from '../../bots/index.js'
import { BOT_SEAT_FIELDS, chosenBots, createGameForm, practiceForm, displayNameForm, formValues, inviteForm, joinForm, reasonForm, ROBOT_COLOURS } from './forms.js'
import { appFieldErrors, sentence, zodFieldErrors, type FieldErrors, type PageKit } from './kit.js'
import { gameHistory } from './history.js'
import { liveAt } from '../live/state.js'
import { isOpenToJoin, joinOpenSeat, openGames, waitingFor } from './services.js'
import { GM_JOB_DONE, tableModel } from './gm-job.js'
import { PREVIEW_DONE } from './gm-preview.js'
import { boardWords, currentWords } from './words.js'
import { liveClock, sendKeptGamePage, type PageClock } from './game-page-cache.js'

/** A seat's colour as the pictures draw it (the same fallback palette), for swatches. */
export function swatch(colour: string | null, seatNo: number): string {
  return robotFill(colour, DEFAULT_PALETTE[(seatNo - 1) % DEFAULT_PALETTE.length]!)
}

type GameViewData = ReturnType<typeof gameView>

/** One row per seat for the players table: who, robot, and whether their program is in. */
export function playerRows(view: Pick<GameViewData, 'seats' | 'robots'> & { currentTurn: { status: string; submitted?: { player: string; submitted: boolean }[] } | null }) {
  return view.seats.map((seat) => {
    const robot = view.robots.find((r) => r.player === seat.player)
    const submitted = view.currentTurn?.status === 'open' ? view.currentTurn.submitted?.find((s) => s.player === seat.player)?.submitted ?? false : null
    return {
      ...seat,
      colourCss: swatch(seat.colour, seat.seat),
      robot: robot ?? null,
      submitted,
      invited: 'invited' in seat ? (seat.invited as string | null) : null,
      email: 'email' in seat ? (seat.email as string | null) : null,
    }
  })
}

/** Opponents offered on the home page's practice form (the API takes up to 7). */
const PRACTICE_BOTS = 3

function gameFormDefaults() {
  return {
    name: '', boardChoice: 'training-floor', seats: '4', turnLengthHours: '120', reviewWindowHours: '48', closeEarly: 'on', pathPreview: 'on',
    reminderHours: '12', replyFromAnyAddress: '', gmPlays: '', gmName: '', gmColour: 'red',
    turnLimit: '', stalemateTurns: '', tableTalk: '', goneRobot: 'random', goneRobotBot: 'greedy', missedProgramBot: '',
  }
}

export function gamePages(app: FastifyInstance, kit: PageKit) {
  const { ctx } = kit

  app.get('/', async (request, reply) => {
    const user = request.viewer.user
    if (!user) return kit.render(request, reply, 'welcome', { title: 'Play-by-web robot races', next: '' })
    const query = request.query as Record<string, string | undefined>
    // Fixed confirmations only (never text from the query): e.g. "You have left the game." after withdrawing.
    const done = query.done && Object.hasOwn(DONE, query.done) ? DONE[query.done] : null
    return kit.render(request, reply, 'home', { ...homeModel(user.id), askName: user.name_chosen !== 1, named: query.named === '1', done })
  })

  /** My games, what each waits for, and the open games to join. */
  const homeModel = (userId: number) => ({
    title: 'My games',
    games: ctx.games.forUser(userId).map((game) => ({
      id: game.id, name: game.name, board: game.board_name, status: game.status, isGm: game.gm_user_id === userId,
      waiting: waitingFor(ctx, game, userId),
      turnLink: myTurnLink(ctx, game, userId),
    })),
    open: openGames(ctx, userId),
    // Issue 15: a practice game against bots alone, started from here.
    boards: listBoards(ctx), botLevels: BOT_LEVELS, practiceBots: PRACTICE_BOTS,
    values: { practiceBoard: 'training-floor', bot1: 'greedy' } as Record<string, string>, errors: {} as FieldErrors,
  })

  kit.post('/practice', async (request, reply) => {
    const user = kit.user(request)
    const values = formValues(request.body)
    const parsed = practiceForm.safeParse(request.body ?? {})
    let errors: FieldErrors = parsed.success ? {} : zodFieldErrors(parsed.error)
    if (parsed.success) {
      try {
        const game = createPracticeGame(ctx, user.id, { board: parsed.data.practiceBoard, bots: chosenBots(parsed.data) })
        await plansSettled(ctx, game.id)
        return reply.redirect(`/games/${game.id}/turns/1/submit`, 303)
      } catch (err) {
        errors = appFieldErrors(err, 'practiceBoard')
        if (errors.board) errors = { practiceBoard: errors.board }
      }
    }
    return kit.render(request, reply, 'home', { ...homeModel(user.id), askName: user.name_chosen !== 1, values, errors }, 400)
  })

  // A display name, chosen once: until then people are known by their address's local part.
  kit.post('/me/name', async (request, reply) => {
    const user = kit.user(request)
    const parsed = displayNameForm.safeParse(request.body ?? {})
    if (!parsed.success) {
      return kit.render(request, reply, 'home', { ...homeModel(user.id), askName: true, errors: zodFieldErrors(parsed.error), values: formValues(request.body) }, 400)
    }
    ctx.write(() => ctx.users.rename(user.id, parsed.data.displayName))
    return reply.redirect('/?named=1', 303)
  })

  const newGamePage = (request: FastifyRequest, reply: FastifyReply, values: Record<string, string>, errors: FieldErrors, preview: string | null, status = 200) =>
    kit.render(request, reply, 'game-new', {
      title: 'Create a game', boards: listBoards(ctx), values, errors, preview, colours: ROBOT_COLOURS, botLevels: BOT_LEVELS, botSeats: BOT_SEAT_FIELDS,
    }, status)

  app.get('/games/new', async (request, reply) => {
    kit.user(request)
    return newGamePage(request, reply, gameFormDefaults(), {}, null)
  })

  kit.post('/games/new', async (request, reply) => {
    const user = kit.user(request)
    const values: Record<string, string> = { closeEarly: '', pathPreview: '', replyFromAnyAddress: '', gmPlays: '', tableTalk: '', ...formValues(request.body) }
    const parsed = createGameForm.safeParse(request.body ?? {})
    const uploaded = values.boardChoice === 'upload'
    let preview: string | null = null
    const errors: FieldErrors = parsed.success ? {} : zodFieldErrors(parsed.error)
    let boardFile: unknown
    if (uploaded) {
      try {
        boardFile = JSON.parse(values.boardFile ?? '')
        const board = parseBoard(boardFile, ['boardFile'])
        if (!board.ok) errors.boardFile = board.error
        else preview = boardSvg(compileBoard(board.value), { title: board.value.name, squareSize: 32 })
      } catch {
        errors.boardFile = values.boardFile?.trim() ? 'the board file is not valid JSON' : 'choose a board file, or paste its JSON'
      }
    } else if (!listBoards(ctx).some((b) => b.id === values.boardChoice)) {
      errors.boardChoice = 'choose a board'
    }
    if (parsed.success && parsed.data.gmPlays && !parsed.data.gmColour) errors.gmColour = 'a GM who plays needs a robot colour'
    for (const [field, message] of Object.entries(errors)) errors[field] = sentence(message)
    const wantsPreview = values.action === 'preview'
    if (Object.keys(errors).length || !parsed.success || wantsPreview) {
      return newGamePage(request, reply, values, errors, preview, Object.keys(errors).length ? 400 : 200)
    }
    const f = parsed.data
    try {
      const input = createGameRequest.parse({
        name: f.name, seats: f.seats, turnLengthHours: f.turnLengthHours, reviewWindowHours: f.reviewWindowHours,
        closeEarly: f.closeEarly, pathPreview: f.pathPreview, reminderHours: f.reminderHours, replyFromAnyAddress: f.replyFromAnyAddress,
        gmPlays: f.gmPlays, tableTalk: f.tableTalk, goneRobot: f.goneRobot, goneRobotBot: f.goneRobotBot,
        bots: chosenBots(f), ...(f.missedProgramBot ? { missedProgramBot: f.missedProgramBot } : {}),
        ...(f.turnLimit !== undefined ? { turnLimit: f.turnLimit } : {}), ...(f.stalemateTurns !== undefined ? { stalemateTurns: f.stalemateTurns } : {}),
        ...(uploaded ? { boardFile } : { board: values.boardChoice }),
        ...(f.gmPlays ? { gmName: f.gmName ?? user.name, gmColour: f.gmColour } : {}),
      })
      const game = createGame(ctx, user.id, input)
      return reply.redirect(`/games/${game.id}?done=created`, 303)
    } catch (err) {
      // Whatever the form's own checks let through is still named by field, never shown as zod's raw list.
      const problem = err instanceof AppError ? appFieldErrors(err) : err instanceof z.ZodError ? zodFieldErrors(err) : { _form: err instanceof Error ? err.message : String(err) }
      return newGamePage(request, reply, values, problem, preview, 400)
    }
  })

  /** The game page's data for a member (GM or seated), every time relative to now printed through `clock`. */
  const gameModel = (m: Membership, userId: number, clock: PageClock) => {
    const view = gameView(ctx, m)
    return {
      title: view.name, game: view, players: playerRows(view), turn: view.currentTurn,
      waiting: waitingFor(ctx, m.game, userId, clock.until), boardPicture: `/games/${view.id}/pictures/board.svg`,
      ...boardWords(currentWords(ctx.board(m.game), m.seats, view.robots, view.boardState, view.you.player)),
      gameBase: `/games/${view.id}`, spectator: false, isOpen: isOpenToJoin(ctx, m.game), errors: {}, values: {},
      // The page follows the game live (src/server/live); while the GM sets it up, forms are being filled: no refresh.
      live: `/games/${view.id}/live`, liveAt: liveAt(ctx, m.game), noRefresh: m.isGm, told: gameHistory(ctx, m.game, m.seats, m.seat?.player_id ?? null), table: tableModel(ctx, m, userId),
    }
  }

  const gamePage = async (request: FastifyRequest, reply: FastifyReply, gameId: string, extra: Record<string, unknown> = {}, status = 200) => {
    const user = kit.user(request)
    const query = request.query as Record<string, unknown>
    const done = typeof query.done === 'string' && Object.hasOwn(DONE, query.done) ? DONE[query.done]! : null
    // The plain page, as most views ask for it, is kept per viewer (game-page-cache.ts); a page
    // after a form (a confirmation, errors) is rendered for that request alone.
    if (status === 200 && !done && Object.keys(extra).length === 0 && !request.viewer.tokenGameId) {
      const sent: boolean = await sendKeptGamePage(kit, request, reply, {
        gameId,
        data: (clock) => {
          const m = membership(ctx, gameId, request.viewer)
          return m.isGm || m.seat ? { ...gameModel(m, user.id, clock), done: null } : undefined
        },
      })
      if (sent) return reply
    }
    const m = membership(ctx, gameId, request.viewer)
    if (!m.isGm && !m.seat) {
      if (!isOpenToJoin(ctx, m.game)) throw notFound('no such game')
      return openGamePage(request, reply, m.game, m.seats, extra, status)
    }
    return kit.render(request, reply, 'game', { ...gameModel(m, user.id, liveClock(ctx.now())), done, ...extra }, status)
  }

  /** The join page's model, shared by open seats and invitations; `showInvited` marks seats held for an invitee. */
  const joinModel = (request: FastifyRequest, game: GameRow, seats: SeatRow[], action: string, showInvited: boolean) => {
    const taken = new Set(seats.filter((s) => s.user_id !== null).map((s) => s.colour))
    return {
      title: `Join ${game.name}`, game: { id: game.id, name: game.name, board: game.board_name, gm: ctx.users.byId(game.gm_user_id)?.name ?? '' },
      seats: seats.map((s) => ({
        seat: s.seat_no, name: s.name, colourCss: swatch(s.colour, s.seat_no), colour: s.colour, taken: s.user_id !== null,
        invited: showInvited && !!s.invite_email && s.user_id === null,
      })),
      colours: ROBOT_COLOURS.map((c) => ({ name: c, taken: taken.has(c) })), action,
      values: { name: request.viewer.user?.name ?? '' }, errors: {},
    }
  }

  const openGamePage = (request: FastifyRequest, reply: FastifyReply, game: GameRow, seats: SeatRow[], extra: Record<string, unknown>, status: number) =>
    kit.render(request, reply, 'join', { ...joinModel(request, game, seats, `/games/${game.id}/join`, true), ...extra }, status)

  app.get<{ Params: { gameId: string } }>('/games/:gameId', async (request, reply) => gamePage(request, reply, request.params.gameId))

  kit.post('/games/:gameId/join', async (request, reply) => {
    const user = kit.user(request)
    const { gameId } = request.params as { gameId: string }
    const values = formValues(request.body)
    const parsed = joinForm.safeParse(request.body ?? {})
    if (!parsed.success) return gamePage(request, reply, gameId, { values, errors: zodFieldErrors(parsed.error) }, 400)
    try {
      joinOpenSeat(ctx, user.id, gameId, parsed.data.name, parsed.data.colour)
    } catch (err) {
      return gamePage(request, reply, gameId, { values, errors: appFieldErrors(err) }, 400)
    }
    return reply.redirect(`/games/${gameId}?done=joined`, 303)
  })

  // GM actions: the GM check comes before the form and the game's state, so a player gets 403
  // whatever they send (never a 400 or 409 that tells them something about the game).
  kit.post('/games/:gameId/invite', async (request, reply) => {
    kit.user(request)
    const { gameId } = request.params as { gameId: string }
    const m = memberOf(ctx, gameId, request.viewer)
    requireGm(m)
    const values = formValues(request.body)
    const parsed = inviteForm.safeParse(request.body ?? {})
    if (!parsed.success) return gamePage(request, reply, gameId, { inviteValues: values, inviteErrors: zodFieldErrors(parsed.error) }, 400)
    try {
      invite(ctx, m, parsed.data.email, undefined)
    } catch (err) {
      return gamePage(request, reply, gameId, { inviteValues: values, inviteErrors: appFieldErrors(err, 'email') }, 400)
    }
    return reply.redirect(`/games/${gameId}?done=invited`, 303)
  })

  kit.post('/games/:gameId/start', async (request, reply) => {
    kit.user(request)
    const { gameId } = request.params as { gameId: string }
    const m = memberOf(ctx, gameId, request.viewer)
    requireGm(m)
    const parsedReason = reasonForm.safeParse(request.body ?? {})
    if (!parsedReason.success) {
      return gamePage(request, reply, gameId, { startError: Object.values(zodFieldErrors(parsedReason.error))[0] }, 400)
    }
    try {
      startGame(ctx, m, parsedReason.data.reason)
    } catch (err) {
      return gamePage(request, reply, gameId, { startError: appFieldErrors(err)._form }, 409)
    }
    return reply.redirect(`/games/${gameId}?done=started`, 303)
  })

  // Invitations: the page works signed out (it says what the invitation is); joining needs a sign-in.
  const invitePage = (request: FastifyRequest, reply: FastifyReply, token: string, extra: Record<string, unknown> = {}, status = 200) => {
    const { game, seat } = invitation(ctx, token)
    const model = joinModel(request, game, ctx.games.seats(game.id), `/invites/${token}`, false)
    return kit.render(request, reply, 'join', { ...model, invitedSeat: seat.seat_no, ...extra }, status)
  }

  app.get<{ Params: { token: string } }>('/invites/:token', async (request, reply) => invitePage(request, reply, request.params.token))

  kit.post('/invites/:token', async (request, reply) => {
    const user = kit.user(request)
    const { token } = request.params as { token: string }
    const values = formValues(request.body)
    const parsed = joinForm.safeParse(request.body ?? {})
    if (!parsed.success) return invitePage(request, reply, token, { values, errors: zodFieldErrors(parsed.error) }, 400)
    let gameId: string
    try {
      gameId = joinGame(ctx, user.id, token, parsed.data.name, parsed.data.colour).gameId
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 404) throw err
      return invitePage(request, reply, token, { values, errors: appFieldErrors(err) }, 400)
    }
    return reply.redirect(`/games/${gameId}?done=joined`, 303)
  })
  return { game: gamePage }
}

/** Fixed confirmations shown after a redirect (?done=…); never user text. */
export const DONE: Record<string, string> = {
  created: 'The game is created. Invite players by email, or let people join from the open games list.',
  joined: 'You have a seat in this game.',
  invited: 'The invitation is on its way.',
  started: 'The game has started: robots are on the start square and every hand is dealt.',
  locked: 'Your program is locked: it is final for this turn, and the other programs are shown.',
  closed: 'The turn is closed and resolved into a draft.',
  extended: 'The deadline is moved.',
  paused: 'The game is paused.',
  resumed: 'The game is running again.',
  reopened: 'The program is reopened; the player has been mailed.',
  resolved: 'The draft is resolved again with the latest programs.',
  published: 'The turn is published and the next one dealt.',
  replaced: 'The seat is free and the newcomer invited.',
  abandoned: 'The game is over.',
  ...GM_JOB_DONE,
  ...PREVIEW_DONE,
}

function myTurnLink(ctx: ServiceContext, game: GameRow, userId: number): string | null {
  if (game.status !== 'running' && game.status !== 'paused') return null
  const seat = ctx.games.seats(game.id).find((s) => s.user_id === userId)
  const turn = ctx.turns.current(game.id)
  if (!seat || !turn) return null
  if (turn.status === 'open' || turn.reopened_player_id === seat.player_id) return `/games/${game.id}/turns/${turn.number}/submit`
  return null
}

