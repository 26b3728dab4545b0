// Outcomes are events, not errors: everything that happens in a turn is recorded here, in the
// order it happened. The per-stage tables, the board pictures and the mails are drawn from this
// log and the robot snapshots; nothing downstream re-runs a rule.
import type { Card, CardSet, Direction, LaserColour, OptionName, Square } from './types.js'

/** The part of a stage an event belongs to (R10), or the end of the turn. */
export const PHASES = ['orders', 'movement', 'conveyor', 'pusher', 'gear', 'crusher', 'board-laser', 'combat', 'checkpoint', 'mode', 'end'] as const
export type Phase = (typeof PHASES)[number]

/**
 * When an event happened. In the movement phase `priority` is the priority of the card being
 * played (the rules' "time index") and `step` the single step of that card (R12); in other
 * phases `step` counts the conveyor's express/common steps or is 0.
 */
export interface EventTime {
  stage: number // 1..5, or 0 for the end of the turn
  phase: Phase
  priority: number | null
  step: number
}

export type MoveCause = 'card' | 'push' | 'conveyor' | 'pusher' | 'teleport'
export type TurnCause = 'card' | 'conveyor' | 'gear'
export type ObstructionReason = 'wall' | 'fence' | 'bridge' | 'robot'
export type DestroyCause = 'damage' | 'pit' | 'drawbridge' | 'crusher'
export type DamageSource = 'fence' | 'board-laser' | 'robot-laser'

export type GameEventBody =
  | { kind: 'card-played'; player: string; card: Card; register: number; fused: boolean }
  | { kind: 'moved'; player: string; from: Square; to: Square; cause: MoveCause; by?: string }
  | { kind: 'turned'; player: string; facing: Direction; cause: TurnCause }
  | { kind: 'obstructed'; player: string; at: Square; reason: ObstructionReason }
  | { kind: 'teleported'; player: string; from: Square; to: Square; colour: string }
  | { kind: 'switch-flipped'; player: string; at: Square; on: boolean }
  | { kind: 'drawbridge-lowered'; at: Square }
  | { kind: 'teleporter-changed'; at: Square; active: boolean }
  | { kind: 'damaged'; player: string; amount: number; source: DamageSource; by?: string; hp: number }
  | { kind: 'option-sacrificed'; player: string; option: OptionName }
  | { kind: 'register-fused'; player: string; register: number; card: Card | null }
  | { kind: 'destroyed'; player: string; at: Square; cause: DestroyCause; robotsLeft: number }
  | { kind: 'board-laser'; from: Square; dir: Direction; colour: LaserColour; strength: number; squares: Square[]; hits: string[] }
  | { kind: 'robot-laser'; player: string; dir: Direction; squares: Square[]; hit: string | null; damage: number }
  | { kind: 'checkpoint'; player: string; at: Square }
  | { kind: 'flag-tagged'; player: string; number: number; at: Square }
  | { kind: 'station-visited'; player: string; at: Square; unlocked: CardSet | null }
  | { kind: 'became-real'; player: string }
  | { kind: 'program-filled'; player: string; cards: Card[] }
  | { kind: 'facing-chosen'; player: string; facing: Direction }
  | { kind: 'repaired'; player: string; amount: number; hp: number }
  | { kind: 'register-unfused'; player: string; register: number }
  | { kind: 'option-taken'; player: string; option: OptionName }
  | { kind: 'reboot'; player: string }
  | { kind: 'reinstated'; player: string; at: Square; facing: Direction }
  | { kind: 'player-out'; player: string }
  | { kind: 'game-over'; winners: string[] }

export type GameEvent = GameEventBody & { time: EventTime }
export type GameEventKind = GameEvent['kind']
