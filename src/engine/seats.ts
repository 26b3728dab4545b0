// Seats that change during a game (issue 12): a newcomer's robot enters, a departed player's robot
// leaves. Pure: a state in, a new state out; the server decides when (at the next deal).
import { newRobot } from './game.js'
import type { BoardDefinition, GameState } from './types.js'

/**
 * R25/R29 for a newcomer: a robot placed as the rules place robots at the start (the start square,
 * virtual, 10 HP, 3 robots), after the turn just played, so it turns real no sooner than the end of
 * its first full turn. It joins the end of the seat order; hands come with the next deal (R7).
 */
export function addRobot(state: GameState, board: BoardDefinition, player: string): GameState {
  if (state.robots.some((r) => r.player === player)) throw new Error(`addRobot: ${player} already has a robot`)
  return { ...state, robots: [...state.robots, { ...newRobot(player, board), placedAfterTurn: state.turn - 1 }] }
}

/**
 * A robot whose player is gone leaves the board for good: the player is out (R29's "no robots
 * left"). Its options go to the bottom of the option deck, as with a destroyed robot (R32).
 */
export function takeOffBoard(state: GameState, player: string): GameState {
  const robot = state.robots.find((r) => r.player === player)
  if (!robot) throw new Error(`takeOffBoard: no robot for ${player}`)
  return {
    ...state,
    optionDeck: [...state.optionDeck, ...robot.options],
    robots: state.robots.map((r) => r.player !== player ? r : {
      ...r, at: null, mode: 'destroyed' as const, hp: 0, robotsLeft: 0, options: [], fused: {}, rebooting: false, rebootNext: false,
    }),
  }
}
