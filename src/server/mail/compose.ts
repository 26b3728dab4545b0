// A queued row made into the message that is sent: the text part as stored (long lines wrapped), the HTML part (as
// stored, or made from the text), the board picture rendered and attached by Content-ID, the
// headers every mail carries (one-click unsubscribe, Auto-Submitted so auto-responders stay
// quiet) and the game's thread (References to one Message-ID per game, which no mail owns).
import type { TurnResult } from '../../engine/turn.js'
import type { OutboxRow } from '../repositories/outbox.js'
import { reportNames, type ServiceContext } from '../services/context.js'
import { htmlFromText } from './html.js'
import { PICTURE_CID, turnPicturePng, type PictureRequest } from './picture.js'
import { unsubscribePath, type PreferencesRepository } from './preferences.js'
import { fitText } from './text.js'
import type { OutgoingMail } from './transport.js'

export interface ComposeDeps {
  from: string
  /** The host name used in Message-IDs. */
  domain: string
  link: (path: string) => string
  prefs: PreferencesRepository
  picture: (request: PictureRequest) => Buffer | null
}

export const SETTINGS_PATH = '/settings/mail'

export const gameThreadId = (gameId: string, domain: string) => `<game-${gameId}@${domain}>`

export function composeOutgoing(row: OutboxRow, deps: ComposeDeps): OutgoingMail {
  const extra = row.headers_json ? (JSON.parse(row.headers_json) as Record<string, string>) : {}
  const picture = row.picture_json ? deps.picture(JSON.parse(row.picture_json) as PictureRequest) : null
  const thread = row.game_id ? gameThreadId(row.game_id, deps.domain) : undefined
  const { 'Reply-To': replyTo, ...headers } = extra
  const settingsLink = deps.link(SETTINGS_PATH)
  return {
    id: row.id, from: deps.from, to: row.recipient, subject: row.subject, text: fitText(withSettingsFooter(row.body, settingsLink)),
    html: withoutMissingPicture(row.html ?? htmlFromText(row.subject, row.body, settingsLink), picture),
    messageId: `<outbox-${row.id}-${row.created_at}@${deps.domain}>`,
    replyTo,
    inReplyTo: thread,
    references: thread,
    headers: {
      ...headers,
      'Auto-Submitted': 'auto-generated',
      'List-Unsubscribe': `<${deps.link(unsubscribePath(deps.prefs, row.recipient))}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    attachments: picture ? [{ filename: 'board.png', content: picture, cid: PICTURE_CID, contentType: 'image/png' }] : [],
  }
}

/**
 * The text part ends with the mail settings, as the HTML part's footer does: under the text's own
 * signature ("-- "), or in one of its own. The turn mails and the digest carry theirs already.
 */
function withSettingsFooter(body: string, settingsLink: string): string {
  if (body.includes(settingsLink)) return body
  const text = body.trimEnd()
  return text.split('\n').includes('-- ') ? `${text}\nMail settings: ${settingsLink}\n` : `${text}\n\n-- \nBotWars. Mail settings: ${settingsLink}\n`
}

// A turn rolled back (issue 12) has no picture any more. A rollback withdraws its unsent mail
// (services/rollback.ts), but a worker of another process may already hold one: its <img> goes
// too, rather than show a broken image.
function withoutMissingPicture(html: string, picture: Buffer | null): string {
  return picture ? html : html.replace(new RegExp(`<img[^>]*src="cid:${PICTURE_CID}"[^>]*>`, 'g'), '')
}

/** The end-of-turn picture of a published turn, or null when there is none (never a draft's). */
export function pictureFromDatabase(ctx: ServiceContext, request: PictureRequest): Buffer | null {
  const game = ctx.games.byId(request.gameId)
  const turn = game && ctx.turns.byNumber(game.id, request.turn)
  if (!game || !turn || turn.status !== 'published' || !turn.result_json) return null
  const { names, colours } = reportNames(ctx.games.seats(game.id))
  return turnPicturePng(ctx.board(game), JSON.parse(turn.result_json) as TurnResult, request.player, names, colours)
}
