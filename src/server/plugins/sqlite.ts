// better-sqlite3 for the Node.js that runs us. Import Database from here, never from 'better-sqlite3'.
//
// On the supported lines, Node.js 22 and 24 (package.json "engines", both tested by .ci/run), it is
// better-sqlite3 13 (a Node-API binding shipped built: no compiler, no install script). 12.x and
// older abort the process on Node.js 24 when the garbage collector finalizes a statement outside
// JavaScript (`RemoveEnvironmentCleanupHook … Assertion failed`). 13.x in turn cannot be loaded by
// Node.js 20 (it needs a newer Node-API; the process dies in napi_module_register_by_symbol).
// Node.js 20 is past its end of life and not supported (README), but it is still the default on the
// machine this project is developed on; there, and only there, the optional package
// `better-sqlite3-node20` (better-sqlite3 12.11.1, built at install) is loaded instead. Both have
// the same API for everything this project uses.
import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

const require = createRequire(import.meta.url)
const major = Number(process.versions.node.split('.')[0])

/** The package loaded, as a resolved file: a worker thread loads the very same one (plugins/checkpointer.ts). */
export const SQLITE_MODULE_PATH = require.resolve(major >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20')

const Database = require(SQLITE_MODULE_PATH) as typeof BetterSqlite3

// The types, as `Database.Database` and `Database.Statement` like better-sqlite3's own.
declare namespace Database {
  type Database = BetterSqlite3.Database
  type Statement<P extends unknown[] | {} = unknown[], R = unknown> = BetterSqlite3.Statement<P, R>
  type Options = BetterSqlite3.Options
}

export default Database
