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
const LANDMARK_RULES = ['landmark-unique', 'landmark-no-duplicate-banner', 'landmark-no-duplicate-contentinfo', 'landmark-no-duplicate-main']

interface AxeNode { target: string[]; failureSummary?: string; html: string }
interface AxeRule { id: string; impact: string | null; help: string; nodes: AxeNode[] }
interface AxeResults { violations: AxeRule[]; passes: AxeRule[]; incomplete: AxeRule[]; inapplicable: AxeRule[] }

/** The WCAG 2.1 A/AA violations axe finds on the page as it is now, one readable line per node. */
export async function axeViolations(page: Page): Promise<{ lines: string[]; ran: string[] }> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SCRIPT })
  const results = await page.evaluate(async ({ tags, landmarkRules: LANDMARK_RULES }) => {
    const axe = (window as unknown as { axe: { getRules(tags: string[]): { ruleId: string }[]; run(context: unknown, options: unknown): Promise<AxeResults> } }).axe
    // Every rule of those tags; label-content-name-mismatch (WCAG 2.5.3) is marked experimental in
    // axe, which leaves it out of a run by tags, so the rules are named one by one. The landmark
    // rules are axe's "best practice" (issue 16: landmarks have distinct names), named here too.
    const rules = [...new Set([...axe.getRules(tags).map((r) => r.ruleId), 'label-content-name-mismatch', ...LANDMARK_RULES])]
    return axe.run(document, { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations'] })
  }, { tags: WCAG_TAGS, landmarkRules: LANDMARK_RULES }) as AxeResults
  const lines = results.violations.flatMap((rule) => rule.nodes.map((node) =>
    `${rule.id} (${rule.impact}): ${rule.help} — ${node.target.join(' ')}: ${(node.failureSummary ?? '').replace(/\s+/g, ' ')} ${node.html.slice(0, 160)}`))
  const ran = [...results.violations, ...results.passes, ...results.incomplete, ...results.inapplicable].map((r) => r.id)
  return { lines, ran }
}

const LANDMARK = /^\s*- (banner|navigation|main|complementary|contentinfo|region|search|form)(?: "((?:[^"\\]|\\.)*)")?(?::|$)/

/**
 * The page's landmarks as Chromium's accessibility tree has them (role and accessible name), and
 * what is wrong with their names (issue 16): landmarks of one role that a screen reader's list
 * cannot tell apart (two without a name, or two with the same name), and a navigation, aside or
 * region without a name.
 */
export async function landmarkProblems(page: Page): Promise<{ problems: string[]; landmarks: string[] }> {
  const tree = await page.locator('body').ariaSnapshot()
  const found = tree.split('\n').flatMap((line) => {
    const m = LANDMARK.exec(line)
    return m ? [{ role: m[1]!, name: (m[2] ?? '').replace(/\\(.)/g, '$1').trim() }] : []
  })
  const problems: string[] = []
  const byRole = new Map<string, string[]>()
  for (const l of found) byRole.set(l.role, [...(byRole.get(l.role) ?? []), l.name])
  for (const [role, names] of byRole) {
    const needsName = names.length > 1 || role === 'navigation' || role === 'complementary' || role === 'region'
    if (needsName && names.some((n) => !n)) problems.push(`a ${role} landmark has no name (${names.length} on the page: ${names.map((n) => JSON.stringify(n)).join(', ')})`)
    const seen = new Set<string>()
    for (const name of names.filter(Boolean)) {
      const key = name.toLowerCase()
      if (seen.has(key)) problems.push(`two ${role} landmarks are both named "${name}"`)
      seen.add(key)
    }
  }
  return { problems, landmarks: found.map((l) => `${l.role} "${l.name}"`) }
}
