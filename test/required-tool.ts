// A program from Debian that some tests need (Chromium, dovecot). Missing on a developer's machine,
// those tests say so loudly and skip. Missing under CI (.ci/run installs both, then runs the tests
// with CI=true), the test files that need it fail: a failed install must never give a green run
// that never ran them.
export function missingTool(what: string, install: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.CI === 'true') throw new Error(`${what}, and CI runs these tests: ${install} (.ci/run installs it)`)
  const line = '!'.repeat(78)
  console.warn(`\n${line}\n!! ${what}: THESE TESTS ARE SKIPPED.\n!! Install it: ${install}\n!! (.ci/run installs it; CI always runs these tests.)\n${line}\n`)
}
