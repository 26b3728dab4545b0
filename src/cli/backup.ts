// `botwars backup FILE [--database PATH]`: a consistent copy of a live database through SQLite's
// online backup API, safe while the server is running (it copies a snapshot page by page).
import { chmodSync, closeSync, existsSync, openSync, rmSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import Database from '../server/plugins/sqlite.js'
import { InputError } from './io.js'
import { parseCommandLine } from './options.js'

const USAGE = 'usage: botwars backup FILE [--database PATH]   (default database: $DATABASE_PATH or ./data/botwars.db)'

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message

export async function backupCommand(args: string[]): Promise<string> {
  const { options, operands } = parseCommandLine(args, ['database'], USAGE)
  const target = operands[0]
  if (!target || operands.length !== 1) throw new InputError(USAGE)
  const source = resolve(options.get('database') ?? process.env.DATABASE_PATH ?? './data/botwars.db')
  if (!existsSync(source)) throw new InputError(`no database at ${source}`)
  if (!statSync(source).isFile()) throw new InputError(`${source} is not a file, so not a database`)
  if (existsSync(target)) throw new InputError(`${target} already exists; choose a new file name`)
  const db = new Database(source, { readonly: true, fileMustExist: true })
  try {
    try {
      // SQLite reads the file only when asked something: asked now, before the backup file is made.
      db.prepare('SELECT count(*) FROM sqlite_master').get()
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === 'SQLITE_NOTADB') throw new InputError(`${source} is not a SQLite database`)
      if (code === 'SQLITE_CORRUPT') throw new InputError(`${source} is a damaged SQLite database (${(error as Error).message})`)
      throw error
    }
    try {
      // Made 0600 first, as the database is (src/server/plugins/db.ts): a backup holds every hand.
      closeSync(openSync(target, 'wx', 0o600))
    } catch (error) {
      throw new InputError(`cannot create ${target}: ${errorCode(error)}`)
    }
    try {
      await db.backup(target)
      chmodSync(target, 0o600)
    } catch (error) {
      // The file is ours (made above) and incomplete: left there, it would pass for a backup, and
      // block the next try with "already exists".
      rmSync(target, { force: true })
      throw new InputError(`cannot write the backup ${target}: ${errorCode(error)}`)
    }
  } finally {
    db.close()
  }
  return `backed up ${source} to ${resolve(target)}`
}
