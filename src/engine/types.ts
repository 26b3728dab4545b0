// The game's vocabulary. Read this file first: every other engine file speaks these words.
// Everything here is plain, JSON-serialisable data (no classes, no Maps), so a stored game
// state can be written to the database and replayed exactly.

export const DIRECTIONS = ['N', 'E', 'S', 'W'] as const
export type Direction = (typeof DIRECTIONS)[number]

/** R1: row 1 is the southernmost row, column 1 the westernmost. */
export interface Square {
  row: number
  col: number
}

export const BASE_CARD_KINDS = ['FWD1', 'FWD2', 'FWD3', 'RVS1', 'LF90', 'RT90', 'UTRN'] as const
export const UPGRADE_CARD_KINDS = ['RVS2', 'RVS3', 'SLF1', 'SRT1', 'IDLE'] as const
export const CARD_KINDS = [...BASE_CARD_KINDS, ...UPGRADE_CARD_KINDS] as const
export type CardKind = (typeof CARD_KINDS)[number]

/** A card is told apart from every other by its priority (R5); higher priorities act first. */
export interface Card {
  kind: CardKind
  priority: number
}

/** R6: the card sets upgrade stations unlock, in the order they are unlocked. */
export const CARD_SETS = ['reverse', 'sidestep', 'idle'] as const
export type CardSet = (typeof CARD_SETS)[number]

/** R32: the default option deck, in its unshuffled order. */
export const OPTION_NAMES = ['Double Laser', 'Rear Laser', 'Gyroscope', 'Extra Memory'] as const
export type OptionName = (typeof OPTION_NAMES)[number]

export const ROBOT_MODES = ['real', 'virtual', 'destroyed'] as const
export type RobotMode = (typeof ROBOT_MODES)[number]

export const DOUBLE_WRENCH_CHOICES = ['repair', 'option'] as const
export type DoubleWrenchChoice = (typeof DOUBLE_WRENCH_CHOICES)[number]

export const STAGES = [1, 2, 3, 4, 5] as const
export type StageNumber = (typeof STAGES)[number]
export const REGISTER_COUNT = 5
export const MAX_HP = 10
export const ROBOTS_PER_PLAYER = 3
export const DEFAULT_SACRIFICE_AT = 6

// ---------------------------------------------------------------------------------------
// Board elements (FORMAT.md section 1). Walls, pushers and lasers stand on a side of a
// square; every other element is the square's one floor element.

export const ELEMENT_TYPES = [
  'wall', 'pit', 'conveyor', 'pusher', 'gear', 'crusher', 'laser', 'drawbridge',
  'teleporter', 'switch', 'wrench', 'flag', 'upgrade',
] as const
export type ElementType = (typeof ELEMENT_TYPES)[number]

export const CONVEYOR_COLOURS = ['blue', 'yellow'] as const
export type ConveyorColour = (typeof CONVEYOR_COLOURS)[number]
export const LASER_COLOURS = ['blue', 'red'] as const
export type LaserColour = (typeof LASER_COLOURS)[number]
export const GEAR_TURNS = ['left', 'right', 'uturn'] as const
export type GearTurn = (typeof GEAR_TURNS)[number]
export const SWITCH_KINDS = ['pressure', 'toggle'] as const
export type SwitchKind = (typeof SWITCH_KINDS)[number]

export interface WallElement { type: 'wall'; at: Square; side: Direction }
export interface PitElement { type: 'pit'; at: Square }
export interface ConveyorElement { type: 'conveyor'; at: Square; dir: Direction; colour: ConveyorColour }
export interface PusherElement { type: 'pusher'; at: Square; side: Direction; stages: StageNumber[] }
export interface GearElement { type: 'gear'; at: Square; turn: GearTurn }
export interface CrusherElement { type: 'crusher'; at: Square; stages: StageNumber[] }
export interface LaserElement { type: 'laser'; at: Square; dir: Direction; colour: LaserColour; strength: number }
export interface DrawbridgeElement { type: 'drawbridge'; at: Square; side: Direction }
export interface TeleporterElement { type: 'teleporter'; at: Square; colour: string; active: boolean }
export interface SwitchElement { type: 'switch'; at: Square; kind: SwitchKind; targets: Square[] }
export interface WrenchElement { type: 'wrench'; at: Square; count: 1 | 2 }
export interface FlagElement { type: 'flag'; at: Square; number: number }
export interface UpgradeElement { type: 'upgrade'; at: Square }

export type BoardElement =
  | WallElement | PitElement | ConveyorElement | PusherElement | GearElement | CrusherElement
  | LaserElement | DrawbridgeElement | TeleporterElement | SwitchElement | WrenchElement
  | FlagElement | UpgradeElement

export type FloorElement = Exclude<BoardElement, WallElement | PusherElement | LaserElement>

/** A board as authored: the parsed, validated form of a board file. */
export interface BoardDefinition {
  name: string
  rows: number
  cols: number
  start: { at: Square; facing: Direction }
  elements: BoardElement[]
}

/**
 * A board ready for play: the definition plus lookup tables derived from it once.
 * Indexes are `(row - 1) * cols + (col - 1)`.
 */
export interface Board extends BoardDefinition {
  /**
   * Floor element of each square, or null. The rules test `element !== null && element.type === …`
   * rather than `element?.type === …`: on an empty square the optional chain gives undefined, and
   * once a comparison has seen undefined against a string, V8 compiles it as a call to its generic
   * equality built-in instead of a pointer comparison.
   */
  floor: (FloorElement | null)[]
  /**
   * The type of each square's floor element, or null: what `floor[index].type` says, in one array.
   * Floor elements of different types have different shapes, so reading `.type` from them is a
   * slow, megamorphic access: beams test every square they cross, and floorOfType serves the rules
   * that look for one kind of element. Test it against null first, as for `floor`.
   */
  floorTypes: (FloorElement['type'] | null)[]
  /** Walls on each square as a bit mask of WALL_BITS, including the walls implied by pushers and lasers. */
  walls: number[]
  pushers: PusherElement[]
  /** The pushers that act in each stage (R20), in board order: index 1 to 5 (index 0 is empty). */
  pushersByStage: PusherElement[][]
  /** Whether any crusher acts in each stage (R22): index 1 to 5. Most stages have none to look for. */
  crushesInStage: boolean[]
  /** Whether the board has a gear (R21): most boards have few or none, and every stage looks. */
  hasGears: boolean
  lasers: LaserElement[]
  /** Teleporters in alphabetical order of colour (R17). */
  teleporters: TeleporterElement[]
  flagCount: number
  /** One square object per index, shared and never changed, so the rules' hot paths need not allocate. */
  squares: Square[]
  /**
   * Each square's name (`r3c4`), by index: the key of its switch, drawbridge or teleporter in the
   * board state, looked up without building the string at every step (see squareKey).
   */
  keys: string[]
  /**
   * For each direction, the index one step leads to from each square: STEP_OFF_BOARD past the
   * edge (the fence, R3), STEP_THROUGH_WALL where a wall stands between (R4).
   */
  steps: Record<Direction, number[]>
  /**
   * The rays beams follow (rays.ts), at `directionIndex(dir) * squares.length + index`: filled the
   * first time a beam needs one. Only a cache: what the rules decide never depends on it.
   */
  rays: (Ray | undefined)[]
}

/** The squares a beam can cross from a square towards a direction, up to a wall or the edge (rays.ts). */
export interface Ray {
  /** The squares' board indices, in the beam's order. */
  readonly indices: readonly number[]
  /** The squares themselves; beams that cross the whole ray share this list in their events. */
  readonly squares: Square[]
  /** Where in the ray a drawbridge stands, which stops a beam while it is raised (A5). */
  readonly drawbridges: readonly number[]
  /** The ray's first k squares at index k, made the first time a beam stops there (rays.ts firstSquares). */
  readonly prefixes: (Square[] | undefined)[]
}

export const STEP_OFF_BOARD = -1
export const STEP_THROUGH_WALL = -2

export const WALL_BITS: Record<Direction, number> = { N: 1, E: 2, S: 4, W: 8 }

// ---------------------------------------------------------------------------------------
// The changing state of a game.

export type SwitchState = 'on' | 'off'
export type DrawbridgeState = 'raised' | 'lowered'
export type TeleporterState = 'active' | 'inactive'

/** Mechanisms that change during play, keyed by square name (`r4c2`), as FORMAT.md section 3 prints them. */
export interface BoardState {
  switches: Record<string, SwitchState>
  drawbridges: Record<string, DrawbridgeState>
  teleporters: Record<string, TeleporterState>
}

export interface RobotState {
  player: string
  /** Null while destroyed (R11) or out of the game. */
  at: Square | null
  facing: Direction
  hp: number
  mode: RobotMode
  /** Robots the player still has, the one on the board included (R29). */
  robotsLeft: number
  flags: number
  /** Where the next robot is reinstated; null means the start square (R29, R30). */
  checkpoint: Square | null
  /** Upgrade stations visited, in order (R6). */
  stations: Square[]
  /** Options held, oldest first (R28, R32). */
  options: OptionName[]
  /** Option sacrifice threshold (R28), a standing choice of the player. */
  sacrificeAt: number
  /** What to take on a double wrench (R31), a standing choice of the player. */
  doubleWrench: DoubleWrenchChoice
  /**
   * Fused registers (R27) keyed "1".."5"; null while a rebooting robot's register waits for a card
   * (R33). The rules index it with the register number itself (`fused[3]` is `fused["3"]`), which
   * spares a number-to-string conversion at every look-up. A value is never undefined, so
   * `fused[k] !== undefined` says whether register k is fused.
   */
  fused: Record<string, Card | null>
  /** Rebooting during the turn being played (R33). */
  rebooting: boolean
  /** Declared, with this turn's program, a reboot for the next turn (R33). */
  rebootNext: boolean
  /** The turn after which this robot was placed; 0 = at the start of the game (R25). */
  placedAfterTurn: number
}

export interface GameState {
  /** The number of the turn to be played next (1 for a new game). */
  turn: number
  /** Robots in seat order: one per player. */
  robots: RobotState[]
  board: BoardState
  /** Option deck from the top (R32). */
  optionDeck: OptionName[]
  /** Hands dealt for the turn to be played, by player (R7); empty before dealing. */
  hands: Record<string, Card[]>
  /** State of the seeded random generator; advances with every shuffle and draw. */
  rng: RandomState
  gameOver: boolean
  winners: string[]
}

/** A serialisable snapshot of the random generator (see random.ts). */
export type RandomState = number[]

/** What a player submits for one turn (R8, R29, R33). */
export interface TurnOrders {
  /** Cards for the unfused registers, in register order; [] when rebooting. */
  cards: Card[]
  /** Declare a reboot for the next turn. */
  rebootNext: boolean
  /** After a reinstatement: the facing the new robot takes before this turn's stage 1 (R29). */
  facing?: Direction
  /** True when the server filled the program because none came in (R9), so the report says so. */
  filledByServer?: boolean
}

/** A robot as shown at the end of a stage and in the pictures. */
export interface RobotSnapshot {
  player: string
  at: Square | null
  facing: Direction
  hp: number
  mode: RobotMode
  rebooting: boolean
}
