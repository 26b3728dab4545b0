// Corrections in the draft (issue 12): the GM enters or amends a player's program on their behalf
// (a program the player mailed, an obvious slip they asked to fix), with a reason. The program is
// stored as a new version by the GM, the draft is resolved again, the player is mailed what
// changed, and the published report lists every correction (who, what, why, when).
import { formatCard, parseCard } from '../../engine/deck.js'
import { programProblemAt } from '../../engine/program.js'
import type { Card } from '../../engine/types.js'
import { badRequest, conflict, forbidden, notFound } from '../errors.js'
import { correctionMail } from '../mail/gm-templates.js'
import type { SubmissionRow } from '../repositories/turns.js'
import type { correctionRequest } from '../schemas-gm.js'
import { reportNames, type Membership, type ServiceContext } from './context.js'
import { requireGm } from './membership.js'
import { checkExpectedTurn } from './turn-version.js'
import { dealtState } from './deal.js'
import { resolveDraft } from './turns.js'
import type { z } from 'zod'

export type CorrectionInput = z.output<typeof correctionRequest>

const NO_PROGRAM = 'no program (the server would fill it at random, R9)'

function describe(row: Pick<SubmissionRow, 'cards_json' | 'reboot_next'>): string {
  const cards = JSON.parse(row.cards_json) as string[]
  return `${cards.length ? cards.join(' ') : 'no cards'}${row.reboot_next ? ', reboot declared for next turn' : ''}`
}

export function correctProgram(ctx: ServiceContext, m: Membership, turnNumber: number, input: CorrectionInput): void {
  requireGm(m)
  ctx.write(() => {
    const game = ctx.games.byId(m.game.id)!
    checkExpectedTurn(ctx, game.id, input.expectedTurn)
    if (game.status !== 'running' && game.status !== 'paused') throw conflict(`the game is ${game.status}`)
    const turn = ctx.turns.byNumber(game.id, turnNumber)
    if (!turn) throw notFound(`no turn ${turnNumber}`)
    if (turn.status !== 'draft') throw conflict(`turn ${turnNumber} is ${turn.status}: programs are corrected in the draft, under review`)
    const seat = ctx.games.seats(game.id).find((s) => s.player_id === input.player)
    if (!seat) throw badRequest(`no player ${input.player} in this game`, 'player')
    // Secrets (issue 11): a GM who plays never changes their own program after seeing the others'.
    // Whoever holds the seat decides, not the game's gmPlays setting: a GM may also take a seat by
    // invitation or an open seat before the start.
    if (seat.user_id === game.gm_user_id) throw forbidden('a GM who plays cannot correct their own program')
    const dealt = dealtState(turn)
    const robot = dealt.robots.find((r) => r.player === input.player)
    if (!robot) throw conflict(`${seat.name ?? input.player} has no robot in turn ${turnNumber}`, 'player')
    const cards: Card[] = input.cards.map((text, i) => {
      const card = parseCard(text.trim().toUpperCase())
      if (!card) throw badRequest(`cards[${i}]: "${text}" is not a card like FWD2:700`, `cards[${i}]`)
      return card
    })
    const problem = programProblemAt(robot, dealt.hands[input.player] ?? [], cards)
    // The field names the card at fault as a malformed one is named (cards[0] is the first), or the whole program.
    if (problem) throw badRequest(problem.message, problem.card === null ? 'cards' : `cards[${problem.card}]`)
    const previous = ctx.gm.latestProgram(turn.id, input.player)
    const after = { cards_json: JSON.stringify(cards.map(formatCard)), reboot_next: input.rebootNext ? 1 : 0 }
    if (previous && previous.cards_json === after.cards_json && previous.reboot_next === after.reboot_next) {
      throw badRequest('this is the program already in: nothing to correct', 'cards')
    }
    const now = ctx.now()
    const stored = ctx.turns.insertSubmission({
      turn_id: turn.id, player_id: input.player, user_id: m.game.gm_user_id, version: (previous?.version ?? 0) + 1,
      ...after,
      sacrifice_at: previous?.sacrifice_at ?? robot.sacrificeAt,
      double_wrench: previous?.double_wrench ?? robot.doubleWrench,
      facing: previous?.facing ?? null, submitted_at: now,
    })
    const before = previous ? describe(previous) : NO_PROGRAM
    ctx.gm.addCorrection({
      turn_id: turn.id, player_id: input.player, gm_user_id: game.gm_user_id, submission_id: stored.id,
      before_json: previous ? previous.cards_json : null, after_json: after.cards_json, reason: input.reason, at: now,
    })
    resolveDraft(ctx, game, ctx.turns.byId(turn.id)!)
    ctx.games.logAction(game.id, now, 'correct', input.reason, { turn: turnNumber, player: input.player })
    if (seat.email) {
      ctx.mail({
        kind: 'correction', gameId: game.id, to: seat.email, restsOnTurn: turnNumber - 1,
        ...correctionMail(game.name, turnNumber, before, describe(after), input.reason, ctx.link(`/games/${game.id}/turns/${turnNumber}`)),
      })
    }
  })
}

export interface CorrectionView { player: string; name: string; before: string; after: string; reason: string; at: string }

/** A turn's corrections; the caller shows them only where the turn's programs may be seen. */
export function correctionsOf(ctx: ServiceContext, gameId: string, turnId: number): CorrectionView[] {
  const rows = ctx.gm.corrections(turnId)
  if (!rows.length) return []
  const { names } = reportNames(ctx.games.seats(gameId))
  return rows.map((c) => {
    const submission = ctx.gm.submission(c.submission_id)!
    const previous = ctx.gm.programBefore(turnId, c.player_id, submission.version)
    return {
      player: c.player_id, name: names[c.player_id] ?? c.player_id, reason: c.reason, at: new Date(c.at).toISOString(),
      before: previous ? describe(previous) : NO_PROGRAM, after: describe(submission),
    }
  })
}

/** The corrections as lines under the text report (mail), or nothing. */
export function correctionsText(ctx: ServiceContext, turnId: number): string {
  const turn = ctx.turns.byId(turnId)!
  const list = correctionsOf(ctx, turn.game_id, turnId)
  if (!list.length) return ''
  return ['', 'Corrections by the GM', ...list.map((c) => `  ${c.name}, ${c.at.slice(0, 16).replace('T', ' ')} UTC: ${c.before} -> ${c.after}. Why: ${c.reason}`), ''].join('\n')
}
