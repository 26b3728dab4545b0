// Games, their seats and the GM's history.
import type { Db } from '../plugins/db.js'

export type GameStatus = 'setup' | 'running' | 'paused' | 'finished' | 'abandoned'

export interface GameRow {
  id: string; name: string; board_name: string; board_json: string; gm_user_id: number; seat_count: number
  turn_length_ms: number; review_window_ms: number; close_early: number; gm_plays: number; seed: number
  /** 1 = players see the planning preview on their turn's form (issue 13). */
  path_preview: number
  public_token: string; status: GameStatus; paused_at: number | null; state_json: string | null
  winners_json: string | null; created_at: number; started_at: number | null; ended_at: number | null
  /** Issue 12 (migration 027): endings, seats that change, table talk. */
  turn_limit: number | null; stalemate_turns: number | null; stalemate_offered_turn: number | null
  gone_robot: 'random' | 'leave' | 'bot'; table_talk: number; end_reason: string | null; placings_json: string | null
  /** How long before the deadline the reminder goes; whether a reply token works from any address (issue 14). */
  reminder_before_ms: number; reply_from_any: number
  /** With gone_robot 'bot': the built-in bot that plays a robot whose player is gone (migration 040). */
  gone_robot_bot: 'random' | 'greedy' | 'strong' | null
}

export interface SeatRow {
  id: number; game_id: string; seat_no: number; player_id: string; user_id: number | null; name: string | null
  colour: string | null; invite_email: string | null; invite_token_hash: string | null; joined_at: number | null
  /** 1 when its player left and the game's choice is that the robot leaves the board (migration 027). */
  robot_leaves: number
  email?: string | null
  /** The built-in bot that plays this seat (migration 015), or null for a person's seat. */
  bot?: string | null
}

export interface GmActionRow { id: number; game_id: string; at: number; action: string; reason: string; detail_json: string }

export type NewGame = Omit<GameRow, 'status' | 'paused_at' | 'state_json' | 'winners_json' | 'started_at' | 'ended_at'
  | 'turn_limit' | 'stalemate_turns' | 'stalemate_offered_turn' | 'gone_robot' | 'gone_robot_bot' | 'table_talk' | 'end_reason' | 'placings_json'>

export function gamesRepository(db: Db) {
  const insertGame = db.prepare<NewGame>(`INSERT INTO games (id, name, board_name, board_json, gm_user_id, seat_count,
    turn_length_ms, review_window_ms, close_early, gm_plays, path_preview, reminder_before_ms, reply_from_any, seed, public_token, status, created_at)
    VALUES (@id, @name, @board_name, @board_json, @gm_user_id, @seat_count, @turn_length_ms, @review_window_ms,
    @close_early, @gm_plays, @path_preview, @reminder_before_ms, @reply_from_any, @seed, @public_token, 'setup', @created_at)`)
  const setPathPreview = db.prepare<[number, string]>('UPDATE games SET path_preview = ? WHERE id = ?')
  const byId = db.prepare<[string], GameRow>('SELECT * FROM games WHERE id = ?')
  const byPublicToken = db.prepare<[string], GameRow>('SELECT * FROM games WHERE public_token = ?')
  const forUser = db.prepare<[number, number], GameRow>(`SELECT * FROM games WHERE gm_user_id = ?
    OR id IN (SELECT game_id FROM seats WHERE user_id = ?) ORDER BY created_at DESC`)
  const running = db.prepare<[], GameRow>("SELECT * FROM games WHERE status = 'running'")
  const setStatus = db.prepare<[GameStatus, number | null, string]>('UPDATE games SET status = ?, paused_at = ? WHERE id = ?')
  const start = db.prepare<[string, number, string]>("UPDATE games SET status = 'running', state_json = ?, started_at = ? WHERE id = ? AND status = 'setup'")
  const setState = db.prepare<[string, string]>('UPDATE games SET state_json = ? WHERE id = ?')
  const finish = db.prepare<[string, GameStatus, number, string]>('UPDATE games SET winners_json = ?, status = ?, ended_at = ? WHERE id = ?')

  const insertSeat = db.prepare<[string, number, string]>('INSERT INTO seats (game_id, seat_no, player_id) VALUES (?, ?, ?)')
  const seats = db.prepare<[string], SeatRow>(
    'SELECT seats.*, users.email FROM seats LEFT JOIN users ON users.id = seats.user_id WHERE game_id = ? ORDER BY seat_no')
  const seatByInvite = db.prepare<[string], SeatRow>('SELECT * FROM seats WHERE invite_token_hash = ?')
  const invite = db.prepare<[string, string, number]>('UPDATE seats SET invite_email = ?, invite_token_hash = ? WHERE id = ?')
  const join = db.prepare<[number, string, string, number, number]>(
    'UPDATE seats SET user_id = ?, name = ?, colour = ?, joined_at = ?, invite_token_hash = NULL WHERE id = ? AND user_id IS NULL')
  const closeEmptySeats = db.prepare<[string]>('DELETE FROM seats WHERE game_id = ? AND user_id IS NULL AND bot IS NULL')
  const setSeatCount = db.prepare<[number, string]>('UPDATE games SET seat_count = ? WHERE id = ?')
  const vacate = db.prepare<[number]>('UPDATE seats SET user_id = NULL, joined_at = NULL, invite_email = NULL, invite_token_hash = NULL WHERE id = ?')

  const insertAction = db.prepare<[string, number, string, string, string]>(
    'INSERT INTO gm_actions (game_id, at, action, reason, detail_json) VALUES (?, ?, ?, ?, ?)')
  const actions = db.prepare<[string], GmActionRow>('SELECT * FROM gm_actions WHERE game_id = ? ORDER BY id')

  return {
    insert: (game: NewGame) => { insertGame.run(game) },
    setPathPreview: (id: string, on: boolean) => { setPathPreview.run(on ? 1 : 0, id) },
    byId: (id: string) => byId.get(id),
    /** The GM's user id, or undefined when there is no such game (no large columns read). */
    /** The (first) seat a user holds in a game. */
    byPublicToken: (token: string) => byPublicToken.get(token),
    forUser: (userId: number) => forUser.all(userId, userId),
    running: () => running.all(),
    setStatus: (id: string, status: GameStatus, pausedAt: number | null = null) => { setStatus.run(status, pausedAt, id) },
    start: (id: string, stateJson: string, now: number) => start.run(stateJson, now, id).changes,
    setState: (id: string, stateJson: string) => { setState.run(stateJson, id) },
    finish: (id: string, winners: string[], status: GameStatus, now: number) => { finish.run(JSON.stringify(winners), status, now, id) },
    insertSeat: (gameId: string, seatNo: number) => { insertSeat.run(gameId, seatNo, `P${seatNo}`) },
    seats: (gameId: string) => seats.all(gameId),
    seatByInvite: (tokenHash: string) => seatByInvite.get(tokenHash),
    invite: (seatId: number, email: string, tokenHash: string) => { invite.run(email, tokenHash, seatId) },
    join: (seatId: number, userId: number, name: string, colour: string, now: number) => join.run(userId, name, colour, now, seatId).changes,
    vacate: (seatId: number) => { vacate.run(seatId) },
    /** Before the start only: drops the seats nobody took (their invitations go with them). */
    closeEmptySeats: (gameId: string) => closeEmptySeats.run(gameId).changes,
    setSeatCount: (gameId: string, count: number) => { setSeatCount.run(count, gameId) },
    logAction: (gameId: string, now: number, action: string, reason: string, detail: object = {}) => {
      insertAction.run(gameId, now, action, reason || '(no reason given)', JSON.stringify(detail))
    },
    actions: (gameId: string) => actions.all(gameId),
  }
}
export type GamesRepository = ReturnType<typeof gamesRepository>
