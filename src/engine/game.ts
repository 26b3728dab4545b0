// A new game's state (R25, R29, R32): every robot on the start square, virtual, before turn 1.
import { initialBoardState } from './board.js'
import { ownState, seedRandom, shuffled, withRandom } from './random.js'
import {
  DEFAULT_SACRIFICE_AT, MAX_HP, OPTION_NAMES, ROBOTS_PER_PLAYER,
  type BoardDefinition, type GameState, type RandomState, type RobotState,
} from './types.js'

export function newRobot(player: string, board: BoardDefinition): RobotState {
  return {
    player,
    at: { ...board.start.at },
    facing: board.start.facing,
    hp: MAX_HP,
    mode: 'virtual',
    robotsLeft: ROBOTS_PER_PLAYER,
    flags: 0,
    checkpoint: null,
    stations: [],
    options: [],
    sacrificeAt: DEFAULT_SACRIFICE_AT,
    doubleWrench: 'repair',
    fused: {},
    rebooting: false,
    rebootNext: false,
    placedAfterTurn: 0,
  }
}

/**
 * Seats the players in the order given; the option deck is shuffled with the game's generator (R32).
 * `seed`: an integer (a game that replays: simulations, tests), or the generator's whole starting
 * state (the server's games, from 128 random bits: services/games.ts says why).
 */
export function newGame(board: BoardDefinition, players: readonly string[], seed: number | RandomState): GameState {
  const start = typeof seed === 'number' ? seedRandom(seed) : ownState(seed)
  const [optionDeck, rng] = withRandom(start, (randomInt) => shuffled(OPTION_NAMES, randomInt))
  return {
    turn: 1,
    robots: players.map((player) => newRobot(player, board)),
    board: initialBoardState(board),
    optionDeck,
    hands: {},
    rng,
    gameOver: false,
    winners: [],
  }
}
