// Board files (FORMAT.md section 1): the zod schema that parses one, the checks that need the
// whole board, and `compileBoard`, which derives the lookup tables the rules use at every step.
import { z } from 'zod'
import { formatSquare, neighbour, opposite, parseSquare } from './geometry.js'
import {
  CONVEYOR_COLOURS, DIRECTIONS, GEAR_TURNS, LASER_COLOURS, STAGES, STEP_OFF_BOARD, STEP_THROUGH_WALL, SWITCH_KINDS, WALL_BITS,
  type Board, type BoardDefinition, type BoardElement, type BoardState, type Direction, type FloorElement,
  type Ray, type Square, type StageNumber, type TeleporterElement,
} from './types.js'

export const MAX_BOARD_SIDE = 50
/**
 * FORMAT.md sets no number of elements. A bound is still kept against a runaway file; this one is
 * far above any board drawn to be played: a floor element on every square of the largest board,
 * and a wall, a pusher and a laser on every side of every square.
 */
export const MAX_BOARD_ELEMENTS = MAX_BOARD_SIDE * MAX_BOARD_SIDE * (1 + 4 * 3)

export const squareSchema = z.string().transform((text, ctx): Square => {
  const square = parseSquare(text)
  if (!square) {
    ctx.addIssue({ code: 'custom', message: `"${text}" is not a square like r3c4` })
    return z.NEVER
  }
  return square
})
const directionSchema = z.enum(DIRECTIONS)
const stagesSchema = z.array(z.number().int().min(1).max(5)).min(1).max(5)
  .refine((stages) => new Set(stages).size === stages.length, 'stages must not repeat')
  .transform((stages) => stages as StageNumber[])

const elementSchemas = [
  z.object({ type: z.literal('wall'), at: squareSchema, side: directionSchema }),
  z.object({ type: z.literal('pit'), at: squareSchema }),
  z.object({ type: z.literal('conveyor'), at: squareSchema, dir: directionSchema, colour: z.enum(CONVEYOR_COLOURS) }),
  z.object({ type: z.literal('pusher'), at: squareSchema, side: directionSchema, stages: stagesSchema }),
  z.object({ type: z.literal('gear'), at: squareSchema, turn: z.enum(GEAR_TURNS) }),
  z.object({ type: z.literal('crusher'), at: squareSchema, stages: stagesSchema }),
  z.object({ type: z.literal('laser'), at: squareSchema, dir: directionSchema, colour: z.enum(LASER_COLOURS), strength: z.number().int().min(1).max(3).default(1) }),
  z.object({ type: z.literal('drawbridge'), at: squareSchema, side: directionSchema }),
  // FORMAT.md: a colour is "a word", of any length (authoringProblem checks that it is one word).
  z.object({ type: z.literal('teleporter'), at: squareSchema, colour: z.string().min(1), active: z.boolean().default(false) }),
  // A switch with no targets still flips (R16), and its state is part of the board's (FORMAT.md section 3).
  z.object({ type: z.literal('switch'), at: squareSchema, kind: z.enum(SWITCH_KINDS), targets: z.array(squareSchema).max(MAX_BOARD_SIDE * MAX_BOARD_SIDE) }),
  z.object({ type: z.literal('wrench'), at: squareSchema, count: z.union([z.literal(1), z.literal(2)]) }),
  z.object({ type: z.literal('flag'), at: squareSchema, number: z.number().int().min(1).max(MAX_BOARD_SIDE * MAX_BOARD_SIDE) }),
  z.object({ type: z.literal('upgrade'), at: squareSchema }),
] as const

const elementSchema = z.discriminatedUnion('type', elementSchemas)

/** The fields FORMAT.md gives each element type, for telling a misspelt or foreign field (authoringProblem). */
const ELEMENT_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  elementSchemas.map((schema) => [schema.shape.type.value, new Set(Object.keys(schema.shape))]))
const BOARD_FIELDS: ReadonlySet<string> = new Set(['name', 'rows', 'cols', 'start', 'elements'])
const START_FIELDS: ReadonlySet<string> = new Set(['at', 'facing'])

export const boardSchema = z.object({
  // No length is set by FORMAT.md; a game's board name is limited where a GM uploads one (services/games.ts).
  name: z.string().default('Untitled board'),
  rows: z.number().int().min(1).max(MAX_BOARD_SIDE),
  cols: z.number().int().min(1).max(MAX_BOARD_SIDE),
  start: z.object({ at: squareSchema, facing: directionSchema.default('N') }),
  elements: z.array(elementSchema).max(MAX_BOARD_ELEMENTS).default([]),
}).superRefine((board, ctx) => {
  const problems = boardProblems(board as BoardDefinition)
  for (const { path, message } of problems) ctx.addIssue({ code: 'custom', path, message })
})

/**
 * A field's path as a reader writes it: `robots[1].program[0]`. A key that is not a plain word
 * (a record's key may be any text, even blank) is quoted, so that the path still says which field.
 */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`
    const name = String(key)
    if (!/^[\w-]+$/.test(name)) return `${out}[${JSON.stringify(name)}]`
    return out ? `${out}.${name}` : name
  }, '')
}

/** Turns a zod error into one line naming the field, e.g. `elements[3].type: …`. */
export function describeIssues(error: z.ZodError, prefix: (string | number)[] = []): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid input'
  const path = fieldPath([...prefix, ...issue.path])
  let message = issue.message
  if (issue.code === 'invalid_union' && 'note' in issue && issue.note === 'No matching discriminator') {
    message = 'unknown element type'
  }
  return path ? `${path}: ${message}` : message
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string }

/**
 * Validates a board file's JSON value; the error names the element index and the field. `stored`: a
 * board the server stored with a game when it was valid, read back; rules added since for the files
 * people write (authoringProblem) do not apply to it, so a game under way is never lost to them.
 */
export function parseBoard(input: unknown, prefix: (string | number)[] = [], { stored = false } = {}): ParseResult<BoardDefinition> {
  const result = boardSchema.safeParse(input)
  if (!result.success) return { ok: false, error: describeIssues(result.error, prefix) }
  const board = result.data as BoardDefinition
  const problem = stored ? null : authoringProblem(board, input as WrittenBoard)
  return problem ? { ok: false, error: `${fieldPath([...prefix, ...problem.path])}: ${problem.message}` } : { ok: true, value: board }
}

/** A board file as written, once it has parsed: the schema's output leaves out the fields it does not know. */
interface WrittenBoard { start: object; elements?: { type: string }[] }

/**
 * What a board file may not hold, though games stored before the rule was checked may (2026-11-26,
 * 2026-11-28). `input` is the file as written (it parsed as `board`), which still has the fields
 * the schema leaves out.
 */
function authoringProblem(board: BoardDefinition, input: WrittenBoard): { path: (string | number)[]; message: string } | null {
  // FORMAT.md: "Anything else … is rejected". A field the board, its start or an element does not
  // have is most likely a misspelt one ("strenght", "elments"), which would otherwise be dropped
  // and its default played.
  const foreign = (written: object, fields: ReadonlySet<string>) => Object.keys(written).find((field) => !fields.has(field))
  const onBoard = foreign(input, BOARD_FIELDS)
  if (onBoard !== undefined) return { path: [onBoard], message: `a board has no field "${onBoard}" (it has ${[...BOARD_FIELDS].join(', ')})` }
  const onStart = foreign(input.start, START_FIELDS)
  if (onStart !== undefined) return { path: ['start', onStart], message: `the start has no field "${onStart}" (it has at, facing)` }
  for (const [index, written] of (input.elements ?? []).entries()) {
    const fields = ELEMENT_FIELDS.get(written.type)!
    const field = foreign(written, fields)
    if (field !== undefined) {
      return { path: ['elements', index, field], message: `a ${written.type} has no field "${field}" (it has ${[...fields].join(', ')})` }
    }
  }
  for (const [index, element] of board.elements.entries()) {
    // FORMAT.md: "teleporter.colour is a word" (it names the teleporter and sets the order, R17).
    if (element.type === 'teleporter' && !/^\S+$/.test(element.colour)) {
      return { path: ['elements', index, 'colour'], message: `a teleporter colour is one word (FORMAT.md), e.g. "amber", not ${JSON.stringify(element.colour)}` }
    }
  }
  return null
}

const SIDE_ELEMENTS = new Set(['wall', 'pusher', 'laser'])

/**
 * A teleporter colour as R17's alphabetical order reads it: as a dictionary has it (A29), letter
 * case and accents aside, so "Écru" comes between "amber" and "fawn". Decomposed (NFD), its
 * combining marks dropped, in lower case; letters with no decomposition (ø, æ) keep their code.
 */
export function alphabeticalKey(colour: string): string {
  return colour.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

function onBoard(board: BoardDefinition, square: Square): boolean {
  return square.row <= board.rows && square.col <= board.cols
}

/** Checks that need the whole board: squares on it, one floor element per square, targets, flags. */
function boardProblems(board: BoardDefinition): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = []
  if (!onBoard(board, board.start.at)) problems.push({ path: ['start', 'at'], message: 'square is off the board' })
  const floorAt = new Map<string, BoardElement>()
  const colours = new Set<string>()
  board.elements.forEach((element, index) => {
    const key = formatSquare(element.at)
    if (!onBoard(board, element.at)) {
      problems.push({ path: ['elements', index, 'at'], message: `${key} is off the ${board.rows}x${board.cols} board` })
      return
    }
    if (!SIDE_ELEMENTS.has(element.type)) {
      const other = floorAt.get(key)
      if (other) problems.push({ path: ['elements', index, 'at'], message: `${key} already holds a ${other.type}` })
      else floorAt.set(key, element)
    }
    if (element.type === 'teleporter') {
      // Colours set the teleport order alphabetically (R17, A29), so "Amber", "amber" and "ámber" would tie.
      const colour = alphabeticalKey(element.colour)
      if (colours.has(colour)) problems.push({ path: ['elements', index, 'colour'], message: `teleporter colour "${element.colour}" is used twice` })
      colours.add(colour)
    }
  })
  const onStart = floorAt.get(formatSquare(board.start.at))
  if (onStart?.type === 'pit' || onStart?.type === 'drawbridge') {
    // Robots are placed there at the start and on reinstatement (R29): they would stand in a pit.
    problems.push({ path: ['start', 'at'], message: `the start square ${formatSquare(board.start.at)} holds a ${onStart.type}` })
  }
  board.elements.forEach((element, index) => {
    if (element.type !== 'switch') return
    const named = new Set<string>()
    element.targets.forEach((target, t) => {
      const key = formatSquare(target)
      // Listed twice, a teleporter would be switched twice by one flip (R16 switches each target once).
      if (named.has(key)) problems.push({ path: ['elements', index, 'targets', t], message: `${key} is listed twice` })
      named.add(key)
      const found = floorAt.get(key)
      const allowed = element.kind === 'toggle' ? ['teleporter'] : ['drawbridge', 'teleporter']
      if (!found || !allowed.includes(found.type)) {
        problems.push({
          path: ['elements', index, 'targets', t],
          message: `${formatSquare(target)} is no ${allowed.join(' or ')} (a ${element.kind} switch works ${allowed.join(' and ')}s)`,
        })
      }
    })
  })
  const flagNumbers: number[] = []
  board.elements.forEach((element, index) => {
    if (element.type !== 'flag') return
    if (flagNumbers.includes(element.number)) problems.push({ path: ['elements', index, 'number'], message: `flag ${element.number} appears twice` })
    flagNumbers.push(element.number)
  })
  const sorted = [...new Set(flagNumbers)].sort((a, b) => a - b)
  sorted.forEach((number, i) => {
    if (number !== i + 1) {
      const index = board.elements.findIndex((e) => e.type === 'flag' && e.number === number)
      problems.push({ path: ['elements', index, 'number'], message: `flags must be numbered 1, 2, 3 … without gaps; flag ${i + 1} is missing` })
    }
  })
  return problems
}

export function squareIndex(board: Pick<Board, 'cols'>, square: Square): number {
  return (square.row - 1) * board.cols + (square.col - 1)
}

/**
 * `board.steps[dir]`, as a switch: in V8, reading a property named by a value that changes from
 * call to call (here one of four directions) is a slow, megamorphic access, and every step, belt
 * ride and beam needs the steps towards its direction.
 */
export function stepsTowards(board: Board, dir: Direction): readonly number[] {
  switch (dir) {
    case 'N': return board.steps.N
    case 'E': return board.steps.E
    case 'S': return board.steps.S
    case 'W': return board.steps.W
    default: return board.steps[dir]
  }
}

/** The square's name (`r3c4`), its key in the board state, for a square on the board. */
export function squareKey(board: Board, square: Square): string {
  return board.keys[squareIndex(board, square)] ?? formatSquare(square)
}

/** The floor element on `square` (on the board), or null; see `Board.floor` for how to test it. */
export function floorAt(board: Board, square: Square): FloorElement | null {
  return board.floor[squareIndex(board, square)] ?? null
}

/**
 * The floor element on `square` if it is a `type` (a conveyor, a gear…), else null. It tests the
 * type in `floorTypes`, so an empty or other square costs no read of an element (see there).
 */
export function floorOfType<T extends FloorElement['type']>(board: Board, square: Square, type: T): Extract<FloorElement, { type: T }> | null {
  const index = squareIndex(board, square)
  const found = board.floorTypes[index] ?? null
  return found !== null && found === type ? board.floor[index] as Extract<FloorElement, { type: T }> : null
}

export function isOnBoard(board: Pick<Board, 'rows' | 'cols'>, square: Square): boolean {
  return square.row >= 1 && square.col >= 1 && square.row <= board.rows && square.col <= board.cols
}

/** Derives the lookup tables the rules read at every step. */
export function compileBoard(definition: BoardDefinition): Board {
  const size = definition.rows * definition.cols
  const floor: (FloorElement | null)[] = new Array<FloorElement | null>(size).fill(null)
  const floorTypes: (FloorElement['type'] | null)[] = new Array<FloorElement['type'] | null>(size).fill(null)
  const walls: number[] = new Array<number>(size).fill(0)
  const squares: Square[] = []
  for (let row = 1; row <= definition.rows; row++) {
    for (let col = 1; col <= definition.cols; col++) squares.push(Object.freeze({ row, col }))
  }
  const board: Board = {
    ...definition,
    floor, floorTypes, walls, pushers: [], pushersByStage: [], crushesInStage: [], hasGears: false, lasers: [], teleporters: [], flagCount: 0,
    squares, keys: squares.map(formatSquare), steps: { N: [], E: [], S: [], W: [] },
    // Made at full size, so filling it in any order never turns it into a slow dictionary.
    rays: new Array<Ray | undefined>(DIRECTIONS.length * size).fill(undefined),
  }
  for (const element of definition.elements) {
    const index = squareIndex(board, element.at)
    switch (element.type) {
      case 'wall': walls[index]! |= WALL_BITS[element.side]; break
      case 'pusher': walls[index]! |= WALL_BITS[element.side]; board.pushers.push(element); break
      // A turret hangs on the wall behind it, opposite the way it fires.
      case 'laser': walls[index]! |= WALL_BITS[opposite(element.dir)]; board.lasers.push(element); break
      default:
        floor[index] = element
        floorTypes[index] = element.type
        if (element.type === 'teleporter') board.teleporters.push(element)
        if (element.type === 'gear') board.hasGears = true
        if (element.type === 'flag') board.flagCount = Math.max(board.flagCount, element.number)
    }
  }
  for (const dir of DIRECTIONS) board.steps[dir] = squares.map((square) => stepFrom(board, square, dir))
  for (let stage = 0; stage <= STAGES.length; stage++) {
    board.pushersByStage.push(board.pushers.filter((pusher) => pusher.stages.includes(stage as StageNumber)))
    board.crushesInStage.push(definition.elements.some((e) => e.type === 'crusher' && e.stages.includes(stage as StageNumber)))
  }
  // R17: alphabetical order of colour, as a dictionary has it (A29).
  const order = (t: TeleporterElement) => alphabeticalKey(t.colour)
  board.teleporters.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : a.colour < b.colour ? -1 : 1))
  return board
}

function stepFrom(board: Board, from: Square, dir: Direction): number {
  const to = neighbour(from, dir)
  if (board.walls[squareIndex(board, from)]! & WALL_BITS[dir]) return STEP_THROUGH_WALL
  if (!isOnBoard(board, to)) return STEP_OFF_BOARD
  if (board.walls[squareIndex(board, to)]! & WALL_BITS[opposite(dir)]) return STEP_THROUGH_WALL
  return squareIndex(board, to)
}

/** The state of switches, drawbridges and teleporters at the start of a game (R15, R16). */
export function initialBoardState(board: BoardDefinition): BoardState {
  const state: BoardState = { switches: {}, drawbridges: {}, teleporters: {} }
  for (const element of board.elements) {
    const key = formatSquare(element.at)
    if (element.type === 'switch') state.switches[key] = 'off'
    else if (element.type === 'drawbridge') state.drawbridges[key] = 'raised'
    else if (element.type === 'teleporter') state.teleporters[key] = element.active ? 'active' : 'inactive'
  }
  return state
}
