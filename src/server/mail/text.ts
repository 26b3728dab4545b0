// Plain-text helpers for the text part, which must read well in a terminal: every line under 80
// columns (long words such as links are the only exception, and ours are kept short).

export const TEXT_WIDTH = 76

/** Wraps one paragraph at word boundaries to `width` columns, each line starting with `indent`. */
export function wrap(text: string, width = TEXT_WIDTH, indent = ''): string[] {
  const lines: string[] = []
  let line = indent
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.trim() !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = indent
    }
    line += line.trim() === '' ? word : ` ${word}`
  }
  if (line.trim() !== '') lines.push(line)
  return lines
}

/** "Fri 11 Jan 12:00 UTC": the weekday first, since that is what a player plans by. */
export function dueText(ms: number): string {
  const d = new Date(ms)
  const day = d.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).replace(',', '')
  return `${day} ${d.toISOString().slice(11, 16)} UTC`
}

/** A title underlined, as plain-text mail has always done it. */
export function heading(text: string): string[] {
  return [text, '='.repeat(Math.min(text.length, TEXT_WIDTH))]
}

/**
 * Any text under 80 columns: each longer line is wrapped at word boundaries, keeping its own
 * indentation. Applied when a mail is sent, so the short plain mails written as one long line per
 * sentence (and a GM's long reason in them) read well in a terminal too; a lone long word, such as
 * a link, stays whole.
 */
export function fitText(text: string): string {
  return text.split('\n').map((line) => (line.length < 80 ? line : wrap(line, TEXT_WIDTH, /^\s*/.exec(line)![0]).join('\n'))).join('\n')
}
