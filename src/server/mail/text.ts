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
