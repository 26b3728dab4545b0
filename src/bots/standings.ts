// Standings over many games: wins, average placing, flags per game, and who placed above whom.
// Shared by `botwars tournament` and the server's series, so both count alike.
import type { Placing } from '../engine/placings.js'

export interface EntrantStanding {
  entrant: string
  games: number
  wins: number
  /** Sum of places (1 = best); the average is `placeSum / games`. */
  placeSum: number
  flags: number
  /** Games in which this entrant placed strictly better than each other entrant, by name. */
  above: Record<string, number>
}

export interface Standings {
  entrants: EntrantStanding[]
}

/** Entrants' names from what plays each seat: the name, numbered when one plays more than one seat ("greedy#2"). */
export function entrantNames(players: readonly string[]): string[] {
  return players.map((name, i) => {
    const same = players.filter((p) => p === name).length
    return same > 1 ? `${name}#${players.slice(0, i + 1).filter((p) => p === name).length}` : name
  })
}

export function emptyStandings(entrants: readonly string[]): Standings {
  return { entrants: entrants.map((entrant) => ({ entrant, games: 0, wins: 0, placeSum: 0, flags: 0, above: {} })) }
}

/**
 * Adds one game's placings; `entrantOf` names the entrant who played each player (seat). Returns
 * new standings: the ones given are not changed.
 */
export function addGame(standings: Standings, placings: readonly Placing[], entrantOf: (player: string) => string): Standings {
  const byEntrant = new Map(placings.map((row) => [entrantOf(row.player), row]))
  return {
    entrants: standings.entrants.map((s) => {
      const row = byEntrant.get(s.entrant)
      if (!row) return s
      const above = { ...s.above }
      for (const [other, theirs] of byEntrant) if (other !== s.entrant && row.place < theirs.place) above[other] = (above[other] ?? 0) + 1
      return { ...s, games: s.games + 1, wins: s.wins + (row.winner ? 1 : 0), placeSum: s.placeSum + row.place, flags: s.flags + row.flags, above }
    }),
  }
}

/** Best first: most wins, then the better average placing. */
export function ranked(standings: Standings): EntrantStanding[] {
  const avg = (s: EntrantStanding) => (s.games ? s.placeSum / s.games : Infinity)
  return standings.entrants.slice().sort((a, b) => b.wins - a.wins || avg(a) - avg(b))
}
