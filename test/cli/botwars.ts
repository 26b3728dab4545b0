// Spawns the real `botwars` command as a user runs it, and judges its refusals: exit status 2, one
// line on standard error, no stack trace. Shared by the test files of test/cli.
import { spawnSync, type StdioOptions } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface Run { status: number | null; stdout: string; stderr: string }

export interface RunOptions {
  /** Standard input's text. */
  input?: string
  /** Variables added to the environment. */
  env?: Record<string, string>
  /** Where standard output goes, if not to a pipe the test reads (a file descriptor). */
  stdout?: number
  cwd?: string
}

export function botwars(args: string[], options: RunOptions = {}): Run {
  const stdio: StdioOptions = ['pipe', options.stdout ?? 'pipe', 'pipe']
  const result = spawnSync(process.execPath, [`${ROOT}/bin/botwars.mjs`, ...args], {
    cwd: options.cwd ?? ROOT, input: options.input, encoding: 'utf8', timeout: 60_000, stdio,
    env: options.env ? { ...process.env, ...options.env } : process.env,
  })
  if (result.error) throw result.error
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr }
}

/** A line like `    at main (file:///…/main.ts:12:5)` or `    at file.ts:3:7`. */
export const STACK_LINE = /^\s+at\s.*:\d+:\d+\)?$/m

/** Expects a refusal of bad input (exit 2, one line, no stack trace) and returns its line. */
export function expectOneLineError(run: Run): string {
  expect(run.status).toBe(2)
  expect(run.stdout).toBe('')
  expect(run.stderr).not.toMatch(STACK_LINE)
  const lines = run.stderr.trimEnd().split('\n')
  expect(lines).toHaveLength(1)
  return lines[0]!
}
