/// <reference lib="dom" />
// axe-core in the browser tests: the library's own script (from node_modules, never the network)
// is added to the page and run against WCAG 2.1 A and AA. Pages keep their Content-Security-Policy
// for everything else; the test context only lets this one injected script run (harness.ts, `axe`).
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Page } from 'playwright-core'

const require = createRequire(import.meta.url)
export const AXE_SCRIPT = join(dirname(require.resolve('axe-core')), 'axe.min.js')

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

interface AxeNode { target: string[]; failureSummary?: string; html: string }
interface AxeRule { id: string; impact: string | null; help: string; nodes: AxeNode[] }
interface AxeResults { violations: AxeRule[]; passes: AxeRule[]; incomplete: AxeRule[]; inapplicable: AxeRule[] }

/** The WCAG 2.1 A/AA violations axe finds on the page as it is now, one readable line per node. */
export async function axeViolations(page: Page): Promise<{ lines: string[]; ran: string[] }> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SCRIPT })
  const results = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { getRules(tags: string[]): { ruleId: string }[]; run(context: unknown, options: unknown): Promise<AxeResults> } }).axe
    // Every rule of those tags; label-content-name-mismatch (WCAG 2.5.3) is marked experimental in
    // axe, which leaves it out of a run by tags, so the rules are named one by one.
    const rules = [...new Set([...axe.getRules(tags).map((r) => r.ruleId), 'label-content-name-mismatch'])]
    return axe.run(document, { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations'] })
  }, WCAG_TAGS) as AxeResults
  const lines = results.violations.flatMap((rule) => rule.nodes.map((node) =>
    `${rule.id} (${rule.impact}): ${rule.help} — ${node.target.join(' ')}: ${(node.failureSummary ?? '').replace(/\s+/g, ' ')} ${node.html.slice(0, 160)}`))
  const ran = [...results.violations, ...results.passes, ...results.incomplete, ...results.inapplicable].map((r) => r.id)
  return { lines, ran }
}
