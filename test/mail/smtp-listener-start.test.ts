// The SMTP listener's start on a port another program holds: start-up stops with server.ts's one
// line naming INBOUND_SMTP_PORT, so the listener itself logs nothing about it (before: a warning
// with a stack trace, "inbound SMTP connection error", came first and read like a second fault).
import { createServer, type Server } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { startSmtpListener } from '../../src/server/inbound/smtp-listener.js'
import { testApp, type TestApp } from '../server/helpers.js'

let t: TestApp | undefined
let holder: Server | undefined
afterEach(async () => {
  await t?.close()
  await new Promise<void>((resolve) => (holder ? holder.close(() => resolve()) : resolve()))
})

it('refuses a port in use with EADDRINUSE and logs no warning of its own', async () => {
  t = await testApp()
  holder = createServer()
  await new Promise<void>((resolve) => holder!.listen(0, '127.0.0.1', resolve))
  const port = (holder.address() as { port: number }).port
  const warnings: string[] = []
  await expect(startSmtpListener(t.app.services, { port, host: '127.0.0.1', log: { warn: (_o, m) => { warnings.push(m) } } }))
    .rejects.toMatchObject({ code: 'EADDRINUSE' })
  expect(warnings).toEqual([])
})
