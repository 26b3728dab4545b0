// A hostile or careless user at the `botwars` command line (a review of 2026-11-29): asking for
// help, options mistyped, repeated or at odds, output that cannot be written, input that never ends.
// Each is answered on one line with a meaningful exit status, never a stack trace or a stray file.
import { spawn } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import Database from '../../src/server/plugins/sqlite.js'
import { botwars, expectOneLineError, ROOT, STACK_LINE } from './botwars.js'

const TMP = mkdtempSync(join(tmpdir(), 'botwars-hostile-'))
afterAll(() => rmSync(TMP, { recursive: true, force: true }))

const BOARD = 'boards/training-floor.json'
const simulate = (...extra: string[]) => ['simulate', '--board', BOARD, '--turns', '2', ...extra]

describe('botwars --help', () => {
  it.each([[['--help']], [['help']], [['-h']]])('%j prints the usage on standard output and exits 0', (args) => {
    const run = botwars(args)
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    for (const command of ['resolve', 'simulate', 'tournament', 'board check', 'board show', 'backup']) expect(run.stdout).toContain(`botwars ${command}`)
  })

  it.each(['resolve', 'simulate', 'tournament', 'board', 'backup'])('botwars %s --help prints that command\'s usage and exits 0', (command) => {
    const run = botwars([command, '--help'])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(new RegExp(`^usage:\\n  botwars ${command} `))
    // Only that command's lines: every other line is indented under them.
    expect(run.stdout.split('\n').filter((line) => line.startsWith('  botwars ') && !line.startsWith(`  botwars ${command} `))).toEqual([])
  })

  it('board show --help reads no file named --help, and backup --help writes none', () => {
    // Found by this review: `backup --help` copied the database to a new file named "--help".
    const db = join(TMP, 'help.db')
    new Database(db).close()
    const board = botwars(['board', 'show', '--help'], { cwd: TMP })
    expect(board.status).toBe(0)
    const backup = botwars(['backup', '--help'], { cwd: TMP, env: { DATABASE_PATH: db } })
    expect(backup.status).toBe(0)
    expect(backup.stdout).toMatch(/^usage:/)
    expect(existsSync(join(TMP, '--help'))).toBe(false)
  })
})

describe('botwars simulate and tournament options', () => {
  it.each([
    ['an unknown option', simulate('--players', '2', '--seed', '1', '--colour', 'red'), /unknown option --colour/],
    ['an option given twice', simulate('--players', '2', '--seed', '1', '--seed', '2'), /--seed is given twice/],
    ['--players with --bots', simulate('--players', '2', '--bots', 'greedy,random', '--seed', '1'), /--players.*--bots|--bots.*--players/],
    ['a blank seed', simulate('--players', '2', '--seed', ''), /--seed must be a whole number .* not ""/],
    ['a seed in hex', simulate('--players', '2', '--seed', '0x10'), /--seed must be a whole number .* not "0x10"/],
    ['an option with no value', simulate('--players', '2', '--seed'), /--seed needs a value/],
    ['an option whose value is the next option', ['simulate', '--board', '--players', '2', '--seed', '1'], /--board needs a value/],
    ['a tournament option unknown', ['tournament', '--bots', 'random,random', '--games', '1', '--rounds', '3'], /unknown option --rounds/],
  ])('simulate refuses %s, naming the option', (_what, args, message) => {
    expect(expectOneLineError(botwars(args))).toMatch(message)
  })

  it('names an empty entry of --boards', () => {
    const run = botwars(['tournament', '--bots', 'random,random', '--games', '1', '--boards', `${BOARD},,${BOARD}`])
    expect(expectOneLineError(run)).toMatch(/--boards: board 2 of 3 is empty/)
  })

  it('tells the seeds a tournament played when they run past the largest seed and wrap', () => {
    // The header said "seeds 2147483647 to 2147483648": no such seed can be given to simulate.
    const run = botwars(['tournament', '--bots', 'random,random', '--games', '2', '--turns', '1', '--seed', '2147483647', '--boards', BOARD])
    expect(run.status).toBe(0)
    expect(run.stdout.split('\n')[0]).toContain('seeds 2147483647 to 2147483647, then -2147483648 to -2147483648;')
  })

  it('reads --seed=7 as --seed 7', () => {
    const joined = botwars(simulate('--players', '2', '--seed=7'))
    expect(joined.stderr).toBe('')
    expect(joined.status).toBe(0)
    expect(joined.stdout).toBe(botwars(simulate('--players', '2', '--seed', '7')).stdout)
  })
})

describe('botwars backup, refused', () => {
  const source = join(TMP, 'live.db')
  new Database(source).close()
  const leftInTmp = () => readdirSync(TMP).filter((name) => name.startsWith('copy'))

  it.each([
    ['--database with no path', ['--database'], /--database needs a value/],
    ['a database that is a folder', ['--database', TMP], /is not a file/],
    ['a database that is no SQLite file', ['--database', join(ROOT, 'package.json')], /package\.json is not a SQLite database/],
    ['an unknown option', ['--database', source, '--force'], /unknown option --force/],
  ])('%s: exit 2, one line, and no backup file left behind', (_what, extra, message) => {
    const target = join(TMP, 'copy.db')
    expect(expectOneLineError(botwars(['backup', target, ...extra]))).toMatch(message)
    expect(leftInTmp()).toEqual([])
  })

  it('removes the backup file it made when the copy then fails', () => {
    // SQLite cannot make the backup's journal where a folder has its name, so the copy fails after
    // the (empty) backup file is made; it was left behind, passing for a backup.
    const target = join(TMP, 'copy-midway.db')
    mkdirSync(`${target}-journal`)
    expect(expectOneLineError(botwars(['backup', target, '--database', source]))).toMatch(/cannot write the backup .*copy-midway\.db/)
    expect(existsSync(target)).toBe(false)
    rmSync(`${target}-journal`, { recursive: true })
  })

  it('names the backup file it cannot create', () => {
    const target = join(TMP, 'no-such-folder', 'copy.db')
    expect(expectOneLineError(botwars(['backup', target, '--database', source]))).toMatch(/cannot create .*no-such-folder\/copy\.db: ENOENT/)
  })
})

describe('botwars output and input that fail', () => {
  it('answers a full disk under its output in one line with exit 1, no stack trace', () => {
    const full = openSync('/dev/full', 'w')
    try {
      const run = botwars(['board', 'show', BOARD], { stdout: full })
      expect(run.status).toBe(1)
      expect(run.stderr).not.toMatch(STACK_LINE)
      expect(run.stderr).toMatch(/^botwars board: cannot write standard output: ENOSPC\n$/)
    } finally {
      closeSync(full)
    }
  })

  it('stops quietly when the reader of its output goes away (a pipe into head)', async () => {
    const name = 'N'.repeat(4_000_000)
    const kase = JSON.stringify({
      board: { rows: 5, cols: 5, start: { at: 'r1c1' } },
      robots: [{ player: name, at: 'r2c1', program: ['FWD3:800', 'RT90:80', 'FWD1:500', 'UTRN:10', 'LF90:70'] }],
    })
    const child = spawn(process.execPath, [join(ROOT, 'bin/botwars.mjs'), 'resolve', '-'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (text: string) => { stderr += text })
    // The first chunk is far less than the output: closing the pipe then leaves the rest unwritable.
    child.stdout.once('data', () => child.stdout.destroy())
    child.stdin.end(kase)
    const status = await new Promise<number | null>((done) => child.on('close', (code) => done(code)))
    expect(stderr).toBe('')
    expect(status).toBe(1)
  })

  it('refuses input that never ends (/dev/zero) instead of reading it for ever', () => {
    const line = expectOneLineError(botwars(['board', 'check', '/dev/zero']))
    expect(line).toMatch(/^botwars board: \/dev\/zero is larger than \d+ bytes/)
  })
})

describe('names from a hostile file', () => {
  // A board's or a player's name is printed as the file wrote it: control characters in it (an
  // escape sequence that recolours, clears or retitles the terminal) reached the user's terminal.
  const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/
  const board = JSON.parse(readFileSync(join(ROOT, BOARD), 'utf8')) as Record<string, unknown>

  it('reach the terminal as escapes, never as control characters, and JSON still reads back the same', () => {
    const name = 'Evil\u001b]0;pwned\u0007\u001b[2J\u009b31m board'
    const file = join(TMP, 'evil-board.json')
    writeFileSync(file, JSON.stringify({ ...board, name }))
    for (const args of [['board', 'show', file], ['board', 'check', file]]) {
      const run = botwars(args)
      expect(run.status, args.join(' ')).toBe(0)
      expect(run.stdout, args.join(' ')).not.toMatch(CONTROL)
    }
    // JSON escapes C0 controls itself, but writes C1 ones (U+009B, a one-character CSI) as they are.
    const kase = JSON.parse(readFileSync(join(ROOT, 'test/cases/R26-beam-stops-at-first-real-robot.json'), 'utf8')) as { robots: { player: string }[] }
    kase.robots[0]!.player = 'Ann\u009b2J'
    const resolved = botwars(['resolve', '-'], { input: JSON.stringify(kase) })
    expect(resolved.status).toBe(0)
    expect(resolved.stdout).not.toMatch(CONTROL)
    expect(JSON.parse(resolved.stdout).robots[0].player).toBe('Ann\u009b2J')
  })
})
