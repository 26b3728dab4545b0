// Small helpers the commands share: reading a JSON file or standard input, and the project root
// that relative board paths in rules cases are read from (FORMAT.md section 2).
import { readFileSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** A problem with the user's input: printed as one line, exit status 2, never a stack trace. */
export class InputError extends Error {}

export function readText(path: string): string {
  try {
    const text = path === '-' ? readFileSync(0, 'utf8') : readFileSync(path, 'utf8')
    // Some editors start UTF-8 files with a byte-order mark; JSON (RFC 8259) lets a reader ignore it.
    return text.startsWith('\uFEFF') ? text.slice(1) : text
  } catch (error) {
    throw new InputError(`cannot read ${path === '-' ? 'standard input' : path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
}

export function readJson(path: string): unknown {
  const text = readText(path)
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new InputError(`${path === '-' ? 'standard input' : path}: not valid JSON (${(error as Error).message})`)
  }
}

export function projectPath(path: string): string {
  return isAbsolute(path) ? path : resolve(PROJECT_ROOT, path)
}
