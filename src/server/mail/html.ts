// The HTML part of every mail: an EJS template inside one layout, with the stylesheet inlined
// into style attributes by juice (mail clients drop or ignore <style> blocks). Mails that have
// only a text part get an HTML part made from it (paragraphs, clickable links).
import ejs from 'ejs'
import juice from 'juice'
import { readFileSync } from 'node:fs'

const read = (name: string) => readFileSync(new URL(`./html/${name}`, import.meta.url), 'utf8')
const css = (name: string) => read(name).replace(/\/\*[\s\S]*?\*\//g, '')

// Inline everything, keep nothing that needs a <style> block (no media queries, pseudo-classes,
// fonts). juice leaves EJS tags alone (its codeBlocks), so each template is inlined once, when
// the server starts, and EJS fills the inlined template for each mail: inlining every message
// took 10 ms of a busy core, and sign-in mails come in bursts.
const JUICE_OPTIONS: juice.Options = {
  removeStyleTags: true, preserveMediaQueries: false, preserveFontFaces: false, preserveKeyFrames: false, preservePseudos: false,
  insertPreservedExtraCss: false, inlinePseudoElements: false, resolveCSSVariables: false, applyWidthAttributes: false,
  applyHeightAttributes: false, applyAttributesTableElements: false,
}
const inlined = (template: string, sheet: string) => ejs.compile(juice(`<style>${sheet}</style>${read(template)}`, JUICE_OPTIONS))

const BASE = css('base.css')
const layout = inlined('layout.ejs', BASE)
const templates = {
  plain: inlined('plain.ejs', BASE),
  turn: inlined('turn.ejs', BASE + css('turn.css')),
}

export type HtmlTemplate = keyof typeof templates

/** A whole HTML document, styles inlined, no <style> or <script> left. */
export function mailHtml(template: HtmlTemplate, subject: string, settingsLink: string, data: Record<string, unknown>): string {
  return layout({ subject, content: templates[template](data), settingsLink })
}

const URL_PATTERN = /(https?:\/\/[^\s<>"]+)/g

/**
 * A block laid out in columns (a standings table, a hand three cards a line): a line holding a run
 * of spaces between words. Drawn as <pre>, since HTML would fold the spaces and the columns with
 * them. Prose merely indented (a story line a robot) stays a paragraph, free to wrap on a phone.
 */
const isLaidOut = (lines: readonly string[]) => lines.some((line) => /\S {2,}\S/.test(line))

const isRule = (line: string) => /^(=+|-+)$/.test(line) && line.length >= 3

/** The settings link, and what announces it, taken out of a signature line: the layout's footer carries it. */
const withoutSettingsLink = (line: string, settingsLink: string) =>
  line.replace(settingsLink, '').replace(/\s*(Mail settings|Change it):\s*$/, '').trim()

/**
 * The HTML part of a text-only mail: its paragraphs, line breaks kept, links clickable, blocks laid
 * out in columns kept as they are. The text's signature (after its last "-- " line) becomes the
 * last paragraph, without the settings link the layout's own footer gives.
 */
export function htmlFromText(subject: string, text: string, settingsLink: string): string {
  const lines = text.trimEnd().split('\n')
  const signatureAt = lines.lastIndexOf('-- ')
  const body = signatureAt < 0 ? lines : lines.slice(0, signatureAt)
  const signature = signatureAt < 0 ? [] : lines.slice(signatureAt + 1).map((line) => withoutSettingsLink(line, settingsLink)).filter((line) => line !== '' && line !== 'BotWars.')
  const blocks = [...body.join('\n').trim().split(/\n\s*\n/).map((block) => block.split('\n')), ...(signature.length ? [signature] : [])]
  const paragraphs = blocks.map((block) => ({
    laidOut: isLaidOut(block),
    // A title underlined with "===" or "---" (text.ts heading(), a digest's parts) is made bold, its rule dropped.
    lines: block.flatMap((line, i) => (isRule(line) ? [] : [{
      strong: isRule(block[i + 1] ?? ''),
      pieces: line.split(URL_PATTERN).filter((piece) => piece !== '').map((piece) => ({ text: piece, link: /^https?:\/\//.test(piece) })),
    }])),
  }))
  return mailHtml('plain', subject, settingsLink, { paragraphs })
}
