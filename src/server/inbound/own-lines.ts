// Which lines of a reply the sender wrote, top- or bottom-posted, in any language: lines starting
// with ">" are skipped wherever they are (so a program below an "On … wrote:" quote is read), and
// reading ends where an unmarked quote or a signature begins: "-- ", a separator of dashes around
// words ("-----Messaggio originale-----"), a rule (an HTML reply's <hr>, made text), an "On … wrote:"
// attribution whose quote is not marked with ">", a quoted mail's header block ("Van: …" / "Verzonden: …",
// "De : …" / "Envoyé : …"), or a line only a server mail contains (TURN_MAIL_LINES, ANSWER_MAIL_LINES, GM_MAIL_LINES:
// the server knows what it sent, in its text part and its HTML part). Outlook quotes without ">",
// and the turn mail's hand and example program, and the confirmation's stored program, are the
// player's own cards: read, they would pass every check and be stored as a program the player never chose.
import { GM_MAIL_LINES } from '../mail/gm-templates.js'
import { TURN_MAIL_LINES } from '../mail/turn-mail.js'
import { ANSWER_MAIL_LINES } from './answers.js'

/** Single lines after which nothing is the sender's own (the English and a few common forms). */
const QUOTE_STARTS = [
  /^-- ?$/, /^-{2,}\s*(original message|forwarded message)/i, /^_{10,}$/, /^(from|von|de|van|da) ?:\s/i, /^sent from my /i,
]
/** A separator of dashes around words, any language: "-----Message d'origine-----". */
const SEPARATOR = /^-{2,}[^-\d]*\p{L}[^-\d]*-{2,}$/u
/** A rule: how an HTML reply's <hr> above the quoted mail reads as text (mailparser makes it 80 dashes). */
const RULE = /^[-_=]{20,}$/

/**
 * The verb of an attribution line, "On <date>, <name> wrote:", in the languages mail programs are
 * commonly set to; the line also holds a digit (its date or time), which a sender's own "as I
 * wrote:" does not. Thunderbird wraps a long one onto two lines: this is the line that ends it.
 */
const ATTRIBUTION = /\d.*(?:^|[\s,])(?:wrote|schrieb|a écrit|escribió|escreveu|ha scritto|schreef|skrev|kirjoitti|napisał|pisze|napsal|написал|написала|yazdı|έγραψε|írta|写道|のメッセージ|작성)[^:：]*[:：]$/iu
/** The attribution of languages whose mail programs write no verb: "<date> Ann <ann@example.org>:". */
const ATTRIBUTION_BY_ADDRESS = /\d.*<[^<>\s]+@[^<>\s]+>\s?[:：]$/u

/**
 * The names mail programs give the headers of the mail they quote (From, Sent, Date, To, Cc,
 * Subject) in the languages they are commonly set to. Only these make a header block: a reply's
 * own "Note: bring snacks" / "Plan: go left" have the same shape and are the sender's.
 */
const QUOTED_HEADER_NAMES: ReadonlySet<string> = new Set([
  'from', 'sent', 'date', 'to', 'cc', 'bcc', 'subject', 'reply-to', // English
  'von', 'gesendet', 'datum', 'an', 'betreff', 'antwort an', // German
  'de', 'envoyé', 'à', 'a', 'objet', 'répondre à', // French
  'enviado', 'enviado el', 'enviado em', 'enviada em', 'fecha', 'data', 'para', 'asunto', 'assunto', 'responder a', // Spanish, Portuguese
  'da', 'inviato', 'oggetto', // Italian
  'van', 'verzonden', 'aan', 'onderwerp', // Dutch
  'från', 'skickat', 'till', 'kopia', 'ämne', 'fra', 'sendt', 'dato', 'til', 'kopi', 'emne', // Swedish, Danish, Norwegian
  'lähettäjä', 'lähetetty', 'päivämäärä', 'vastaanottaja', 'kopio', 'aihe', // Finnish
  'od', 'wysłano', 'do', 'dw', 'temat', 'odesláno', 'komu', 'kopie', 'předmět', // Polish, Czech
  'от', 'отправлено', 'дата', 'кому', 'копия', 'тема', 'від', 'надіслано', // Russian, Ukrainian
  'kimden', 'gönderildi', 'tarih', 'kime', 'bilgi', 'konu', // Turkish
  'feladó', 'küldve', 'dátum', 'címzett', 'tárgy', 'από', 'στάλθηκε', 'ημερομηνία', 'προς', 'θέμα', // Hungarian, Greek
  '差出人', '送信日時', '日付', '宛先', '件名', '发件人', '发送时间', '日期', '收件人', '抄送', '主题', // Japanese, Chinese
  '寄件者', '寄件日期', '收件者', '副本', '主旨', '보낸 사람', '보낸 날짜', '받는 사람', '참조', '제목', '날짜', // Chinese (traditional), Korean
])
/** "Name: value", "Name : value", "Name：value" (full-width colon), or "*Name:* value" (bold made text). */
const HEADER_NAME = /^\*{0,2}([^:：*]{1,30}?)\*{0,2}\s?[:：]\*{0,2}(?:\s|$)/u
const MAX_LINES = 2000

/**
 * The lines the sender wrote, trimmed, with their line numbers: not ">" quoted, and up to where a
 * quote or signature begins; and that line (`endedAt`), or null when the mail ran to its end.
 */
export function ownLines(text: string): { lines: { line: string; index: number }[]; endedAt: string | null } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n').slice(0, MAX_LINES).map((raw) => raw.replace(/[\u00a0\u200b]/g, ' ').trim())
  const own: { line: string; index: number }[] = []
  for (const [index, line] of lines.entries()) {
    if (line.startsWith('>')) continue
    const ended = QUOTE_STARTS.some((p) => p.test(line)) || SEPARATOR.test(line) || RULE.test(line) || isServerMailLine(line) ||
      // An attribution over a quote marked with ">" is skipped (a program may follow the quote); over an unmarked one, the quote begins.
      (isAttribution(lines, index) && !lines.slice(index + 1).find((next) => next !== '')?.startsWith('>')) ||
      // Two header lines in a row: one alone ("To: the GM") may be the sender's own.
      (isQuotedHeaderLine(line) && isQuotedHeaderLine(lines[index + 1] ?? ''))
    if (ended) return { lines: own, endedAt: line }
    own.push({ line, index })
  }
  return { lines: own, endedAt: null }
}

function isAttribution(lines: readonly string[], index: number): boolean {
  const line = lines[index]!
  const attribution = (text: string) => ATTRIBUTION.test(text) || ATTRIBUTION_BY_ADDRESS.test(text)
  return attribution(line) || (index > 0 && lines[index - 1] !== '' && attribution(`${lines[index - 1]} ${line}`))
}

function isQuotedHeaderLine(line: string): boolean {
  const name = HEADER_NAME.exec(line)?.[1]?.trim().toLowerCase()
  return name !== undefined && QUOTED_HEADER_NAMES.has(name)
}

/**
 * Compared without case, punctuation or numbers, so a line rewrapped by the answering mail
 * program (the start of a sentence, six words or more), or rendered from the HTML part in capitals, still counts.
 */
const comparable = (line: string) => line.toLowerCase().replace(/\d+/g, '#').replace(/[^\p{L}\p{N}#]+/gu, ' ').trim()
const SERVER_MAIL_COMPARABLE = [...TURN_MAIL_LINES, ...ANSWER_MAIL_LINES, ...GM_MAIL_LINES].map(comparable)

function isServerMailLine(line: string): boolean {
  const own = comparable(line)
  return SERVER_MAIL_COMPARABLE.some((fixed) => own.startsWith(fixed) || (fixed.startsWith(own) && own.split(' ').length >= 6))
}
