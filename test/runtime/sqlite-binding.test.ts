// Which better-sqlite3 the running Node.js gets (src/server/plugins/sqlite.ts): 13.x on the supported
// lines, 22 and 24; the older 12.x binding only on Node.js 20, whose Node-API cannot load 13.x.
// A direct import of 'better-sqlite3' would load 13.x on Node.js 20 and crash the process there, so
// every import goes through the one module.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import Database from '../../src/server/plugins/sqlite.js'

const ROOT = join(import.meta.dirname, '..', '..')
const require = createRequire(import.meta.url)

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|js|mjs)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
}

describe('the SQLite binding', () => {
  it('is better-sqlite3 13 on Node.js 22 and 24 (12 on Node.js 20), and works', () => {
    const major = Number(process.versions.node.split('.')[0])
    const expected = major >= 22 ? require('better-sqlite3/package.json').version : require('better-sqlite3-node20/package.json').version
    expect(expected).toMatch(major >= 22 ? /^13\./ : /^12\./)
    const db = new Database(':memory:')
    try {
      expect(db.prepare('SELECT 1 + 1 AS two').get()).toEqual({ two: 2 })
    } finally {
      db.close()
    }
  })

  it('is imported only through src/server/plugins/sqlite.ts', () => {
    const direct = ['src', 'test', 'bench', 'scripts', 'bin'].flatMap(sourceFiles)
      .filter((file) => !file.endsWith(join('plugins', 'sqlite.ts')))
      .filter((file) => /^\s*import\s+(?!type\b)[^;]*from\s+['"]better-sqlite3(-node20)?['"]|require\(['"]better-sqlite3(-node20)?['"]/m.test(readFileSync(file, 'utf8')))
    expect(direct).toEqual([])
  })
})
