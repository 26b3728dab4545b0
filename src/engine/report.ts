// The tables of a turn's report, as the rules describe them and a GM would have mailed them:
// one table per stage (NAME, MODE, CARDS, moves, mechanisms, combat, hit points, checkpoints),
// then the end-of-turn table and the fused registers. Drawn only from the turn's event log and
// snapshots; both the plain-text mail and the web page render the same `ReportTable`s.
import { cardSetsFor, formatCard } from './deck.js'
import type { GameEvent } from './events.js'
import { formatRun, formatSquare } from './geometry.js'
import type { TurnResult } from './turn.js'
import type { Board, RobotSnapshot, RobotState } from './types.js'

export interface ReportRow {
  label: string
  /** One cell per player, in seat order; a cell is a list of lines. */
  cells: string[][]
}

export interface ReportTable {
  title: string
  players: string[]
  rows: ReportRow[]
}

export interface ReportOptions {
  /** Display names by engine player id, when they differ (e.g. after a seat changed hands). */
  names?: Record<string, string>
  /** A colour to show beside each player's name in the NAME row. */
  colours?: Record<string, string>
}

const STAGE_ROWS = ['NAME', 'MODE', 'CARDS', 'MOVES', 'MECHANISMS', 'COMBAT', 'HIT POINTS', 'CHECKPOINTS'] as const
type StageRow = (typeof STAGE_ROWS)[number]

function timeIndex(event: GameEvent): string {
  const t = event.time
  return t.priority === null ? '' : ` @${t.priority}${t.step ? `.${t.step}` : ''}`
}

/** A player's display name: the engine's player ids (seat ids on the server) never reach a reader. */
type NameOf = (player: string) => string

function nameOf(options: ReportOptions): NameOf {
  const names = options.names
  return names ? (player) => names[player] ?? player : (player) => player
}

/**
 * Which row of the stage table an event belongs to, the player whose cell it goes in (an id), and
 * the text, which names other robots by `name`.
 */
function stageCells(event: GameEvent, name: NameOf): [StageRow, string, string][] {
  const phase = event.time.phase
  const mechanism: StageRow = phase === 'movement' || phase === 'orders' ? 'MOVES' : phase === 'combat' ? 'COMBAT' : 'MECHANISMS'
  switch (event.kind) {
    case 'moved': {
      if (event.cause === 'push') {
        return [[mechanism, event.player, `pushed by ${event.by === undefined ? 'a robot' : name(event.by)} to ${formatSquare(event.to)}${timeIndex(event)}`]]
      }
      const label = event.cause === 'card' ? 'move to' : `${event.cause} to`
      return [[mechanism, event.player, `${label} ${formatSquare(event.to)}`]]
    }
    case 'turned':
      return [[mechanism, event.player, event.cause === 'card' ? `face ${event.facing}` : `${event.cause}: face ${event.facing}`]]
    case 'obstructed':
      return [[mechanism, event.player, event.reason === 'fence' ? 'electric fence: obstruction encountered' : 'obstruction encountered']]
    case 'teleported':
      return [[mechanism, event.player, `teleport (${event.colour}) to ${formatSquare(event.to)}`]]
    case 'switch-flipped':
      return [[mechanism, event.player, `switch ${formatSquare(event.at)} ${event.on ? 'on' : 'off'}`]]
    case 'damaged': {
      const row: StageRow = event.source === 'robot-laser' ? 'HIT POINTS' : event.source === 'fence' ? mechanism : 'MECHANISMS'
      const what = event.source === 'fence' ? 'fence' : event.source === 'board-laser' ? 'laser' : `shot by ${event.by === undefined ? 'a robot' : name(event.by)}`
      return [[row, event.player, `${what} -${event.amount} HP`]]
    }
    case 'option-sacrificed':
      return [['HIT POINTS', event.player, `sacrificed ${event.option}`]]
    case 'register-fused':
      return [['HIT POINTS', event.player, `register ${event.register} fused${event.card ? ` (${formatCard(event.card)})` : ''}`]]
    case 'destroyed':
      return [[mechanism === 'MOVES' ? 'MOVES' : phase === 'combat' ? 'HIT POINTS' : 'MECHANISMS', event.player,
        `DESTROYED (${event.cause === 'damage' ? 'no hit points left' : event.cause}) at ${formatSquare(event.at)}`]]
    case 'board-laser':
      return event.hits.map((player): [StageRow, string, string] => ['MECHANISMS', player, `${event.colour} laser ${formatRun(event.squares)}`])
    case 'robot-laser':
      return [['COMBAT', event.player, `${formatRun(event.squares)}${event.hit ? `\n→ ${name(event.hit)}${event.damage > 1 ? ` (${event.damage})` : ''}` : ''}`]]
    case 'checkpoint':
      return [['CHECKPOINTS', event.player, `checkpoint ${formatSquare(event.at)}`]]
    case 'flag-tagged':
      return [['CHECKPOINTS', event.player, `flag ${event.number} tagged`]]
    case 'station-visited':
      return [['CHECKPOINTS', event.player, `upgrade ${formatSquare(event.at)}${event.unlocked ? ` (${event.unlocked} cards)` : ''}`]]
    case 'became-real':
      return [['MODE', event.player, '→ real']]
    case 'program-filled':
      return [['CARDS', event.player, 'no program in: filled at random (R9)']]
    case 'facing-chosen':
      return [['MOVES', event.player, `placed facing ${event.facing}`]]
    default:
      return []
  }
}

function modeText(robot: RobotSnapshot): string {
  return robot.rebooting && robot.mode !== 'destroyed' ? `${robot.mode}, rebooting` : robot.mode
}

function nameCell(player: string, options: ReportOptions): string[] {
  const name = nameOf(options)(player)
  const colour = options.colours?.[player]
  return [colour ? `${name} (${colour})` : name]
}

/** The table of one stage (index into `result.stages`). */
export function stageTable(result: TurnResult, index: number, options: ReportOptions = {}): ReportTable {
  const stage = result.stages[index]!
  const before = index === 0 ? result.start.robots : result.stages[index - 1]!.robots
  const players = stage.robots.map((r) => r.player)
  const cells = new Map<StageRow, string[][]>(STAGE_ROWS.map((row) => [row, players.map(() => [])]))
  players.forEach((player, seat) => {
    cells.get('NAME')![seat]!.push(...nameCell(player, options))
    cells.get('MODE')![seat]!.push(modeText(before[seat]!))
    const card = result.registers[player]?.[stage.stage - 1]
    const playing = before[seat]!.mode !== 'destroyed' && !before[seat]!.rebooting
    cells.get('CARDS')![seat]!.push(!playing ? '-' : card ? formatCard(card) : '(no card)')
  })
  const events = index === 0 ? [...result.start.events, ...stage.events] : stage.events
  const name = nameOf(options)
  for (const event of events) {
    for (const [row, player, text] of stageCells(event, name)) {
      const seat = players.indexOf(player)
      if (seat >= 0) cells.get(row)![seat]!.push(...text.split('\n'))
    }
  }
  stage.robots.forEach((robot, seat) => {
    cells.get('HIT POINTS')![seat]!.push(robot.mode === 'destroyed' ? 'destroyed' : `${robot.hp} HP`)
  })
  const rows = STAGE_ROWS
    .filter((row) => row !== 'CHECKPOINTS' || cells.get(row)!.some((c) => c.length > 0))
    .map((label) => ({ label, cells: cells.get(label)! }))
  return { title: `Stage ${stage.stage}`, players, rows }
}

/** The end-of-turn table: reinstatement, flags, upgrades, options, hit points, robots and reboots. */
export function endTable(board: Board, result: TurnResult, options: ReportOptions = {}): ReportTable {
  const robots = result.end.robots
  const players = robots.map((r) => r.player)
  const said = (player: string, kind: GameEvent['kind']) => result.end.events.some((e) => e.kind === kind && 'player' in e && e.player === player)
  const row = (label: string, cell: (robot: RobotState) => string[]): ReportRow => ({ label, cells: robots.map(cell) })
  const rows: ReportRow[] = [
    row('NAME', (r) => nameCell(r.player, options)),
    row('MODE', (r) => [r.robotsLeft === 0 ? 'out' : r.mode]),
    row('REINSTATE', (r) => {
      const at = formatSquare(r.checkpoint ?? board.start.at)
      return [said(r.player, 'reinstated') ? `reinstated at ${at}` : r.checkpoint ? at : `start ${at}`]
    }),
    row('FLAGS', (r) => [`${r.flags} of ${board.flagCount}`]),
  ]
  if (robots.some((r) => r.stations.length > 0)) {
    rows.push(row('UPGRADES', (r) => r.stations.length === 0 ? ['-'] : [
      r.stations.map(formatSquare).join(' '),
      ...cardSetsFor(r.stations.length).map((set) => `${set} cards`),
    ]))
  }
  // A robot that took an option at the end of the turn holds it: this row shows it then too.
  if (robots.some((r) => r.options.length > 0)) {
    rows.push(row('OPTIONS', (r) => (r.options.length ? [...r.options] : ['-'])))
  }
  rows.push(row('REBOOT', (r) => [
    r.robotsLeft === 0 ? 'out of the game' : `${r.hp} HP, ${r.robotsLeft} robot${r.robotsLeft === 1 ? '' : 's'} left`,
    ...result.end.events.filter((e) => 'player' in e && e.player === r.player).map((e) => {
      switch (e.kind) {
        case 'repaired': return `repaired +${e.amount}`
        case 'option-taken': return `took option ${e.option}`
        case 'reboot': return 'reboots next turn'
        case 'register-unfused': return `register ${e.register} freed`
        default: return ''
      }
    }).filter(Boolean),
  ]))
  return { title: 'End of turn', players, rows }
}

/** The reference table of fused registers, or null when no robot has any (the rules: "may be added"). */
export function fusedTable(result: TurnResult, options: ReportOptions = {}): ReportTable | null {
  const robots = result.end.robots
  if (!robots.some((r) => Object.keys(r.fused).length > 0)) return null
  // Its columns are named like every other table's, by the NAME row (pages head their columns with it).
  const nameRow: ReportRow = { label: 'NAME', cells: robots.map((r) => nameCell(r.player, options)) }
  const rows: ReportRow[] = [1, 2, 3, 4, 5].map((k) => ({
    label: `REGISTER ${k}`,
    cells: robots.map((r) => {
      if (!(String(k) in r.fused)) return ['']
      const card = r.fused[String(k)]
      return [card ? formatCard(card) : '(awaiting a card)']
    }),
  })).filter((row) => row.cells.some((c) => c[0] !== ''))
  return { title: 'Fused registers', players: robots.map((r) => r.player), rows: [nameRow, ...rows] }
}

export function turnTables(board: Board, result: TurnResult, options: ReportOptions = {}): ReportTable[] {
  const tables = result.stages.map((_, i) => stageTable(result, i, options))
  // A game won in a stage ends there (R34): the rest of the turn, its end included, is not played.
  if (result.state.gameOver && result.end.events.length === 0) return tables
  tables.push(endTable(board, result, options))
  const fused = fusedTable(result, options)
  if (fused) tables.push(fused)
  return tables
}

/** A table as fixed-width text, one column per player. */
export function renderTextTable(table: ReportTable): string {
  const labelWidth = Math.max(...table.rows.map((r) => r.label.length), 5)
  const widths = table.players.map((_, seat) =>
    Math.max(12, ...table.rows.flatMap((r) => r.cells[seat]!.map((line) => line.length))))
  const out: string[] = [table.title, '='.repeat(table.title.length)]
  const rule = '-'.repeat(labelWidth) + widths.map((w) => '-+-' + '-'.repeat(w)).join('')
  for (const row of table.rows) {
    const height = Math.max(1, ...row.cells.map((c) => c.length))
    for (let line = 0; line < height; line++) {
      const label = line === 0 ? row.label : ''
      out.push((label.padEnd(labelWidth) + row.cells.map((c, seat) => ' | ' + (c[line] ?? '').padEnd(widths[seat]!)).join('')).trimEnd())
    }
    out.push(rule)
  }
  return out.join('\n')
}

/** The whole turn as plain text, the way a GM would have mailed it. */
export function renderTurnReport(board: Board, result: TurnResult, options: ReportOptions = {}): string {
  const parts = [`Turn ${result.turn} on ${board.name}`, '']
  for (const table of turnTables(board, result, options)) parts.push(renderTextTable(table), '')
  if (result.state.gameOver) {
    const winners = result.state.winners.map(nameOf(options))
    parts.push(winners.length ? `GAME OVER: ${winners.join(' and ')} won.` : 'GAME OVER: nobody won.')
  }
  return parts.join('\n').trimEnd() + '\n'
}
