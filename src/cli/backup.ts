// `botwars backup FILE [--database PATH]`: a consistent copy of a live database through SQLite's
// online backup API, safe while the server is running (it copies a snapshot page by page).
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs'
import { resolve } from 'node:path'
import Database from '../server/plugins/sqlite.js'
import { InputError } from './io.js'

export async function backupCommand(args: string[]): Promise<string> {
  const at = args.indexOf('--database')
  const source = resolve(at >= 0 ? args[at + 1] ?? '' : process.env.DATABASE_PATH ?? './data/botwars.db')
  // Without --database, at is -1: filtering by it would drop the first argument, the FILE.
  const rest = at < 0 ? args : args.filter((_, i) => i !== at && i !== at + 1)
  const target = rest[0]
  if (!target || rest.length !== 1) throw new InputError('usage: botwars backup FILE [--database PATH]   (default database: $DATABASE_PATH or ./data/botwars.db)')
  if (!existsSync(source)) throw new InputError(`no database at ${source}`)
  if (existsSync(target)) throw new InputError(`${target} already exists; choose a new file name`)
  const db = new Database(source, { readonly: true, fileMustExist: true })
  try {
    // Made 0600 first, as the database is (src/server/plugins/db.ts): a backup holds every hand.
    closeSync(openSync(target, 'wx', 0o600))
    await db.backup(target)
    chmodSync(target, 0o600)
  } finally {
    db.close()
  }
  return `backed up ${source} to ${resolve(target)}`
}
