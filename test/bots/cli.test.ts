// `botwars simulate --bots …` and `botwars tournament`, spawned as a user runs them.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function botwars(args: string[]) {
  const result = spawnSync(process.execPath, ['bin/botwars.mjs', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })
  if (result.error) throw result.error
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('botwars simulate --bots', () => {
  const args = ['simulate', '--board', 'boards/training-floor.json', '--bots', 'greedy,greedy,random,strong', '--seed', '3', '--turns', '30']

  it('plays one bot per seat and prints the placings; the same seed plays the same game', () => {
    const run = botwars(args)
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const lines = run.stdout.trimEnd().split('\n')
    const at = lines.indexOf('placings:')
    expect(at).toBeGreaterThan(0)
    expect(lines[at - 1]).toMatch(/^(game over after turn \d+|stopped after 30 turns)/)
    const placings = lines.slice(at + 1)
    expect(placings).toHaveLength(4)
    for (const [player, bot] of [['Ann', 'greedy'], ['Bob', 'greedy'], ['Cid', 'random'], ['Dee', 'strong']]) {
      expect(placings.some((line) => new RegExp(`^  \\d\\. ${player} \\(${bot}\\): `).test(line))).toBe(true)
    }
    expect(botwars(args).stdout).toBe(run.stdout)
  })

  it('refuses an unknown bot with one line naming it, exit 2', () => {
    const run = botwars(['simulate', '--board', 'boards/training-floor.json', '--bots', 'greedy,clever', '--seed', '1'])
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr.trim()).toBe('botwars simulate: --bots: unknown bot "clever" (one of random, greedy, strong)')
  })
})

describe('botwars tournament', () => {
  it('plays seeded games over the shipped boards and prints standings', () => {
    const run = botwars(['tournament', '--bots', 'greedy,random', '--games', '4', '--seed', '10', '--turns', '40'])
    expect(run.status).toBe(0)
    const out = run.stdout
    expect(out).toMatch(/^4 games of greedy, random \(seats rotated each game\) on conveyor-works\.json, grand-factory\.json, the-foundry\.json, training-floor\.json; seeds 10 to 13/)
    const row = (name: string) => out.split('\n').find((line) => line.startsWith(`${name} `))!.trim().split(/\s+/)
    expect(row('greedy')[1]).toBe('4')
    expect(row('random')[1]).toBe('4')
    expect(out).toContain('placed above (row above column, games):')
    // The figures are the seed's: the same command prints the same standings (the time aside).
    const again = botwars(['tournament', '--bots', 'greedy,random', '--games', '4', '--seed', '10', '--turns', '40']).stdout
    expect(again.replace(/; \d+ s/, '')).toBe(out.replace(/; \d+ s/, ''))
  })

  it('needs at least two bots', () => {
    const run = botwars(['tournament', '--bots', 'greedy'])
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(/^botwars tournament: usage: botwars tournament --bots/)
  })
})
