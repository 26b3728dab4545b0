// Rules cases (FORMAT.md section 2): one turn on one board with everything fixed. Parsing turns a
// case's JSON into a board, a game state and orders, or into one message naming the bad field;
// `caseOutput` prints a resolved turn in the shape of FORMAT.md section 3.
import { z } from 'zod'
import { byPlayer } from './by-player.js'
import { compileBoard, describeIssues, fieldPath, floorAt, initialBoardState, parseBoard, squareSchema, isOnBoard, MAX_BOARD_SIDE, type ParseResult } from './board.js'
import { canUseCard, cardSetsFor, fusedRegistersFor, parseCard, unfusedRegisters } from './deck.js'
import { formatSquare, parseSquare, sameSquare } from './geometry.js'
import { seedRandom } from './random.js'
import { needsProgram, type TurnResult } from './turn.js'
import {
  DEFAULT_SACRIFICE_AT, DIRECTIONS, DOUBLE_WRENCH_CHOICES, MAX_HP, OPTION_NAMES, ROBOTS_PER_PLAYER,
  type Board, type BoardState, type Card, type GameState, type RobotState, type Square, type TurnOrders,
} from './types.js'

const cardSchema = z.string().transform((text, ctx): Card => {
  const card = parseCard(text)
  if (!card) {
    ctx.addIssue({ code: 'custom', message: `"${text}" is not a card of the deck (R5), written like FWD2:700` })
    return z.NEVER
  }
  return card
})

const robotSchema = z.object({
  player: z.string().min(1),
  at: squareSchema,
  facing: z.enum(DIRECTIONS).default('N'),
  hp: z.number().int().min(1).max(MAX_HP).default(MAX_HP),
  mode: z.enum(['real', 'virtual']).default('real'),
  placedAfterTurn: z.number().int().min(0).default(0),
  robotsLeft: z.number().int().min(1).max(ROBOTS_PER_PLAYER).default(ROBOTS_PER_PLAYER),
  flags: z.number().int().min(0).default(0),
  checkpoint: squareSchema.nullable().default(null),
  // R6 counts different stations, and R30 records a station only on the first visit.
  stations: z.array(squareSchema).refine((s) => new Set(s.map(formatSquare)).size === s.length, 'a station is listed twice (R30 records each once)').default([]),
  options: z.array(z.enum(OPTION_NAMES)).refine((o) => new Set(o).size === o.length, 'an option is listed twice').default([]),
  sacrificeAt: z.number().int().min(0).max(MAX_HP).default(DEFAULT_SACRIFICE_AT),
  doubleWrench: z.enum(DOUBLE_WRENCH_CHOICES).default('repair'),
  fused: z.partialRecord(z.enum(['1', '2', '3', '4', '5']), cardSchema.nullable()).default({}),
  rebooting: z.boolean().default(false),
  program: z.array(cardSchema),
  rebootNext: z.boolean().default(false),
})

const boardStateSchema = z.object({
  switches: z.record(z.string(), z.enum(['on', 'off'])).default({}),
  drawbridges: z.record(z.string(), z.enum(['raised', 'lowered'])).default({}),
  teleporters: z.record(z.string(), z.enum(['active', 'inactive'])).default({}),
}).partial().strict()

const caseSchema = z.object({
  id: z.string().optional(),
  rulings: z.array(z.string()).optional(),
  description: z.string().optional(),
  board: z.union([z.string(), z.record(z.string(), z.unknown())], { error: 'expected a board object (FORMAT.md section 1) or the path of a board file' }),
  turn: z.number().int().min(1).default(1),
  // FORMAT.md sets no number of robots: no more than the largest board has squares.
  robots: z.array(robotSchema).min(1).max(MAX_BOARD_SIDE * MAX_BOARD_SIDE),
  boardState: boardStateSchema.optional(),
  optionDeck: z.array(z.enum(OPTION_NAMES)).optional(),
}, { error: 'a rules case is one JSON object (FORMAT.md section 2)' })

export interface ParsedCase {
  board: Board
  state: GameState
  orders: Record<string, TurnOrders>
}

/** Reads a board named by path in a case; injected so the engine itself does no I/O. */
export type BoardLoader = (path: string) => unknown

/** A `boardState` key that names no element of its group on the board. */
const noSuchElement = (group: keyof BoardState, key: string) =>
  `${fieldPath(['boardState', group, key])}: the board has no ${group === 'switches' ? 'switch' : group.slice(0, -1)} on ${key}`

/**
 * A key `__proto__` in one of the case's records (a group of `boardState`, a robot's `fused`), named
 * as any other key the field does not take. JSON.parse keeps it as the record's own key, but a
 * record built by assignment, as the schema builds one, sets its prototype instead and drops it, so
 * the case would be played without it, and with no word said.
 */
function prototypeKeyProblem(input: unknown): string | null {
  const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
  if (!isRecord(input)) return null
  const state = input['boardState']
  if (isRecord(state)) {
    for (const group of ['switches', 'drawbridges', 'teleporters'] as const) {
      const record = state[group]
      if (isRecord(record) && Object.hasOwn(record, '__proto__')) {
        return noSuchElement(group, '__proto__')
      }
    }
  }
  const robots = input['robots']
  if (!Array.isArray(robots)) return null
  for (const [i, robot] of robots.entries()) {
    const fused = isRecord(robot) ? robot['fused'] : undefined
    if (isRecord(fused) && Object.hasOwn(fused, '__proto__')) return `${fieldPath(['robots', i, 'fused'])}: Unrecognized key: "__proto__"`
  }
  return null
}

export function parseRulesCase(input: unknown, loadBoard: BoardLoader): ParseResult<ParsedCase> {
  const prototypeKey = prototypeKeyProblem(input)
  if (prototypeKey) return { ok: false, error: prototypeKey }
  const parsed = caseSchema.safeParse(input)
  if (!parsed.success) return { ok: false, error: describeIssues(parsed.error) }
  const kase = parsed.data
  let boardJson: unknown = kase.board
  if (typeof kase.board === 'string') {
    try { boardJson = loadBoard(kase.board) } catch (error) {
      return { ok: false, error: `board: cannot read board file "${kase.board}": ${(error as Error).message}` }
    }
  }
  const boardResult = parseBoard(boardJson, ['board'])
  if (!boardResult.ok) return boardResult
  const board = compileBoard(boardResult.value)

  const problem = caseProblem(board, kase)
  if (problem) return { ok: false, error: problem }

  const boardState = initialBoardState(board)
  for (const group of ['switches', 'drawbridges', 'teleporters'] as const) {
    for (const [key, value] of Object.entries(kase.boardState?.[group] ?? {})) {
      if (!Object.hasOwn(boardState[group], key)) {
        return { ok: false, error: noSuchElement(group, key) }
      }
      ;(boardState[group] as Record<string, string>)[key] = value
    }
  }
  const standing = robotOnAHole(board, boardState, kase)
  if (standing) return { ok: false, error: standing }
  const held = new Set(kase.robots.flatMap((r) => r.options))
  const optionDeck = kase.optionDeck ?? OPTION_NAMES.filter((o) => !held.has(o))

  const robots: RobotState[] = kase.robots.map((r) => ({
    player: r.player, at: r.at, facing: r.facing, hp: r.hp, mode: r.mode, robotsLeft: r.robotsLeft,
    flags: r.flags, checkpoint: r.checkpoint, stations: r.stations, options: r.options,
    sacrificeAt: r.sacrificeAt, doubleWrench: r.doubleWrench, fused: r.fused as Record<string, Card | null>,
    rebooting: r.rebooting, rebootNext: r.rebootNext, placedAfterTurn: r.placedAfterTurn,
  }))
  const orders = byPlayer<TurnOrders>()
  for (const r of kase.robots) orders[r.player] = { cards: r.program, rebootNext: r.rebootNext }
  const state: GameState = {
    turn: kase.turn, robots, board: boardState, optionDeck, hands: {}, rng: seedRandom(0), gameOver: false, winners: [],
  }
  return { ok: true, value: { board, state, orders } }
}

type CaseInput = z.infer<typeof caseSchema>

/** Checks that need the whole case: squares on the board, fused registers, cards and programs. */
function caseProblem(board: Board, kase: CaseInput): string | null {
  const names = new Set<string>()
  const cardsSeen = new Map<number, string>()
  const optionHolder = new Map<string, string>()
  const checkSquare = (square: Square | null, field: string) =>
    square && !isOnBoard(board, square) ? `${field}: ${formatSquare(square)} is off the ${board.rows}x${board.cols} board` : null
  for (const [i, r] of kase.robots.entries()) {
    const at = `robots[${i}]`
    if (names.has(r.player)) return `${at}.player: "${r.player}" appears twice`
    names.add(r.player)
    const off = checkSquare(r.at, `${at}.at`) ?? checkSquare(r.checkpoint, `${at}.checkpoint`)
      ?? r.stations.map((s, j) => checkSquare(s, `${at}.stations[${j}]`)).find(Boolean)
    if (off) return off
    if (r.flags > board.flagCount) return `${at}.flags: the board has only ${board.flagCount} flags`
    if (r.flags > 0 && r.flags === board.flagCount) return `${at}.flags: ${r.flags} is every flag on the board, so the game is over (R34)`
    // A checkpoint off a flag or wrench, a station off an upgrade square and a robot placed after the
    // turn being played are states no game reaches, but the rules still say how the turn goes, so
    // they are played, not refused (A27).
    if (r.mode === 'real') {
      const other = kase.robots.findIndex((o, j) => j < i && o.mode === 'real' && sameSquare(o.at, r.at))
      if (other >= 0) return `${at}.at: real robots ${kase.robots[other]!.player} and ${r.player} cannot share ${formatSquare(r.at)} (R24)`
    }
    const expected = fusedRegistersFor(r.hp).map(String)
    const given = Object.keys(r.fused).sort()
    if (expected.join() !== given.join()) {
      // Both fields are named: which of the two is wrong is the author's to say.
      return `${at}.fused: [${given.join(', ')}] disagrees with ${at}.hp = ${r.hp}, which fuses registers [${expected.join(', ')}] (R27)`
    }
    const sets = cardSetsFor(r.stations.length)
    const cards: [string, Card | null][] = [
      ...Object.entries(r.fused).map(([k, c]): [string, Card | null] => [`${at}.fused.${k}`, c]),
      ...r.program.map((c, j): [string, Card | null] => [`${at}.program[${j}]`, c]),
    ]
    for (const [field, card] of cards) {
      if (card === null) {
        if (!r.rebooting) return `${field}: only a rebooting robot's fused register may hold no card, and ${at}.rebooting is false (R33)`
        continue
      }
      const earlier = cardsSeen.get(card.priority)
      if (earlier) return `${field}: ${card.kind}:${card.priority} is used twice, here and at ${earlier}`
      cardsSeen.set(card.priority, field)
      if (!canUseCard(card, sets)) {
        const visited = `${r.stations.length} station${r.stations.length === 1 ? '' : 's'}`
        return `${field}: ${card.kind}:${card.priority} belongs to a card set this robot has not unlocked: ${at}.stations lists ${visited} (R6)`
      }
    }
    const option = r.options.findIndex((o) => optionHolder.has(o))
    if (option >= 0) return `${at}.options[${option}]: ${r.options[option]} is held by ${optionHolder.get(r.options[option]!)} too; the option deck has one of each (R32)`
    for (const o of r.options) optionHolder.set(o, r.player)
    const robotLike = { mode: r.mode, at: r.at, rebooting: r.rebooting, fused: r.fused } as RobotState
    const wanted = needsProgram(robotLike) ? unfusedRegisters(robotLike).length : 0
    if (r.program.length !== wanted) {
      return `${at}.program: needs exactly ${wanted} card${wanted === 1 ? '' : 's'} (${r.rebooting ? 'a rebooting robot plays none, R33' : 'one per unfused register, R8'}), got ${r.program.length}`
    }
  }
  const inDeck = new Set<string>()
  for (const [j, option] of (kase.optionDeck ?? []).entries()) {
    if (inDeck.has(option)) return `optionDeck[${j}]: ${option} is listed twice; the option deck has one of each (R32)`
    if (optionHolder.has(option)) return `optionDeck[${j}]: ${option} is held by ${optionHolder.get(option)}, so it is not in the deck (R32)`
    inDeck.add(option)
  }
  return null
}

const floorTypeAt = (board: Board, square: Square) => floorAt(board, square)?.type ?? null

/**
 * A robot cannot start a turn in a pit or on a raised drawbridge, nor come back on one (R14, R15):
 * it would have been destroyed, so no turn is played from there (A27).
 */
function robotOnAHole(board: Board, boardState: BoardState, kase: CaseInput): string | null {
  const hole = (square: Square) => {
    const type = floorTypeAt(board, square)
    if (type === 'pit') return 'a pit'
    return type === 'drawbridge' && boardState.drawbridges[formatSquare(square)] === 'raised' ? 'a raised drawbridge' : null
  }
  for (const [i, r] of kase.robots.entries()) {
    for (const [field, square] of [['at', r.at], ['checkpoint', r.checkpoint]] as const) {
      const what = square && hole(square)
      if (what) return `robots[${i}].${field}: ${formatSquare(square)} is ${what}; a robot there is destroyed (R14, R15)`
    }
  }
  return null
}

const squareOrNull = (square: Square | null) => (square ? formatSquare(square) : null)

export interface CaseOutput {
  stages: { stage: number; robots: { player: string; at: string | null; facing: string; hp: number; mode: string }[] }[]
  robots: Record<string, unknown>[]
  board: BoardState
  gameOver: boolean
  winners: string[]
}

/** FORMAT.md section 3: what `botwars resolve` prints. */
export function caseOutput(result: TurnResult): CaseOutput {
  return {
    stages: result.stages.map((stage) => ({
      stage: stage.stage,
      robots: stage.robots.map((r) => ({ player: r.player, at: squareOrNull(r.at), facing: r.facing, hp: r.hp, mode: r.mode })),
    })),
    robots: result.state.robots.map((r) => ({
      player: r.player,
      at: squareOrNull(r.at),
      facing: r.facing,
      hp: r.hp,
      mode: r.mode,
      robotsLeft: r.robotsLeft,
      flags: r.flags,
      checkpoint: squareOrNull(r.checkpoint),
      stations: r.stations.map(formatSquare),
      cardSets: cardSetsFor(r.stations.length),
      options: r.options,
      fused: Object.fromEntries(Object.entries(r.fused).map(([k, c]) => [k, c ? `${c.kind}:${c.priority}` : null])),
      rebooting: r.rebooting,
      placedAfterTurn: r.placedAfterTurn,
    })),
    board: result.state.board,
    gameOver: result.state.gameOver,
    winners: result.state.winners,
  }
}

export { parseSquare }
