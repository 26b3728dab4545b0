// The GM's side of a game beyond its turns (issue 12): corrections, withdrawn reports, who went out
// when, a game's ending settings, and the few turn updates a rollback needs.
import type { Db } from '../plugins/db.js'
import type { SubmissionRow } from './turns.js'

export interface CorrectionRow {
  id: number; turn_id: number; player_id: string; gm_user_id: number; submission_id: number
  before_json: string | null; after_json: string; reason: string; at: number
}

export interface WithdrawnReportRow {
  id: number; game_id: string; number: number; version: number; result_json: string; report_text: string
  published_at: number; withdrawn_at: number; reason: string
}

export interface GameSettings {
  turnLimit: number | null
  stalemateTurns: number | null
  goneRobot: 'random' | 'leave' | 'bot'
  /** The bot that plays a gone player's robot, with goneRobot 'bot' (null otherwise). */
  goneRobotBot: 'random' | 'greedy' | 'strong' | null
  tableTalk: boolean
}

export function gmRepository(db: Db) {
  const insertCorrection = db.prepare<[number, string, number, number, string | null, string, string, number]>(`INSERT INTO corrections
    (turn_id, player_id, gm_user_id, submission_id, before_json, after_json, reason, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
  const corrections = db.prepare<[number], CorrectionRow>('SELECT * FROM corrections WHERE turn_id = ? ORDER BY id')
  // A player's program just before a version (the latest when `before` is past every version).
  const versionBefore = db.prepare<[number, string, number], SubmissionRow>(
    'SELECT * FROM submissions WHERE turn_id = ? AND player_id = ? AND version < ? ORDER BY version DESC LIMIT 1')
  const submission = db.prepare<[number], SubmissionRow>('SELECT * FROM submissions WHERE id = ?')

  const withdrawnCount = db.prepare<[string, number], number>('SELECT COUNT(*) FROM withdrawn_reports WHERE game_id = ? AND number = ?').pluck()
  const insertWithdrawn = db.prepare<[string, number, number, string, string, number, number, string]>(`INSERT INTO withdrawn_reports
    (game_id, number, version, result_json, report_text, published_at, withdrawn_at, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
  const withdrawn = db.prepare<[string], Omit<WithdrawnReportRow, 'result_json' | 'report_text'>>(
    'SELECT id, game_id, number, version, published_at, withdrawn_at, reason FROM withdrawn_reports WHERE game_id = ? ORDER BY number, version')
  const withdrawnOne = db.prepare<[string, number, number], WithdrawnReportRow>('SELECT * FROM withdrawn_reports WHERE game_id = ? AND number = ? AND version = ?')

  const lastPublished = db.prepare<[string], { id: number; number: number }>(
    "SELECT id, number FROM turns WHERE game_id = ? AND status = 'published' ORDER BY number DESC LIMIT 1")
  const deleteTurnsAfter = db.prepare<[string, number]>('DELETE FROM turns WHERE game_id = ? AND number > ?')
  const backToDraft = db.prepare<[number]>(`UPDATE turns SET status = 'draft', published_at = NULL, review_until = NULL,
    reopened_player_id = NULL WHERE id = ? AND status = 'published'`)
  const reopenGame = db.prepare<[string, string]>(`UPDATE games SET state_json = ?, status = CASE WHEN status = 'finished' THEN 'running' ELSE status END,
    winners_json = NULL, ended_at = NULL, end_reason = NULL, placings_json = NULL WHERE id = ?`)
  // Flags touched in each of the last published turns, newest first: the sum of every robot's flags after it less before it.
  const flagsGained = db.prepare<[string, number], number>(`SELECT
      (SELECT COALESCE(SUM(json_extract(value, '$.flags')), 0) FROM json_each(next_state_json, '$.robots'))
      - (SELECT COALESCE(SUM(json_extract(value, '$.flags')), 0) FROM json_each(dealt_state_json, '$.robots'))
    FROM turns WHERE game_id = ? AND status = 'published' ORDER BY number DESC LIMIT ?`).pluck()

  const insertOut = db.prepare<[string, string, number]>('INSERT OR IGNORE INTO players_out (game_id, player_id, after_turn) VALUES (?, ?, ?)')
  const outs = db.prepare<[string], { player_id: string; after_turn: number }>('SELECT player_id, after_turn FROM players_out WHERE game_id = ?')
  const deleteOutsFrom = db.prepare<[string, number]>('DELETE FROM players_out WHERE game_id = ? AND after_turn >= ?')

  const setSettings = db.prepare<[number | null, number | null, string, string | null, number, string]>(
    'UPDATE games SET turn_limit = ?, stalemate_turns = ?, gone_robot = ?, gone_robot_bot = ?, table_talk = ? WHERE id = ?')
  const setStalemateOffered = db.prepare<[number | null, string]>('UPDATE games SET stalemate_offered_turn = ? WHERE id = ?')
  const finishWithPlacings = db.prepare<[string, string, string, number, string]>(
    "UPDATE games SET status = 'finished', winners_json = ?, placings_json = ?, end_reason = ?, ended_at = ? WHERE id = ?")
  const setRobotLeaves = db.prepare<[number, number]>('UPDATE seats SET robot_leaves = ? WHERE id = ?')
  const insertSeat = db.prepare<[string, number, string]>('INSERT INTO seats (game_id, seat_no, player_id) VALUES (?, ?, ?)')
  const setSeatCount = db.prepare<[string]>('UPDATE games SET seat_count = (SELECT COUNT(*) FROM seats WHERE game_id = games.id) WHERE id = ?')
  const keepLock = db.prepare<[string, number, string | null]>(`INSERT INTO gm_kept_locks (game_id, turn_number, program_json) VALUES (?, ?, ?)
    ON CONFLICT (game_id, turn_number) DO UPDATE SET program_json = excluded.program_json`)
  const keptLock = db.prepare<[string, number], { program_json: string | null }>('SELECT program_json FROM gm_kept_locks WHERE game_id = ? AND turn_number = ?')
  const dropKeptLock = db.prepare<[string, number]>('DELETE FROM gm_kept_locks WHERE game_id = ? AND turn_number = ?')

  return {
    addCorrection: (c: Omit<CorrectionRow, 'id'>) => {
      insertCorrection.run(c.turn_id, c.player_id, c.gm_user_id, c.submission_id, c.before_json, c.after_json, c.reason, c.at)
    },
    corrections: (turnId: number) => corrections.all(turnId),
    latestProgram: (turnId: number, playerId: string) => versionBefore.get(turnId, playerId, Number.MAX_SAFE_INTEGER),
    programBefore: (turnId: number, playerId: string, version: number) => versionBefore.get(turnId, playerId, version),
    submission: (id: number) => submission.get(id),
    /** Keeps a published report that is being rolled back; returns its version number (1, 2, …). */
    withdrawReport: (gameId: string, number: number, resultJson: string, reportText: string, publishedAt: number, now: number, reason: string) => {
      const version = withdrawnCount.get(gameId, number)! + 1
      insertWithdrawn.run(gameId, number, version, resultJson, reportText, publishedAt, now, reason)
      return version
    },
    withdrawnReports: (gameId: string) => withdrawn.all(gameId),
    withdrawnReport: (gameId: string, number: number, version: number) => withdrawnOne.get(gameId, number, version),
    lastPublished: (gameId: string) => lastPublished.get(gameId),
    deleteTurnsAfter: (gameId: string, number: number) => deleteTurnsAfter.run(gameId, number).changes,
    backToDraft: (turnId: number) => backToDraft.run(turnId).changes === 1,
    /** After a rollback: the game as it stood before the turn (running again if that turn had ended it). */
    reopenGame: (gameId: string, stateJson: string) => { reopenGame.run(stateJson, gameId) },
    flagsGained: (gameId: string, turns: number) => flagsGained.all(gameId, turns),
    recordOut: (gameId: string, playerId: string, afterTurn: number) => { insertOut.run(gameId, playerId, afterTurn) },
    outAfterTurn: (gameId: string): Record<string, number> => Object.fromEntries(outs.all(gameId).map((o) => [o.player_id, o.after_turn])),
    forgetOutsFrom: (gameId: string, turn: number) => { deleteOutsFrom.run(gameId, turn) },
    setSettings: (gameId: string, s: GameSettings) => { setSettings.run(s.turnLimit, s.stalemateTurns, s.goneRobot, s.goneRobot === 'bot' ? s.goneRobotBot : null, s.tableTalk ? 1 : 0, gameId) },
    setStalemateOffered: (gameId: string, turn: number | null) => { setStalemateOffered.run(turn, gameId) },
    finishWithPlacings: (gameId: string, winners: string[], placingsJson: string, reason: string, now: number) => {
      finishWithPlacings.run(JSON.stringify(winners), placingsJson, reason, now, gameId)
    },
    setRobotLeaves: (seatId: number, leaves: boolean) => { setRobotLeaves.run(leaves ? 1 : 0, seatId) },
    /** A playing GM's lock of turn `turnNumber`, kept through a rollback until the turn is dealt again (services/gm-kept-lock.ts). */
    keepLock: (gameId: string, turnNumber: number, programJson: string | null) => { keepLock.run(gameId, turnNumber, programJson) },
    /** The lock kept for turn `turnNumber`, taken (deleted) as it is read; undefined when none was kept. */
    takeKeptLock: (gameId: string, turnNumber: number): { program_json: string | null } | undefined => {
      const kept = keptLock.get(gameId, turnNumber)
      if (kept) dropKeptLock.run(gameId, turnNumber)
      return kept
    },
    /** A seat opened in a running game; the seat count follows. */
    addSeat: (gameId: string, seatNo: number, playerId: string) => {
      insertSeat.run(gameId, seatNo, playerId)
      setSeatCount.run(gameId)
    },
  }
}
export type GmRepository = ReturnType<typeof gmRepository>
