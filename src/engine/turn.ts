// resolveTurn: a game state and every player's orders in, the new state and the turn's ordered
// event log out (R10). Pure: the input is copied, never changed, and nothing here reads a clock,
// a file or Math.random.
import { tablesOf } from './board-tables.js'
import { emit, now, realRobotGrid, setPhase, workingCopy, type Resolution, type TurnRobot } from './context.js'
import { byPlayer, forPlayer } from './by-player.js'
import { endTurn } from './end-of-turn.js'
import type { GameEvent } from './events.js'
import { playStage } from './stage.js'
import {
  REGISTER_COUNT,
  type Board, type BoardState, type Card, type GameState, type RobotSnapshot, type RobotState, type TurnOrders,
} from './types.js'

export interface StageResult {
  stage: number
  events: GameEvent[]
  /** Every robot at the end of the stage (after step 5 of R10). */
  robots: RobotSnapshot[]
  board: BoardState
}

export interface TurnResult {
  /** The turn that was played. */
  turn: number
  state: GameState
  /** Robots and mechanisms as the turn began: the picture above stage 1. */
  start: { robots: RobotSnapshot[]; board: BoardState; events: GameEvent[] }
  /** One entry per stage played: five, unless the game ended earlier (R34). */
  stages: StageResult[]
  /** The end-of-turn events (repairs, reboots, reinstatement, game over) and the robots after them. */
  end: { events: GameEvent[]; robots: RobotState[] }
  /** Each player's registers as played this turn, revealed with the results. */
  registers: Record<string, (Card | null)[]>
}

/**
 * A working copy as the plain RobotState the new state holds, without what only the turn needed
 * (see TurnRobot): field by field, in the order a stored state has always had them.
 */
function finalRobot(robot: TurnRobot): RobotState {
  return {
    player: robot.player,
    at: robot.at,
    facing: robot.facing,
    hp: robot.hp,
    mode: robot.mode,
    robotsLeft: robot.robotsLeft,
    flags: robot.flags,
    checkpoint: robot.checkpoint,
    stations: robot.stations,
    options: robot.options,
    sacrificeAt: robot.sacrificeAt,
    doubleWrench: robot.doubleWrench,
    fused: robot.fused,
    rebooting: robot.rebooting,
    rebootNext: robot.rebootNext,
    placedAfterTurn: robot.placedAfterTurn,
  }
}

/** A robot at one moment. Squares are never changed in place (moving replaces them), so it can share its square. */
export function snapshot(robot: RobotState): RobotSnapshot {
  return { player: robot.player, at: robot.at, facing: robot.facing, hp: robot.hp, mode: robot.mode, rebooting: robot.rebooting }
}

/** Every robot at one moment, in seat order: a loop, since it runs six times a turn and Array#map calls per robot. */
function snapshots(robots: readonly RobotState[]): RobotSnapshot[] {
  const out = new Array<RobotSnapshot>(robots.length)
  for (let seat = 0; seat < robots.length; seat++) out[seat] = snapshot(robots[seat]!)
  return out
}

/** Whether a robot needs orders this turn: it is on the floor and not rebooting. */
export function needsProgram(robot: RobotState): boolean {
  return robot.mode !== 'destroyed' && robot.at !== null && !robot.rebooting
}

/** Whether the robot was reinstated at the end of the last turn, so its player may name its facing with turn `turn`'s orders (R29, A4). */
export function choosesFacing(robot: Pick<RobotState, 'mode' | 'placedAfterTurn'>, turn: number): boolean {
  return robot.mode === 'virtual' && robot.placedAfterTurn > 0 && robot.placedAfterTurn === turn - 1
}

export function resolveTurn(board: Board, state: GameState, orders: Readonly<Record<string, TurnOrders>>): TurnResult {
  if (state.gameOver) throw new Error('resolveTurn: the game is already over')
  const robots = new Array<TurnRobot>(state.robots.length)
  for (let seat = 0; seat < robots.length; seat++) robots[seat] = workingCopy(board, state.robots[seat]!, seat)
  const tables = tablesOf(board)
  const ctx: Resolution = {
    board,
    tables,
    turn: state.turn,
    // Shared with the caller until a mechanism changes: changeBoardState copies it first.
    boardState: state.board,
    robots,
    registers: [],
    optionDeck: state.optionDeck.slice(),
    events: [],
    time: { stage: 0, phase: 'orders', priority: null, step: 0 },
    stamp: null,
    lostLastRobot: [],
    boardStateShared: true,
    pusherArrivals: null,
    fallen: null,
    realAt: realRobotGrid(board, robots, tables),
    given: state.robots,
  }
  setPhase(ctx, 'orders')
  for (const robot of ctx.robots) ctx.registers.push(loadRegisters(ctx, robot, forPlayer(orders, robot.player)))
  const start = { robots: snapshots(ctx.robots), board: ctx.boardState, events: ctx.events }
  // Stages in which no mechanism changed share the previous picture of the board state; a stage
  // that changed one has its own, since the change was made on a copy (changeBoardState).
  let boardSnapshot = start.board

  const stages: StageResult[] = []
  let finishers: string[] = []
  for (let stage = 1; stage <= REGISTER_COUNT && finishers.length === 0; stage++) {
    ctx.events = []
    finishers = playStage(ctx, stage)
    if (finishers.length > 0) {
      // R34: the game ends at the end of the stage in which a robot tags the last flag.
      emit(ctx, { time: now(ctx), kind: 'game-over', winners: finishers })
    }
    if (!ctx.boardStateShared) {
      boardSnapshot = ctx.boardState
      ctx.boardStateShared = true
    }
    stages.push({ stage, events: ctx.events, robots: snapshots(ctx.robots), board: boardSnapshot })
  }

  ctx.events = []
  const outcome = finishers.length > 0 ? { gameOver: true, winners: finishers } : endTurn(ctx)
  const registers = byPlayer<(Card | null)[]>()
  const finalRobots = new Array<RobotState>(ctx.robots.length)
  for (let seat = 0; seat < ctx.robots.length; seat++) {
    registers[ctx.robots[seat]!.player] = ctx.registers[seat]!
    finalRobots[seat] = finalRobot(ctx.robots[seat]!)
  }
  return {
    turn: state.turn,
    state: {
      turn: state.turn + 1,
      robots: finalRobots,
      board: ctx.boardState,
      optionDeck: ctx.optionDeck,
      hands: {},
      rng: state.rng, // resolving draws nothing at random: dealing (R7) and filling (R9) happen before
      gameOver: outcome.gameOver,
      winners: outcome.winners,
    },
    start,
    stages,
    // The new state's robots are final from here on, so the end table shares them.
    end: { events: ctx.events, robots: finalRobots },
    registers,
  }
}

/**
 * Lays out a robot's registers for the turn: fused registers keep their cards (R27), the others
 * take the program's cards in order (R8). Also records the orders' reboot declaration (R33) and a
 * reinstated robot's chosen facing (R29).
 */
function loadRegisters(ctx: Resolution, robot: TurnRobot, given: TurnOrders | undefined): (Card | null)[] {
  // Every register is set below: Array#fill is a slow call into the runtime for an array this small.
  const registers = new Array<Card | null>(REGISTER_COUNT)
  robot.rebootNext = given?.rebootNext ?? false
  if (!needsProgram(robot)) {
    for (let k = 0; k < REGISTER_COUNT; k++) registers[k] = null
    return registers
  }
  if (!given) throw new Error(`resolveTurn: no orders for ${robot.player}`)
  // `open` counts the unfused registers as the program's cards go into them.
  let open = 0
  // A fused register holds a card or null, never undefined (see RobotState.fused): one read tells
  // both whether it is fused and what it holds, where `k in fused` would be a slower, second look.
  for (let k = 1; k <= REGISTER_COUNT; k++) {
    const fused = robot.fused[k]
    registers[k - 1] = fused !== undefined ? fused : given.cards[open++] ?? null
  }
  if (given.cards.length !== open) {
    throw new Error(`resolveTurn: ${robot.player} has ${open} unfused registers but ${given.cards.length} cards`)
  }
  if (given.filledByServer) emit(ctx, { time: now(ctx), kind: 'program-filled', player: robot.player, cards: given.cards })
  if (given.facing && choosesFacing(robot, ctx.turn)) {
    robot.facing = given.facing
    emit(ctx, { time: now(ctx), kind: 'facing-chosen', player: robot.player, facing: given.facing })
  }
  return registers
}
