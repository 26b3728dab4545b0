// Small helpers the commands share: reading a JSON file or standard input, and the project root
// that relative board paths in rules cases are read from (FORMAT.md section 2).
import { constants } from 'node:buffer'
import { closeSync, openSync, readSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** A problem with the user's input: printed as one line, exit status 2, never a stack trace. */
export class InputError extends Error {}

/**
 * The most a file or standard input may hold: more cannot become one JavaScript string, so could not
 * be read as JSON anyway. Reading stops there, so an input that never ends (`/dev/zero`, `yes |`)
 * is refused instead of filling the memory for ever.
 */
export const MAX_INPUT_BYTES = constants.MAX_STRING_LENGTH
const CHUNK_BYTES = 1 << 20

/** Everything `fd` holds, or null if it holds more than MAX_INPUT_BYTES. */
function readAll(fd: number): Buffer | null {
  const chunks: Buffer[] = []
  let total = 0
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
    const read = readSync(fd, chunk, 0, CHUNK_BYTES, null)
    if (read === 0) return Buffer.concat(chunks, total)
    total += read
    if (total > MAX_INPUT_BYTES) return null
    chunks.push(chunk.subarray(0, read))
  }
}

export function readText(path: string): string {
  const name = path === '-' ? 'standard input' : path
  let bytes: Buffer | null
  try {
    const fd = path === '-' ? 0 : openSync(path, 'r')
    try {
      bytes = readAll(fd)
    } finally {
      if (fd !== 0) closeSync(fd)
    }
  } catch (error) {
    throw new InputError(`cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  if (!bytes) throw new InputError(`${name} is larger than ${MAX_INPUT_BYTES} bytes, more than can be read as JSON`)
  const text = bytes.toString('utf8')
  // Some editors start UTF-8 files with a byte-order mark; JSON (RFC 8259) lets a reader ignore it.
  return text.startsWith('\uFEFF') ? text.slice(1) : text
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
