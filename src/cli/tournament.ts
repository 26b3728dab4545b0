// `botwars tournament --bots LEVEL,LEVEL,… [--games N] [--seed S] [--turns T] [--boards FILE,…]`:
// many seeded games between bots over the shipped boards (or the boards named), the seats
// rotated from game to game so no bot keeps the first deal, then the standings: wins, average
// placing, flags per game, and how often each bot placed above each other one.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BotLevel } from '../bots/index.js'
import { playBotGame } from '../bots/match.js'
import { addGame, emptyStandings, entrantNames, ranked, type Standings } from '../bots/standings.js'
import { PLAYER_NAMES } from '../engine/simulation.js'
import type { Board } from '../engine/types.js'
import { InputError, PROJECT_ROOT } from './io.js'
import { botsOption, intOption, MAX_SEED, MIN_SEED, parseCommandLine } from './options.js'
import { readBoard } from './simulate.js'

const USAGE = 'usage: botwars tournament --bots LEVEL,LEVEL,… [--games N] [--seed S] [--turns T] [--boards FILE,…]'

function shippedBoards(): string[] {
  const dir = join(PROJECT_ROOT, 'boards')
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f))
}

export interface TournamentGame { board: Board; seats: number[]; seed: number }

/** Game `index`'s board, seed, and which entrant sits in each seat (rotated each game). */
export function scheduleGame(boards: readonly Board[], entrants: number, baseSeed: number, index: number): TournamentGame {
  const shift = index % entrants
  return {
    board: boards[index % boards.length]!,
    seats: Array.from({ length: entrants }, (_, seat) => (seat + shift) % entrants),
    seed: (baseSeed + index) | 0,
  }
}

export function runTournament(boards: readonly Board[], bots: readonly BotLevel[], games: number, baseSeed: number, maxTurns: number, onGame?: (done: number) => void): Standings {
  const names = entrantNames(bots)
  let standings = emptyStandings(names)
  for (let index = 0; index < games; index++) {
    const game = scheduleGame(boards, bots.length, baseSeed, index)
    const played = playBotGame(game.board, game.seats.map((e) => bots[e]!), game.seed, maxTurns)
    const entrantOf = (player: string) => names[game.seats[PLAYER_NAMES.indexOf(player as (typeof PLAYER_NAMES)[number])]!]!
    standings = addGame(standings, played.placings, entrantOf)
    onGame?.(index + 1)
  }
  return standings
}

export function formatStandings(standings: Standings): string {
  const rows = ranked(standings)
  const names = rows.map((r) => r.entrant)
  const width = Math.max(8, ...names.map((n) => n.length))
  const pad = (text: string | number, n = width) => String(text).padStart(n)
  const lines = [
    `${'bot'.padEnd(width)} ${pad('games', 6)} ${pad('wins', 6)} ${pad('win %', 6)} ${pad('avg place', 10)} ${pad('flags/game', 11)}`,
    ...rows.map((r) => `${r.entrant.padEnd(width)} ${pad(r.games, 6)} ${pad(r.wins, 6)} ${pad((100 * r.wins / Math.max(1, r.games)).toFixed(1), 6)} ${pad((r.placeSum / Math.max(1, r.games)).toFixed(2), 10)} ${pad((r.flags / Math.max(1, r.games)).toFixed(2), 11)}`),
    '',
    'placed above (row above column, games):',
    `${''.padEnd(width)} ${names.map((n) => pad(n)).join(' ')}`,
    ...rows.map((r) => `${r.entrant.padEnd(width)} ${names.map((n) => pad(n === r.entrant ? '-' : r.above[n] ?? 0)).join(' ')}`),
  ]
  return lines.join('\n')
}

/** The seeds of `games` games from `first`, as scheduleGame wraps them past the largest 32-bit seed. */
function seedRange(first: number, games: number): string {
  const last = first + games - 1
  if (last <= MAX_SEED) return `${first} to ${last}`
  return `${first} to ${MAX_SEED}, then ${MIN_SEED} to ${last | 0}`
}

export function tournamentCommand(args: string[]): string {
  const { options, operands } = parseCommandLine(args, ['bots', 'games', 'seed', 'turns', 'boards'], USAGE)
  const bots = botsOption(options)
  if (operands.length > 0) throw new InputError(`unexpected ${operands[0]}; ${USAGE}`)
  if (!bots || bots.length < 2) throw new InputError(`${USAGE} (at least two bots)`)
  const games = intOption(options, 'games', 1, 100_000, 200)
  const seed = intOption(options, 'seed', MIN_SEED, MAX_SEED, 1)
  const turns = intOption(options, 'turns', 1, 10_000, 100)
  const files = options.get('boards')?.split(',') ?? shippedBoards()
  const blank = files.findIndex((file) => file.trim() === '')
  if (blank >= 0) throw new InputError(`--boards: board ${blank + 1} of ${files.length} is empty`)
  const boards = files.map(readBoard)
  const started = Date.now()
  const standings = runTournament(boards, bots, games, seed, turns, (done) => {
    if (done % 20 === 0 && done < games) process.stderr.write(`${done}/${games} games\n`)
  })
  const header = `${games} games of ${bots.join(', ')} (seats rotated each game) on ${files.map((f) => f.split('/').pop()).join(', ')}; seeds ${seedRange(seed, games)}; at most ${turns} turns a game; ${((Date.now() - started) / 1000).toFixed(0)} s`
  return `${header}\n\n${formatStandings(standings)}`
}
