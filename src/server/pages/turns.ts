// A turn: "my turn" (hand, registers, reboot and standing choices; stored program and until when
// it can be changed) and the turn report (picture and table per stage, end of turn, fused
// registers), whole or stepped through one stage at a time.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ReportTable } from '../../engine/report.js'
import type { EventTime } from '../../engine/events.js'
import { REGISTER_COUNT } from '../../engine/types.js'
import { cardLabel, cardView } from '../../render/cards.js'
import { turnStory } from '../../render/story.js'
import { mineFirst } from './history.js'
import { tableFor } from '../../render/report-text.js'
import type { BoardWords } from '../../render/board-words.js'
import { AppError, notFound } from '../errors.js'
import type { SeatRow } from '../repositories/games.js'
import type { TurnRow } from '../repositories/turns.js'
import { memberOf } from '../routes/api/games.js'
import { boardSvg } from '../../render/svg.js'
import { choosesFacing, snapshot } from '../../engine/turn.js'
import { reportNames, type Membership, type ServiceContext } from '../services/context.js'
import { dealtState } from '../services/deal.js'
import { membership } from '../services/membership.js'
import { submitProgram } from '../services/turns.js'
import { turnView } from '../services/views.js'
import { formValues, submitForm } from './forms.js'
import { swatch } from './games.js'
import { appFieldErrors, zodFieldErrors, type FieldErrors, type PageKit } from './kit.js'
import { turnPictureBase, type TurnResultView } from './pictures.js'
import { tableModel } from './gm-job.js'
import { liveAt } from '../live/state.js'
import { keptThread } from './message-threads.js'
import { publishedTurnFacts, sendPublishedPage } from './published-turn.js'
import { boardWords, currentWords, pictureAlt, sectionWords } from './words.js'

export { cardView, type CardView } from '../../render/cards.js'

/** Whether the robot plays cards this turn (on the floor, not rebooting), as the engine's needsProgram says. */
const playsCards = (robot: { mode: string; at: unknown; rebooting: boolean }) => robot.mode !== 'destroyed' && robot.at !== null && !robot.rebooting

const DIRECTION_NAMES: Record<string, string> = { N: 'north', E: 'east', S: 'south', W: 'west' }

export interface ReportSection {
  id: string; heading: string; before: string | null; after: string | null; afterCaption: string; table: ReportTable
  /** The board of the `before` picture in words, and the picture's text alternative. */
  words: BoardWords | null; alt: string
}

/** Gives the words for a section's picture (see words.ts sectionWords); none where the page has no board. */
export type DescribeSection = (sectionId: string) => BoardWords | null

/** The report's sections in replay order: stage 1…5, end of turn (with the fused table). */
export function reportSections(result: TurnResultView, pictureBase: string, me: string | null = null, describe: DescribeSection = () => null): { sections: ReportSection[]; fused: ReportTable | null } {
  const stageCount = result.stages.length
  const tables = result.tables.map((t) => tableFor(t, me))
  const described = (id: string, what: string) => {
    const words = describe(id)
    return { words, alt: pictureAlt(what, words) }
  }
  const sections: ReportSection[] = tables.slice(0, stageCount).map((table, i) => ({
    id: `stage-${i + 1}`, heading: `Stage ${i + 1}`, table,
    before: `${pictureBase}/before-${i + 1}.svg`, after: `${pictureBase}/after-${i + 1}.svg`,
    afterCaption: `After stage ${i + 1}, with its laser fire`,
    ...described(`stage-${i + 1}`, `The board before stage ${i + 1}`),
  }))
  const end = tables[stageCount]
  if (end) sections.push({ id: 'end', heading: 'End of turn', table: end, before: `${pictureBase}/end.svg`, after: null, afterCaption: '', ...described('end', 'The board at the end of the turn') })
  return { sections, fused: tables[stageCount + 1] ?? null }
}

export function colourMap(seats: readonly SeatRow[]): Record<string, string> {
  return Object.fromEntries(seats.map((s) => [s.player_id, swatch(s.colour, s.seat_no)]))
}

function turnOf(kit: PageKit, gameId: string, number: string): TurnRow {
  const n = Number(number)
  const turn = Number.isInteger(n) && n > 0 ? kit.ctx.turns.byNumber(gameId, n) : undefined
  if (!turn) throw notFound(`no turn ${number}`)
  return turn
}

export function turnPages(app: FastifyInstance, kit: PageKit): void {
  const { ctx } = kit

  const submitPage = (request: FastifyRequest, reply: FastifyReply, gameId: string, number: string, values: Record<string, string> | null, errors: FieldErrors, status = 200) => {
    kit.user(request)
    const m = memberOf(ctx, gameId, request.viewer)
    const turn = turnOf(kit, m.game.id, number)
    const tv = turnView(ctx, m, turn)
    if (!tv.me) {
      if (m.isGm) return reply.redirect(`/games/${m.game.id}/gm`, 303)
      throw notFound('you have no robot in this game')
    }
    const me = tv.me
    const fused = me.robot.fused as Record<string, string | null>
    const stored = me.submission
    // The stored cards fill the unfused registers in order; entered values win after an error.
    const storedByRegister: Record<string, string> = {}
    const unfused = Array.from({ length: REGISTER_COUNT }, (_, i) => String(i + 1)).filter((k) => !(k in fused))
    unfused.forEach((k, i) => { if (stored?.cards[i]) storedByRegister[k] = stored.cards[i]! })
    const registers = Array.from({ length: REGISTER_COUNT }, (_, i) => {
      const k = String(i + 1)
      if (k in fused) return { number: k, fused: true, card: fused[k] ? cardView(fused[k]!) : null, value: '' }
      return { number: k, fused: false, card: null, value: values ? values[`r${k}`] ?? '' : storedByRegister[k] ?? '' }
    })
    const robot = me.robot
    // The robots and mechanisms as dealt: public (the game page shows them); the hands stay here.
    const boardNow = (dealt: ReturnType<typeof dealtState>) => currentWords(ctx.board(m.game), m.seats, dealt.robots, dealt.board, me.player)
    const reinstated = choosesFacing(robot, tv.number)
    const query = request.query as Record<string, string | undefined>
    const plan = planOf(ctx, m, turn, me.player, playsCards(robot))
    // After a GM reopened this program: who did, and why (from the game's history).
    const reopen = turn.status === 'draft' && turn.reopened_player_id === me.player
      ? ctx.games.actions(m.game.id).filter((a) => a.action === 'reopen').at(-1) : undefined
    const reopened = reopen ? { by: ctx.users.byId(m.game.gm_user_id)?.name ?? 'the GM', reason: reopen.reason, at: reopen.at } : null
    return kit.render(request, reply, 'submit', {
      plan, live: `/games/${m.game.id}/live`, liveAt: liveAt(ctx, m.game), noRefresh: true, reopened,
      title: `Turn ${tv.number}: your program`, game: { id: m.game.id, name: m.game.name, status: m.game.status }, turn: tv, me,
      hand: me.hand.map((c) => cardView(c!)), registers, stored, storedCards: stored?.cards.map(cardView) ?? [],
      rebooting: !playsCards(robot), outOfPlay: !robot.rebooting && !playsCards(robot), reinstated, directions: DIRECTION_NAMES,
      choice: {
        rebootNext: values ? values.rebootNext === 'on' : stored?.rebootNext ?? false,
        sacrificeAt: values?.sacrificeAt ?? String(stored?.sacrificeAt ?? robot.sacrificeAt),
        doubleWrench: values?.doubleWrench ?? stored?.doubleWrench ?? robot.doubleWrench,
        facing: values?.facing ?? stored?.facing ?? '',
      },
      justStored: query.stored === '1' && !values, values: values ?? {}, errors,
      ...boardWords(boardNow(dealtState(turn)), 'The board as this turn began; your robot has a yellow ring'),
      deadline: turn.status === 'open' ? turn.deadline : null,
    }, status)
  }

  app.get<{ Params: { gameId: string; turn: string } }>('/games/:gameId/turns/:turn/submit', async (request, reply) =>
    submitPage(request, reply, request.params.gameId, request.params.turn, null, {}))

  kit.post('/games/:gameId/turns/:turn/submit', async (request, reply) => {
    kit.user(request)
    const { gameId, turn: number } = request.params as { gameId: string; turn: string }
    const values = formValues(request.body)
    const again = (errors: FieldErrors) => submitPage(request, reply, gameId, number, values, errors, 400)
    const parsed = submitForm.safeParse(request.body ?? {})
    if (!parsed.success) return again(zodFieldErrors(parsed.error))
    const m = memberOf(ctx, gameId, request.viewer)
    const turn = turnOf(kit, m.game.id, number)
    const me = turnView(ctx, m, turn).me
    if (!me) throw notFound('you have no robot in this game')
    const fused = me.robot.fused as Record<string, string | null>
    const form = parsed.data
    const cards: string[] = []
    const errors: FieldErrors = {}
    if (playsCards(me.robot)) {
      // One message per register, in register order: a missing card, or one used twice.
      const seen = new Map<string, number>()
      for (let k = 1; k <= REGISTER_COUNT; k++) {
        if (String(k) in fused) continue
        const card = form[`r${k}` as 'r1']
        if (!card) errors[`r${k}`] = `Choose a card for register ${k}.`
        else if (seen.has(card)) errors[`r${k}`] = `${cardView(card).label} is already in register ${seen.get(card)}; each card can be used once.`
        else {
          seen.set(card, k)
          cards.push(card)
        }
      }
    }
    if (Object.keys(errors).length) return again(errors)
    try {
      submitProgram(ctx, request.viewer, m.game.id, turn.number, {
        cards, rebootNext: form.rebootNext, sacrificeAt: form.sacrificeAt, doubleWrench: form.doubleWrench, facing: form.facing,
      })
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 409) return again({ _form: err.message })
      const unfused = Array.from({ length: REGISTER_COUNT }, (_, i) => i + 1).filter((k) => !(String(k) in fused))
      if (err instanceof AppError && err.field?.startsWith('cards')) return again(plainProgramError(err, unfused))
      return again(appFieldErrors(err))
    }
    return reply.redirect(`/games/${m.game.id}/turns/${turn.number}/submit?stored=1#stored`, 303)
  })

  const reportData = (request: FastifyRequest, gameId: string, number: string) => {
    kit.user(request)
    const m = memberOf(ctx, gameId, request.viewer)
    const turn = turnOf(kit, m.game.id, number)
    const tv = turnView(ctx, m, turn)
    const base = `/games/${m.game.id}`
    const published = ctx.turns.publishedNumbers(m.game.id)
    return { m, turn, tv, base, published }
  }

  /** The report page's data as the holder of seat `me` sees it (null: nobody's robot first), messages aside. */
  const reportPageData = ({ m, turn, tv, base, published }: ReturnType<typeof reportData>, result: TurnResultView, me: string | null) => {
    // Versioned: the pictures are drawn with `me` ringed, and a rollback or correction gives them new URLs.
    const pictureBase = turnPictureBase(`${base}/turns/${turn.number}`, turn, m.seats, me, kit.pictureFingerprint)
    const { sections, fused } = reportSections(result, pictureBase, me,
      (id) => sectionWords(ctx.board(m.game), m.seats, result, id, me))
    return {
      anim: animationData(result, pictureBase),
      ...told(result, tv.programs, Object.fromEntries(m.seats.map((s) => [s.player_id, s.name ?? s.player_id])), me),
      title: `Turn ${turn.number} of ${m.game.name}`, game: { id: m.game.id, name: m.game.name }, turn: tv, result,
      sections, fused, colours: colourMap(m.seats), base, turnBase: `${base}/turns/${turn.number}`, published,
      draft: turn.status === 'draft', isGm: m.isGm, corrections: tv.corrections,
      // New messages arrive live (src/server/live); a report being read is never reloaded under its reader.
      live: `${base}/live`, noRefresh: true, liveMessagesOnly: true,
    }
  }

  app.get<{ Params: { gameId: string; turn: string } }>('/games/:gameId/turns/:turn', async (request, reply) => {
    // A published turn's report is the same for every holder of a seat: kept and served from memory
    // (pages/published-turn.ts), rendered for the seat alone; the viewer's messages are added per request.
    const facts = publishedTurnFacts(kit, request, request.params.gameId, request.params.turn)
    if (facts) {
      const base = `/games/${facts.gameId}`
      return sendPublishedPage(kit, request, reply, {
        variant: 'member', facts, path: `${base}/turns/${facts.turnNumber}`, view: 'turn',
        data: () => {
          // As nobody in particular (no GM, no seat: a published turn shows them all the same), then from the seat's side.
          const m = membership(ctx, facts.gameId, { user: null })
          const turn = turnOf(kit, facts.gameId, String(facts.turnNumber))
          const tv = turnView(ctx, m, turn)
          const published = ctx.turns.publishedNumbers(facts.gameId)
          return { ...reportPageData({ m, turn, tv, base, published }, tv.result!, facts.seat), isGm: false }
        },
        messages: () => keptThread(ctx, { gameId: facts.gameId, viewerId: kit.user(request).id, shape: facts.tableShape, gameBase: base, back: `${base}/turns/${facts.turnNumber}` },
          () => memberOf(ctx, facts.gameId, request.viewer)),
      })
    }
    const data = reportData(request, request.params.gameId, request.params.turn)
    const { m, turn, tv, base } = data
    if (!tv.result) {
      if (tv.me?.canSubmit) return reply.redirect(`${base}/turns/${turn.number}/submit`, 303)
      return kit.render(request, reply, 'turn-waiting', { title: `Turn ${turn.number}`, game: { id: m.game.id, name: m.game.name }, turn: tv, base, live: `${base}/live`, liveAt: liveAt(ctx, m.game) })
    }
    return kit.render(request, reply, 'turn', {
      ...reportPageData(data, tv.result, m.seat?.player_id ?? null), table: tableModel(ctx, m, kit.user(request).id),
    })
  })

  app.get<{ Params: { gameId: string; turn: string; step: string } }>('/games/:gameId/turns/:turn/replay/:step', async (request, reply) => {
    const { m, turn, tv, base } = reportData(request, request.params.gameId, request.params.turn)
    if (!tv.result) throw notFound(`turn ${turn.number} has no results yet`)
    const turnBase = `${base}/turns/${turn.number}`
    const result = tv.result
    return replayPage(kit, request, reply, {
      result, step: request.params.step, turnBase, pictureBase: turnPictureBase(turnBase, turn, m.seats, m.seat?.player_id, kit.pictureFingerprint), colours: colourMap(m.seats),
      describe: (id) => sectionWords(ctx.board(m.game), m.seats, result, id, m.seat?.player_id ?? null),
      game: { id: m.game.id, name: m.game.name }, draft: turn.status === 'draft', base,
    })
  })
}

/**
 * The board as the turn began, with the player's robot ringed, drawn into the form; and, when the
 * GM allows it and the robot plays cards, what the browser's preview needs: the board file, its
 * state, the player's own robot and where the others stand (public on the game page anyway).
 * Never anyone else's hand or program.
 */
function planOf(ctx: ServiceContext, m: Membership, turn: TurnRow, player: string, playing: boolean) {
  const dealt = dealtState(turn)
  const board = ctx.board(m.game)
  const { names, colours } = reportNames(m.seats)
  const robots = dealt.robots.map(snapshot)
  const title = `${m.game.name}: before turn ${dealt.turn}`
  const picture = boardSvg(board, { robots, boardState: dealt.board, names, colours, title, highlight: player })
  const mine = dealt.robots.find((r) => r.player === player)
  const preview = m.game.path_preview === 1 && playing && mine ? {
    board: JSON.parse(m.game.board_json) as unknown, boardState: dealt.board, turn: dealt.turn, me: mine,
    others: robots.filter((r) => r.player !== player), colours, names, title,
  } : null
  // A data block, never run: "<" is escaped so no name can close the script element.
  return { picture, previewJson: preview ? JSON.stringify(preview).replace(/</g, '\\u003c') : null, previewOff: m.game.path_preview !== 1 }
}

/**
 * The service's refusal of a program, said to a person about a register: the service speaks of
 * `cards[2]` and codes ("cards[2]: "X" is not a card like FWD2:700"), the form has registers.
 */
export function plainProgramError(err: AppError, unfused: readonly number[]): FieldErrors {
  // The card at fault, by its place among the program's cards (the API's field: cards[0] is the first).
  const index = /^cards\[(\d+)\]$/.exec(err.field ?? '')?.[1]
  const register = index === undefined ? undefined : unfused[Number(index)]
  const card = /\(([A-Z0-9]{4}:\d+)\)/.exec(err.message)?.[1]
  const what = card ? cardLabel(card) : 'That card'
  const why = /used twice/.test(err.message) ? `${what} is used twice; each card can be used once.`
    : /card set/.test(err.message) ? `${what} needs an upgrade station your robot has not visited yet.`
    : /not in your hand/.test(err.message) ? `${what} is not in your hand.`
    : 'That is not one of your cards.'
  if (!register) return { _form: `Your program could not be stored: ${why.charAt(0).toLowerCase()}${why.slice(1)} Choose a card for each register again (the page may have been out of date).` }
  return { [`r${register}`]: `Register ${register}: ${why} Choose one of your cards (the page may have been out of date).` }
}

const ANIMATED = new Set(['moved', 'teleported', 'turned', 'destroyed', 'board-laser', 'robot-laser'])

/**
 * When an event plays in the replay: events with the same beat play together. A card's moves
 * keep their priority order (R5, R10), one card step at a time, and a robot it pushes moves with
 * it (same priority and step, R13); the board's phases move every robot at once (each conveyor
 * step, pushers, gears, crushers), and the lasers of a phase fire together (R26).
 */
export function beatOf(time: EventTime): string {
  return time.phase === 'movement' ? `movement:${time.priority ?? 0}:${time.step}` : `${time.phase}:${time.step}`
}

/**
 * What the animated replay (views/static/replay.js) needs besides the stage pictures: each stage's
 * moves, turns, destructions and shots, in order, with their beat, in a few fields. Only what the report shows.
 */
export function animationData(result: TurnResultView, pictureBase: string): string {
  const stages = result.stages.map((s) => ({
    events: s.events.filter((e) => ANIMATED.has(e.kind)).map((e) => {
      const slim: Record<string, unknown> = { kind: e.kind, beat: beatOf(e.time) }
      for (const key of ['player', 'to', 'cause', 'facing', 'squares'] as const) if (key in e) slim[key] = (e as Record<string, unknown>)[key]
      return slim
    }),
  }))
  // A data block, never run: "<" is escaped so nothing in it can close the script element.
  return JSON.stringify({ pictureBase, stages }).replace(/</g, '\\u003c')
}

/** A turn report's story lines and programs for a page: the viewer's own first, cards in words. */
export function told(result: TurnResultView, programs: Record<string, { cards: string[] }> | null, names: Record<string, string>, me: string | null = null) {
  return {
    names,
    story: mineFirst(turnStory(result, names), me).map((l) => ({ ...l, mine: l.player === me })),
    programs: programs
      ? Object.fromEntries(mineFirst(Object.entries(programs).map(([player, p]) => ({ ...p, player, labels: p.cards.map(cardLabel) })), me).map((p) => [p.player, p]))
      : null,
  }
}

export interface ReplayInput {
  result: TurnResultView; step: string; turnBase: string; pictureBase: string; colours: Record<string, string>; describe: DescribeSection
  game: { id: string; name: string }; draft: boolean; base: string
}

export function replayPage(kit: PageKit, request: FastifyRequest, reply: FastifyReply, input: ReplayInput) {
  const { sections } = reportSections(input.result, input.pictureBase, null, input.describe)
  const index = sections.findIndex((s) => s.id === (input.step === 'end' ? 'end' : `stage-${input.step}`))
  if (index < 0) throw notFound('no such stage')
  const stepOf = (s: ReportSection) => (s.id === 'end' ? 'end' : s.id.replace('stage-', ''))
  const prev = sections[index - 1]
  const next = sections[index + 1]
  return kit.render(request, reply, 'replay', {
    title: `Turn ${input.result.turn}, ${sections[index]!.heading}`, section: sections[index], sections, index,
    prev: prev ? `${input.turnBase}/replay/${stepOf(prev)}` : null, next: next ? `${input.turnBase}/replay/${stepOf(next)}` : null,
    steps: sections.map((s) => ({ label: s.id === 'end' ? 'End' : s.id.replace('stage-', ''), href: `${input.turnBase}/replay/${stepOf(s)}`, heading: s.heading })),
    colours: input.colours, game: input.game, turnNumber: input.result.turn, turnBase: input.turnBase, draft: input.draft, base: input.base,
  })
}
