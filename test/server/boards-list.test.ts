// GET /api/v1/boards reads boards/ once: the folder does not change while the server runs.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { client, tempDir, testApp } from './helpers.js'

it('lists the boards of its folder, read once', async () => {
  const boards = tempDir('botwars-boards-')
  mkdirSync(boards, { recursive: true })
  copyFileSync(new URL('../../boards/training-floor.json', import.meta.url), join(boards, 'training-floor.json'))
  const t = await testApp({ boardsDir: boards })
  try {
    const anon = client(t.app, 'x')
    const first = await anon.call('GET', '/api/v1/boards')
    expect(first.status).toBe(200)
    expect(first.json.boards.map((b: { id: string }) => b.id)).toEqual(['training-floor'])
    copyFileSync(new URL('../../boards/the-foundry.json', import.meta.url), join(boards, 'the-foundry.json'))
    const second = await anon.call('GET', '/api/v1/boards')
    expect(second.json).toEqual(first.json)
  } finally {
    await t.close()
    rmSync(boards, { recursive: true, force: true })
  }
})
