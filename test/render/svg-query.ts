// A tiny SVG reader for the picture tests: finds elements by tag and class and reads their
// attributes, and checks that tags are balanced. Enough for the SVG that src/render writes
// (no CDATA, no comments, attributes always double-quoted); no dependencies.

export interface Found {
  tag: string
  attrs: Record<string, string>
  /** The element's markup, from its start tag to its matching end tag. */
  outer: string
}

const TAG = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>/g
const ATTR = /([\w:-]+)="([^"]*)"/g

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const m of text.matchAll(ATTR)) out[m[1]!] = m[2]!
  return out
}

/** Every element, in document order. */
export function allElements(svg: string): Found[] {
  const found: Found[] = []
  const open: { tag: string; attrs: Record<string, string>; start: number; index: number }[] = []
  for (const m of svg.matchAll(TAG)) {
    const [whole, closing, tag, attrText, selfClosing] = m
    const at = m.index!
    if (closing) {
      const top = open.pop()
      if (!top || top.tag !== tag) throw new Error(`unbalanced </${tag}> at ${at}`)
      found[top.index] = { tag: top.tag, attrs: top.attrs, outer: svg.slice(top.start, at + whole.length) }
    } else if (selfClosing) {
      found.push({ tag: tag!, attrs: attributes(attrText ?? ''), outer: whole })
    } else {
      open.push({ tag: tag!, attrs: attributes(attrText ?? ''), start: at, index: found.length })
      found.push({ tag: tag!, attrs: {}, outer: '' })
    }
  }
  if (open.length > 0) throw new Error(`unclosed <${open[open.length - 1]!.tag}>`)
  return found
}

/** Elements whose class list holds every given class. */
export function byClass(svg: string, ...classes: string[]): Found[] {
  return allElements(svg).filter((e) => {
    const list = (e.attrs.class ?? '').split(/\s+/)
    return classes.every((c) => list.includes(c))
  })
}

export function one(svg: string, ...classes: string[]): Found {
  const list = byClass(svg, ...classes)
  if (list.length !== 1) throw new Error(`expected one .${classes.join('.')}, found ${list.length}`)
  return list[0]!
}

/** The x and y of a `translate(x y)` transform. */
export function translation(found: Found): { x: number; y: number } {
  const m = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(found.attrs.transform ?? '')
  if (!m) throw new Error(`no translate on <${found.tag} class="${found.attrs.class}">`)
  return { x: Number(m[1]), y: Number(m[2]) }
}

/** The text content of every <text> inside some markup, entities left as written. */
export function texts(markup: string): string[] {
  return [...markup.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!)
}
