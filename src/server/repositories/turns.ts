// Turns and every version of every submitted program.
import type { Db } from '../plugins/db.js'

export type TurnStatus = 'open' | 'draft' | 'published'

export interface TurnRow {
  id: number; game_id: string; number: number; status: TurnStatus; dealt_state_json: string; opened_at: number
  deadline: number; reminder_queued: number; closed_at: number | null; review_until: number | null
  reopened_player_id: string | null; result_json: string | null; next_state_json: string | null; published_at: number | null
  /** 1 once every robot that must play this turn has a program in (set when it happens; migration 002). */
  programs_in: number
  /** When a GM who plays locked their program, or the turn closed (migration 005); null while it may change. */
  gm_locked_at: number | null
  /** Counts changes a GM's tab could have missed (migration 025's trigger); see services/turn-version.ts. */
  revision: number
}


export interface SubmissionRow {
  id: number; turn_id: number; player_id: string; user_id: number | null; version: number; cards_json: string
  reboot_next: number; sacrifice_at: number; double_wrench: string; facing: string | null; submitted_at: number
}

export interface PublishedHead { id: number; number: number; published_at: number | null; revision: number }

export type NewSubmission = Omit<SubmissionRow, 'id' | 'version'>

/** Where a submission goes: the game (always), the user's first seat and the turn (each null when missing). */
export interface SubmissionPlace {
  game_status: string; gm_user_id: number
  /** 1 for a practice game (issue 15): its turn closes as soon as every program is in. */
  practice: number
  player_id: string | null; user_id: number | null
  turn_id: number | null; turn_number: number | null; turn_status: TurnStatus | null; opened_at: number | null
  reopened_player_id: string | null; programs_in: number | null
  deadline: number | null; gm_locked_at: number | null; paused_at: number | null
}

/** The latest version of a seat's program for a turn. */
export interface LatestVersion { version: number; sacrifice_at: number; double_wrench: string }

/** All a submission checks: its place and the seat's latest program (null before its first). */
export interface SubmissionContext extends SubmissionPlace {
  previous_version: number | null; previous_sacrifice_at: number | null; previous_double_wrench: string | null
}

/**
 * The columns of the statement that reads a submission's place, in order: checked against the
 * statement when it is prepared.
 */
const SUBMISSION_PLACE_COLUMNS = 'game_status,gm_user_id,paused_at,practice,player_id,user_id,turn_id,turn_number,turn_status,' +
  'opened_at,reopened_player_id,programs_in,deadline,gm_locked_at'

/** A submission's place from its statement's raw row (SUBMISSION_PLACE_COLUMNS is the order). */
function submissionPlaceOf(row: unknown[]): SubmissionPlace {
  const [
    game_status, gm_user_id, paused_at, practice, player_id, user_id, turn_id, turn_number, turn_status,
    opened_at, reopened_player_id, programs_in, deadline, gm_locked_at,
  ] = row as [
    string, number, number | null, number, string | null, number | null, number | null, number | null, TurnStatus | null,
    number | null, string | null, number | null, number | null, number | null,
  ]
  return {
    game_status, gm_user_id, paused_at, practice, player_id, user_id, turn_id, turn_number, turn_status,
    opened_at, reopened_player_id, programs_in, deadline, gm_locked_at,
  }
}

export function turnsRepository(db: Db) {
  const insert = db.prepare<[string, number, string, number, number], TurnRow>(
    "INSERT INTO turns (game_id, number, status, dealt_state_json, opened_at, deadline) VALUES (?, ?, 'open', ?, ?, ?) RETURNING *")
  const byNumber = db.prepare<[string, number], TurnRow>('SELECT * FROM turns WHERE game_id = ? AND number = ?')
  const byId = db.prepare<[number], TurnRow>('SELECT * FROM turns WHERE id = ?')
  const current = db.prepare<[string], TurnRow>('SELECT * FROM turns WHERE game_id = ? ORDER BY number DESC LIMIT 1')
  const published = db.prepare<[string], TurnRow>("SELECT * FROM turns WHERE game_id = ? AND status = 'published' ORDER BY number")
  // Pages list and count a game's published turns on every view: without the turns' JSON (tens of
  // kilobytes each), which made a game page's cost grow with every turn played.
  const publishedNumbers = db.prepare<[string], number>("SELECT number FROM turns WHERE game_id = ? AND status = 'published' ORDER BY number").pluck()
  const publishedHeads = db.prepare<[string], PublishedHead>(
    "SELECT id, number, published_at, revision FROM turns WHERE game_id = ? AND status = 'published' ORDER BY number")
  const resultJson = db.prepare<[number], string | null>('SELECT result_json FROM turns WHERE id = ?').pluck()
  const withStatus = db.prepare<[string], TurnRow & { game_status: string }>(
    "SELECT turns.*, games.status AS game_status FROM turns JOIN games ON games.id = turns.game_id WHERE turns.status = ? AND games.status = 'running'")
  // Closing locks a playing GM's program too (migration 005): the GM sees the draft next.
  const markDraft = db.prepare<{ now: number; until: number | null; id: number }>(
    "UPDATE turns SET status = 'draft', closed_at = @now, review_until = @until, gm_locked_at = COALESCE(gm_locked_at, @now) WHERE id = @id AND status = 'open'")
  const storeResult = db.prepare<[string, string, number]>(
    "UPDATE turns SET result_json = ?, next_state_json = ?, reopened_player_id = NULL WHERE id = ? AND status = 'draft'")
  const markPublished = db.prepare<[number, number]>("UPDATE turns SET status = 'published', published_at = ? WHERE id = ? AND status = 'draft'")
  const reopen = db.prepare<[string, number]>("UPDATE turns SET reopened_player_id = ? WHERE id = ? AND status = 'draft'")
  const setDeadline = db.prepare<[number, number, number]>("UPDATE turns SET deadline = ?, reminder_queued = ? WHERE id = ? AND status = 'open'")
  const setReviewUntil = db.prepare<[number, number]>("UPDATE turns SET review_until = ? WHERE id = ? AND status = 'draft'")
  const markReminded = db.prepare<[number]>('UPDATE turns SET reminder_queued = 1 WHERE id = ? AND reminder_queued = 0')
  const lockGm = db.prepare<[number, number]>("UPDATE turns SET gm_locked_at = ? WHERE id = ? AND status = 'open' AND gm_locked_at IS NULL")
  const markProgramsIn = db.prepare<[number]>('UPDATE turns SET programs_in = 1 WHERE id = ?')
  const dealtJson = db.prepare<[number], string>('SELECT dealt_state_json FROM turns WHERE id = ?').pluck()
  // The clockwork's candidates, chosen in SQL (indexes of migration 002), oldest first, at most `limit`.
  // CROSS JOIN keeps turns first: otherwise SQLite may scan every game row (with its board) first.
  const draftsDue = db.prepare<[number, number], number>(`SELECT turns.id FROM turns CROSS JOIN games ON games.id = turns.game_id
    WHERE turns.status = 'draft' AND turns.review_until <= ? AND games.status = 'running' ORDER BY turns.review_until LIMIT ?`).pluck()
  const openDue = db.prepare<{ now: number; limit: number }, number>(`SELECT id FROM (
      SELECT turns.id, turns.deadline FROM turns CROSS JOIN games ON games.id = turns.game_id
        WHERE turns.status = 'open' AND turns.deadline <= @now AND games.status = 'running'
      UNION
      SELECT turns.id, turns.deadline FROM turns CROSS JOIN games ON games.id = turns.game_id
        WHERE turns.status = 'open' AND turns.programs_in = 1 AND games.close_early = 1 AND games.status = 'running'
    ) ORDER BY deadline, id LIMIT @limit`).pluck()
  // The reminder goes the game's reminder_before_ms before the deadline, never for a turn shorter
  // than twice that, never within the hour after the deal (issue 14). @soon bounds the index range.
  const remindersDue = db.prepare<{ now: number; soon: number; limit: number }, number>(`SELECT turns.id FROM turns CROSS JOIN games ON games.id = turns.game_id
    WHERE turns.status = 'open' AND turns.deadline <= @soon AND turns.deadline > @now AND turns.reminder_queued = 0
      AND turns.deadline - games.reminder_before_ms <= @now
      AND turns.deadline - turns.opened_at >= 2 * games.reminder_before_ms
      AND @now - turns.opened_at >= 3600000
      AND games.status = 'running' AND NOT (turns.programs_in = 1 AND games.close_early = 1)
    ORDER BY turns.deadline LIMIT @limit`).pluck()

  const insertSubmission = db.prepare<NewSubmission & { version?: number }>(`INSERT INTO submissions
    (turn_id, player_id, user_id, version, cards_json, reboot_next, sacrifice_at, double_wrench, facing, submitted_at)
    VALUES (@turn_id, @player_id, @user_id,
      (SELECT COALESCE(MAX(version), 0) + 1 FROM submissions WHERE turn_id = @turn_id AND player_id = @player_id),
      @cards_json, @reboot_next, @sacrifice_at, @double_wrench, @facing, @submitted_at)`)
  const latest = db.prepare<[number], SubmissionRow>(`SELECT s.* FROM submissions s WHERE s.turn_id = ? AND s.version =
    (SELECT MAX(version) FROM submissions WHERE turn_id = s.turn_id AND player_id = s.player_id)`)
  const insertVersion = db.prepare<[number, string, number | null, number, string, number, number, string, string | null, number]>(`INSERT INTO submissions
    (turn_id, player_id, user_id, version, cards_json, reboot_next, sacrifice_at, double_wrench, facing, submitted_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  // Where a submission goes, in one statement instead of three (game status and GM, the user's
  // seat, the turn): each statement costs a trip into SQLite (docs/performance.md). Read as a raw
  // row (an array) and named in JavaScript: better-sqlite3 building the object cost more. The
  // service keeps it between submissions (services/submission-context.ts); the seat's latest
  // version, which every submission changes, is read apart (latestVersion).
  const submissionPlace = db.prepare<{ game: string; user: number; turn: number }, unknown[]>(`SELECT
      g.status AS game_status, g.gm_user_id, g.paused_at, g.practice,
      s.player_id, s.user_id,
      t.id AS turn_id, t.number AS turn_number, t.status AS turn_status, t.opened_at, t.reopened_player_id, t.programs_in,
      t.deadline, t.gm_locked_at
    FROM games g
    LEFT JOIN seats s ON s.game_id = g.id AND s.user_id = @user
    LEFT JOIN turns t ON t.game_id = g.id AND t.number = @turn
    WHERE g.id = @game
    ORDER BY s.seat_no LIMIT 1`).raw()
  const placeColumns = submissionPlace.columns().map((column) => column.name).join()
  if (placeColumns !== SUBMISSION_PLACE_COLUMNS) throw new Error(`submissionPlace: columns ${placeColumns}, read as ${SUBMISSION_PLACE_COLUMNS}`)
  // The newest version by the unique index (turn_id, player_id, version), read from its far end.
  const latestVersion = db.prepare<[number, string], LatestVersion>(
    'SELECT version, sacrifice_at, double_wrench FROM submissions WHERE turn_id = ? AND player_id = ? ORDER BY version DESC LIMIT 1')
  const submitters = db.prepare<[number], string>('SELECT DISTINCT player_id FROM submissions WHERE turn_id = ?').pluck()
  const versions = db.prepare<[number, string, number, number], SubmissionRow>(
    'SELECT * FROM submissions WHERE turn_id = ? AND player_id = ? AND version >= ? ORDER BY version LIMIT ?')

  return {
    insert: (gameId: string, number: number, dealtStateJson: string, now: number, deadline: number) =>
      insert.get(gameId, number, dealtStateJson, now, deadline)!,
    byNumber: (gameId: string, number: number) => byNumber.get(gameId, number),
    byId: (id: number) => byId.get(id),
    current: (gameId: string) => current.get(gameId),
    published: (gameId: string) => published.all(gameId),
    /** The numbers of the game's published turns, in order (no JSON read). */
    publishedNumbers: (gameId: string) => publishedNumbers.all(gameId),
    /** Id, number, time of publication and revision (it moves with every change of status or result) of each published turn, in order (no JSON read). */
    publishedHeads: (gameId: string) => publishedHeads.all(gameId),
    resultJson: (id: number) => resultJson.get(id) ?? null,
    /** Turns in a status, of running games only (paused games wait). */
    ofRunningGames: (status: TurnStatus) => withStatus.all(status),
    /** The one place a turn stops taking programs: true for exactly one caller. */
    markDraft: (id: number, now: number, reviewUntil: number | null) => markDraft.run({ now, until: reviewUntil, id }).changes === 1,
    storeResult: (id: number, resultJson: string, nextStateJson: string) => storeResult.run(resultJson, nextStateJson, id).changes === 1,
    markPublished: (id: number, now: number) => markPublished.run(now, id).changes === 1,
    /** A GM who plays makes their program final (services/lock.ts): true once, while the turn is open. */
    lockGm: (id: number, now: number) => lockGm.run(now, id).changes === 1,
    reopen: (id: number, playerId: string) => reopen.run(playerId, id).changes === 1,
    setDeadline: (id: number, deadline: number, reminderQueued: boolean) => setDeadline.run(deadline, reminderQueued ? 1 : 0, id).changes === 1,
    setReviewUntil: (id: number, until: number) => { setReviewUntil.run(until, id) },
    markReminded: (id: number) => markReminded.run(id).changes === 1,
    addSubmission: (s: NewSubmission) => { insertSubmission.run(s) },
    /** Where submitting to `turn` of `game` as `user` goes (services/submission-context.ts), or undefined for no such game. */
    submissionPlace: (game: string, user: number, turn: number): SubmissionPlace | undefined => {
      const row = submissionPlace.get({ game, user, turn })
      return row && submissionPlaceOf(row)
    },
    /** The seat's latest program for the turn, or undefined before its first. */
    latestVersion: (turnId: number, playerId: string): LatestVersion | undefined => latestVersion.get(turnId, playerId),
    /** Stores the given version and returns the stored row. */
    insertSubmission: (s: NewSubmission & { version: number }): SubmissionRow => {
      const id = insertVersion.run(s.turn_id, s.player_id, s.user_id, s.version, s.cards_json, s.reboot_next, s.sacrifice_at,
        s.double_wrench, s.facing, s.submitted_at).lastInsertRowid
      return { id: Number(id), ...s }
    },
    /** The players with at least one program in for a turn. */
    submitters: (turnId: number) => submitters.all(turnId),
    markProgramsIn: (id: number) => { markProgramsIn.run(id) },
    dealtStateJson: (id: number) => dealtJson.get(id),
    draftsDue: (now: number, limit: number) => draftsDue.all(now, limit),
    openDue: (now: number, limit: number) => openDue.all({ now, limit }),
    remindersDue: (now: number, soon: number, limit: number) => remindersDue.all({ now, soon, limit }),
    latestSubmissions: (turnId: number) => latest.all(turnId),
    /** At most `limit` versions of a player's program, from version `from` on. */
    submissionVersions: (turnId: number, playerId: string, from: number, limit: number) => versions.all(turnId, playerId, from, limit),
  }
}
export type TurnsRepository = ReturnType<typeof turnsRepository>
