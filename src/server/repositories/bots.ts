// Bots in seats, practice games, webhooks and their deliveries, and series (issue 15; migrations
// 015-017), and the missed-program bot's fallbacks (050). Prepared statements only; the services decide.
import type { Db } from '../plugins/db.js'

export interface WebhookRow { game_id: string; player_id: string; user_id: number; url: string; secret: string; created_at: number }

export interface DeliveryRow {
  id: number; game_id: string; player_id: string; turn_number: number; status: 'pending' | 'sending' | 'sent' | 'failed'
  attempts: number; next_attempt_at: number; lease_until: number | null; last_error: string | null; created_at: number; sent_at: number | null
}

/** When a stopped series stops (migration 048): after the game in progress, or now. */
export type SeriesStopWhen = 'after-game' | 'now'

export interface SeriesRow {
  id: string; name: string; gm_user_id: number; boards_json: string; seats_json: string; games_total: number
  status: 'running' | 'finished' | 'stopped'; created_at: number; ended_at: number | null
  stop_when: SeriesStopWhen | null; stop_reason: string | null; stop_asked_at: number | null
}

/** The missed-program bot's program planned ahead for a seat (migration 050; services/missed-program-plans.ts). */
export interface FallbackRow { player_id: string; orders_json: string }

export interface SeriesGameRow { series_id: string; position: number; game_id: string; seats_json: string }

export function botsRepository(db: Db) {
  // A bot seated where a gone player's robot was to leave the board (robot_leaves) plays that robot
  // instead: it stays (afterPublished, standings.ts).
  const seatBot = db.prepare<[string, string, string, number, number]>(`UPDATE seats SET bot = ?, name = ?, colour = ?, joined_at = ?,
    invite_email = NULL, invite_token_hash = NULL, robot_leaves = 0 WHERE id = ? AND user_id IS NULL AND bot IS NULL`)
  const settings = db.prepare<[string], { missed_program_bot: string | null; practice: number }>('SELECT missed_program_bot, practice FROM games WHERE id = ?')
  const setSettings = db.prepare<[string | null, number, string]>('UPDATE games SET missed_program_bot = ?, practice = ? WHERE id = ?')
  // Open turns with a bot seat that has sent no program (services/bot-plans.ts plans them again after a restart).
  const openTurnsWaitingForBots = db.prepare<[], { id: number; game_id: string }>(`SELECT DISTINCT turns.id, turns.game_id FROM turns
    JOIN seats ON seats.game_id = turns.game_id AND seats.bot IS NOT NULL AND seats.user_id IS NULL
    WHERE turns.status = 'open' AND NOT EXISTS (SELECT 1 FROM submissions WHERE submissions.turn_id = turns.id AND submissions.player_id = seats.player_id)
    ORDER BY turns.id`)
  // Open turns of games whose missed programs a bot plays, with a person's seat (or an empty one)
  // that has neither a program nor a fallback: planned again after a restart (missed-program-plans.ts).
  const openTurnsWaitingForFallbacks = db.prepare<[], { id: number; game_id: string }>(`SELECT DISTINCT turns.id, turns.game_id FROM turns
    JOIN games ON games.id = turns.game_id AND games.missed_program_bot IS NOT NULL AND games.missed_program_bot <> 'random'
    JOIN seats ON seats.game_id = turns.game_id AND seats.bot IS NULL
    WHERE turns.status = 'open'
    AND NOT EXISTS (SELECT 1 FROM submissions WHERE submissions.turn_id = turns.id AND submissions.player_id = seats.player_id)
    AND NOT EXISTS (SELECT 1 FROM missed_program_fallbacks f WHERE f.turn_id = turns.id AND f.player_id = seats.player_id)
    ORDER BY turns.id`)
  const fallbacks = db.prepare<[number], FallbackRow>('SELECT player_id, orders_json FROM missed_program_fallbacks WHERE turn_id = ?')
  const putFallback = db.prepare<[number, string, string]>(`INSERT INTO missed_program_fallbacks (turn_id, player_id, orders_json)
    VALUES (?, ?, ?) ON CONFLICT (turn_id, player_id) DO UPDATE SET orders_json = excluded.orders_json`)
  const dropFallbacks = db.prepare<[number]>('DELETE FROM missed_program_fallbacks WHERE turn_id = ?')

  const webhook = db.prepare<[string, string], WebhookRow>('SELECT * FROM webhooks WHERE game_id = ? AND player_id = ?')
  const putWebhook = db.prepare<[string, string, number, string, string, number]>(`INSERT INTO webhooks (game_id, player_id, user_id, url, secret, created_at)
    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, player_id) DO UPDATE SET user_id = excluded.user_id, url = excluded.url,
    secret = excluded.secret, created_at = excluded.created_at`)
  const deleteWebhook = db.prepare<[string, string]>('DELETE FROM webhooks WHERE game_id = ? AND player_id = ?')
  const webhooksOf = db.prepare<[string], WebhookRow>('SELECT * FROM webhooks WHERE game_id = ?')
  const queue = db.prepare<[string, string, number, number, number]>(
    'INSERT INTO webhook_deliveries (game_id, player_id, turn_number, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?)')
  // The next due delivery of a person none of whose deliveries is being sent: one slow bot server
  // holds up its owner's deliveries only, never another person's (services/webhooks.ts).
  const claim = db.prepare<[number, number, number, number, number], DeliveryRow>(`UPDATE webhook_deliveries
    SET status = 'sending', lease_until = ?, attempts = attempts + 1
    WHERE id = (SELECT d.id FROM webhook_deliveries d
      LEFT JOIN webhooks w ON w.game_id = d.game_id AND w.player_id = d.player_id
      WHERE ((d.status = 'pending' AND d.next_attempt_at <= ?) OR (d.status = 'sending' AND d.lease_until <= ?))
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries s JOIN webhooks sw ON sw.game_id = s.game_id AND sw.player_id = s.player_id
        WHERE s.status = 'sending' AND s.lease_until > ? AND sw.user_id = w.user_id)
      ORDER BY d.next_attempt_at, d.id LIMIT 1)
    AND (status = 'pending' OR lease_until <= ?)
    RETURNING *`)
  const sent = db.prepare<[number, number]>("UPDATE webhook_deliveries SET status = 'sent', sent_at = ?, lease_until = NULL, last_error = NULL WHERE id = ? AND status = 'sending'")
  const retry = db.prepare<[number, string, number]>("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, last_error = ?, lease_until = NULL WHERE id = ? AND status = 'sending'")
  const failed = db.prepare<[string, number]>("UPDATE webhook_deliveries SET status = 'failed', last_error = ?, lease_until = NULL WHERE id = ? AND status = 'sending'")
  const recent = db.prepare<[string, string], DeliveryRow>('SELECT * FROM webhook_deliveries WHERE game_id = ? AND player_id = ? ORDER BY id DESC LIMIT 20')

  // A person's bot games still going (services/bot-limits.ts).
  const runningPractice = db.prepare<[number], { n: number }>(
    "SELECT COUNT(*) AS n FROM games WHERE gm_user_id = ? AND practice = 1 AND status IN ('setup', 'running', 'paused')")
  const runningSeriesOf = db.prepare<[number], { n: number }>("SELECT COUNT(*) AS n FROM series WHERE gm_user_id = ? AND status = 'running'")

  const insertSeries = db.prepare<[string, string, number, string, string, number, number]>(`INSERT INTO series
    (id, name, gm_user_id, boards_json, seats_json, games_total, status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'running', ?)`)
  const series = db.prepare<[string], SeriesRow>('SELECT * FROM series WHERE id = ?')
  const runningSeries = db.prepare<[], SeriesRow>("SELECT * FROM series WHERE status = 'running' ORDER BY created_at")
  const finishSeries = db.prepare<[number, string]>("UPDATE series SET status = 'finished', ended_at = ? WHERE id = ? AND status = 'running'")
  const askStop = db.prepare<[string, string, number, string]>("UPDATE series SET stop_when = ?, stop_reason = ?, stop_asked_at = ? WHERE id = ? AND status = 'running'")
  const stopSeries = db.prepare<[number, string]>("UPDATE series SET status = 'stopped', ended_at = ? WHERE id = ? AND status = 'running'")
  const addSeriesGame = db.prepare<[string, number, string, string]>('INSERT INTO series_games (series_id, position, game_id, seats_json) VALUES (?, ?, ?, ?)')
  const seriesGames = db.prepare<[string], SeriesGameRow & { status: string; winners_json: string | null; state_json: string | null; board_json: string }>(
    `SELECT series_games.*, games.status, games.winners_json, games.state_json, games.board_json FROM series_games
     JOIN games ON games.id = series_games.game_id WHERE series_id = ? ORDER BY position`)

  return {
    openTurnsWaitingForBots: () => openTurnsWaitingForBots.all(),
    openTurnsWaitingForFallbacks: () => openTurnsWaitingForFallbacks.all(),
    fallbacks: (turnId: number) => fallbacks.all(turnId),
    putFallback: (turnId: number, f: FallbackRow) => { putFallback.run(turnId, f.player_id, f.orders_json) },
    dropFallbacks: (turnId: number) => { dropFallbacks.run(turnId) },
    seatBot: (seatId: number, level: string, name: string, colour: string, now: number) => seatBot.run(level, name, colour, now, seatId).changes === 1,
    settings: (gameId: string) => settings.get(gameId),
    setSettings: (gameId: string, missedProgramBot: string | null, practice: boolean) => { setSettings.run(missedProgramBot, practice ? 1 : 0, gameId) },

    webhook: (gameId: string, playerId: string) => webhook.get(gameId, playerId),
    putWebhook: (w: WebhookRow) => { putWebhook.run(w.game_id, w.player_id, w.user_id, w.url, w.secret, w.created_at) },
    deleteWebhook: (gameId: string, playerId: string) => deleteWebhook.run(gameId, playerId).changes === 1,
    webhooksOf: (gameId: string) => webhooksOf.all(gameId),
    queueDelivery: (gameId: string, playerId: string, turn: number, now: number) => { queue.run(gameId, playerId, turn, now, now) },
    claimDelivery: (now: number, leaseMs: number) => claim.get(now + leaseMs, now, now, now, now),
    deliverySent: (id: number, now: number) => { sent.run(now, id) },
    deliveryRetry: (id: number, at: number, error: string) => { retry.run(at, error.slice(0, 500), id) },
    deliveryFailed: (id: number, error: string) => { failed.run(error.slice(0, 500), id) },
    recentDeliveries: (gameId: string, playerId: string) => recent.all(gameId, playerId),

    runningPracticeGames: (userId: number) => runningPractice.get(userId)!.n,
    runningSeriesOf: (userId: number) => runningSeriesOf.get(userId)!.n,

    insertSeries: (s: Pick<SeriesRow, 'id' | 'name' | 'gm_user_id' | 'boards_json' | 'seats_json' | 'games_total' | 'created_at'>) => {
      insertSeries.run(s.id, s.name, s.gm_user_id, s.boards_json, s.seats_json, s.games_total, s.created_at)
    },
    series: (id: string) => series.get(id),
    runningSeries: () => runningSeries.all(),
    finishSeries: (id: string, now: number) => finishSeries.run(now, id).changes === 1,
    /** Records the GM's stop (when, why); the series stays running until stopSeries. */
    askSeriesStop: (id: string, when: SeriesStopWhen, reason: string, now: number) => askStop.run(when, reason, now, id).changes === 1,
    stopSeries: (id: string, now: number) => stopSeries.run(now, id).changes === 1,
    addSeriesGame: (seriesId: string, position: number, gameId: string, seatsJson: string) => { addSeriesGame.run(seriesId, position, gameId, seatsJson) },
    seriesGames: (seriesId: string) => seriesGames.all(seriesId),
  }
}
export type BotsRepository = ReturnType<typeof botsRepository>
