// The planner every thinking bot shares: it tries programs on the engine itself, stage by stage.
// Programs that begin alike share their first stages, and programs that reach the same state with
// the same cards left share the rest (a table of states already solved), so the up to 15,120
// orderings of a full hand cost a few thousand stages, not 75,600. Each stage is the engine's own
// `playStage` on the engine's own working state (context.ts): the rules are never copied here.
import { realRobotGrid, workingCopy, type Resolution } from '../engine/context.js'
import { canUseCard, cardSetsFor } from '../engine/deck.js'
import { endTurn } from '../engine/end-of-turn.js'
import { squareIndex } from '../engine/board.js'
import { tablesOf } from '../engine/board-tables.js'
import { playStage } from '../engine/stage.js'
import { choosesFacing, needsProgram } from '../engine/turn.js'
import { DIRECTIONS, REGISTER_COUNT, type BoardState, type Card, type Direction, type RobotState, type TurnOrders } from '../engine/types.js'
import { ownRobot, type SeatView } from './seat-view.js'

/** How a turn the planner tried would end. */
export interface Outcome {
  /** Every robot after the turn (its end included: repairs, reinstatement), in seat order. */
  robots: RobotState[]
  /** The bot's own robot in `robots`. */
  me: RobotState
  boardState: BoardState
  /** Players who tagged the last flag during the turn (R34); the turn stops there. */
  winners: string[]
}

/** Scores an outcome for the bot in `view`: higher is better. */
export type Objective = (outcome: Outcome, view: SeatView) => number

export interface Plan {
  orders: TurnOrders
  outcome: Outcome
  score: number
}

export interface PlanSetup {
  /**
   * What the other robots play, by player: five registers (null where none). A robot not listed
   * stands still, playing only the cards fused in its registers, which every player can see.
   */
  others?: Readonly<Record<string, readonly (Card | null)[]>>
  /** Declare a reboot for the next turn with this program (R33). */
  rebootNext?: boolean
}

/** The hand's cards the robot may play (R6), highest priority first. */
export function playableCards(view: SeatView): Card[] {
  const sets = cardSetsFor(ownRobot(view).stations.length)
  return view.hand.filter((card) => canUseCard(card, sets)).sort((a, b) => b.priority - a.priority)
}

/** The registers a robot fills with `cards` (R8): fused registers keep their cards (R27). */
export function registersFor(robot: RobotState, cards: readonly Card[]): (Card | null)[] {
  const out: (Card | null)[] = []
  let next = 0
  for (let k = 1; k <= REGISTER_COUNT; k++) out.push(robot.fused[k] !== undefined ? robot.fused[k]! : cards[next++] ?? null)
  return out
}

/** The turn's working state before stage 1, as resolveTurn lays it out (R8, R27, R29). */
function startOfTurn(view: SeatView, seat: number, setup: PlanSetup, facing: Direction | undefined): Resolution {
  const robots = view.robots.map((robot, s) => workingCopy(view.board, robot, s))
  const registers = robots.map((robot, s) => {
    const planned = s === seat ? undefined : setup.others?.[robot.player]
    const out = new Array<Card | null>(REGISTER_COUNT)
    for (let k = 1; k <= REGISTER_COUNT; k++) {
      const fused = robot.fused[k]
      out[k - 1] = !needsProgram(robot) ? null : fused !== undefined ? fused : planned?.[k - 1] ?? null
    }
    robot.rebootNext = s === seat ? setup.rebootNext ?? false : false
    return out
  })
  const me = robots[seat]!
  if (facing && choosesFacing(me, view.turn)) me.facing = facing
  return {
    board: view.board, tables: tablesOf(view.board), turn: view.turn, boardState: view.boardState, robots, registers, optionDeck: [], events: [],
    time: { stage: 0, phase: 'orders', priority: null, step: 0 }, stamp: null, lostLastRobot: [],
    boardStateShared: true, pusherArrivals: null, fallen: null, realAt: realRobotGrid(view.board, robots), given: view.robots,
  }
}

/**
 * A copy of a working state to play one more stage on. The copy's fused registers and board
 * state are shared with `from` until a rule changes them (the engine copies on write, seeing
 * `from`'s robots as the ones given), so `from` stays as it was, ready for its other children.
 */
function branch(from: Resolution): Resolution {
  const robots = from.robots.map((robot) => workingCopy(from.board, robot, robot.seat))
  from.boardStateShared = true
  return {
    board: from.board, tables: from.tables, turn: from.turn, boardState: from.boardState, robots,
    registers: from.registers.map((list) => list.slice()), optionDeck: from.optionDeck.slice(), events: [],
    time: { ...from.time }, stamp: null,
    lostLastRobot: from.lostLastRobot.map((robot) => robots[from.robots.indexOf(robot)]!),
    boardStateShared: true, pusherArrivals: null, fallen: null, realAt: realRobotGrid(from.board, robots), given: from.robots, seatGrid: from.seatGrid,
  }
}

/** What tells two working states apart for the rest of the turn (the fused cards' identity only matters later). */
function stateKey(ctx: Resolution, root: BoardState): string {
  let key = ctx.boardState === root ? '' : JSON.stringify(ctx.boardState)
  for (const r of ctx.robots) {
    key += `|${r.at === null ? -1 : squareIndex(ctx.board, r.at)}${r.facing}${r.hp}${r.mode[0]}${r.flags}${r.robotsLeft}${r.rebooting ? 'b' : ''}`
      + `${r.checkpoint === null ? '' : squareIndex(ctx.board, r.checkpoint)},${r.stations.length},${r.options.length}`
  }
  return key
}

interface Best {
  score: number
  /** The cards for the unfused registers from this stage on. */
  cards: Card[]
  outcome: Outcome
}

class Search {
  private readonly solved = new Map<string, Best>()
  /**
   * Which registers take a card from the program: those unfused as the turn begins. Damage during
   * the turn fuses registers for the next turn only (R27), so the working robot's are not asked.
   */
  private readonly open: boolean[]
  constructor(
    private readonly view: SeatView,
    private readonly seat: number,
    private readonly objective: Objective,
    private readonly root: BoardState,
  ) {
    const me = view.robots[seat]!
    this.open = [false]
    for (let k = 1; k <= REGISTER_COUNT; k++) this.open.push(needsProgram(me) && me.fused[k] === undefined)
  }

  /** The best way to play stages `stage`..5 from `ctx`, with `cards` (highest priority first) left for the unfused registers. */
  best(ctx: Resolution, stage: number, cards: readonly Card[]): Best {
    if (stage > REGISTER_COUNT) return this.finish(ctx, [], [])
    const key = `${stage}${kindsOf(cards)}${stateKey(ctx, this.root)}`
    const known = this.solved.get(key)
    if (known) return known
    let found: Best | null = null
    if (!this.open[stage] || cards.length === 0) {
      found = this.play(ctx, stage, null, cards)
    } else {
      // Cards of one kind do the same thing to a robot, so each kind is tried once, with its
      // highest priority card: it moves before the others' cards of that kind (R10).
      const seen = new Set<string>()
      for (const card of cards) {
        if (seen.has(card.kind)) continue
        seen.add(card.kind)
        const tried = this.play(ctx, stage, card, cards)
        if (!found || tried.score > found.score) found = tried
      }
    }
    this.solved.set(key, found!)
    return found!
  }

  /** Plays `card` (or the fused register) in stage `stage` on a copy of `ctx`, then the best rest. */
  private play(ctx: Resolution, stage: number, card: Card | null, cards: readonly Card[]): Best {
    const next = branch(ctx)
    const rest = card ? cards.filter((c) => c !== card) : cards
    if (card) next.registers[this.seat]![stage - 1] = card
    const winners = playStage(next, stage)
    const me = next.robots[this.seat]!
    let best: Best
    if (winners.length > 0) best = this.finish(next, winners, rest, stage)
    else if (me.mode === 'destroyed') best = this.finishDestroyed(next, stage, rest)
    else best = this.best(next, stage + 1, rest)
    return card ? { ...best, cards: [card, ...best.cards] } : best
  }

  /**
   * The robot is destroyed (R11) and plays no more cards: the other registers are filled with any
   * cards left, the remaining stages are still played for the board, and the turn ends.
   */
  private finishDestroyed(ctx: Resolution, stage: number, cards: readonly Card[]): Best {
    const filler: Card[] = []
    for (let k = stage + 1; k <= REGISTER_COUNT; k++) {
      if (!this.open[k] || filler.length >= cards.length) continue
      const card = cards[filler.length]!
      ctx.registers[this.seat]![k - 1] = card
      filler.push(card)
    }
    for (let k = stage + 1; k <= REGISTER_COUNT; k++) {
      ctx.events = []
      const winners = playStage(ctx, k)
      if (winners.length > 0) return this.finish(ctx, winners, [], k, filler)
    }
    return this.finish(ctx, [], [], REGISTER_COUNT, filler)
  }

  /** The turn's end: the game ended in `stage` if there are winners (R34, A7), else the end-of-turn steps. */
  private finish(ctx: Resolution, winners: string[], left: readonly Card[], stage = REGISTER_COUNT, filler: Card[] = []): Best {
    // A game won mid-turn plays no more stages; the program still fills every unfused register (R8).
    const cards = filler.slice()
    for (let k = stage + 1; k <= REGISTER_COUNT && winners.length > 0; k++) {
      if (this.open[k] && cards.length < left.length) cards.push(left[cards.length]!)
    }
    if (winners.length === 0) endTurn(ctx)
    const outcome: Outcome = { robots: ctx.robots, me: ctx.robots[this.seat]!, boardState: ctx.boardState, winners }
    return { score: this.objective(outcome, this.view), cards, outcome }
  }
}

function kindsOf(cards: readonly Card[]): string {
  let key = ''
  for (const card of cards) key += card.kind
  return key
}

/**
 * The best program for the bot's robot by `objective`, tried on the engine (see the file's
 * header). A robot reinstated last turn also chooses its facing (R29, A4) among all four.
 */
export function bestPlan(view: SeatView, objective: Objective, setup: PlanSetup = {}): Plan {
  const seat = view.robots.findIndex((r) => r.player === view.player)
  if (seat < 0) throw new Error(`bestPlan: no robot for ${view.player}`)
  const me = view.robots[seat]!
  const cards = needsProgram(me) ? playableCards(view) : []
  const facings: (Direction | undefined)[] = choosesFacing(me, view.turn) ? [...DIRECTIONS] : [undefined]
  let plan: Plan | null = null
  for (const facing of facings) {
    const search = new Search(view, seat, objective, view.boardState)
    const found = search.best(startOfTurn(view, seat, setup, facing), 1, cards)
    if (plan && found.score <= plan.score) continue
    const orders: TurnOrders = { cards: found.cards, rebootNext: setup.rebootNext ?? false }
    if (facing) orders.facing = facing
    plan = { orders, outcome: found.outcome, score: found.score }
  }
  return plan!
}
