// Bad configuration is refused by loadConfig with a ConfigError naming the variable (README,
// "Configuration"). Found by a hostile review: these were accepted, and broke mail or links silently,
// or failed later with a stack trace.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/server/config.js'

const dir = mkdtempSync(join(tmpdir(), 'botwars-config-'))
const base = { DATABASE_PATH: join(dir, 'data', 'botwars.db') }

function refused(env: Record<string, string>, name: string) {
  let error: unknown = null
  try { loadConfig({ ...base, ...env }) } catch (e) { error = e }
  expect(error, `${JSON.stringify(env)} was accepted`).toBeInstanceOf(ConfigError)
  expect((error as Error).message).toContain(name)
}

describe('loadConfig refuses what would silently break the server', () => {
  // nodemailer reads "smtp://" as no host: it sends to localhost:587, every mail is retried for three days.
  it('SMTP_URL without a host', () => refused({ SMTP_URL: 'smtp://' }, 'SMTP_URL'))
  it('SMTP_URL without //', () => refused({ SMTP_URL: 'smtp:mail.example.org' }, 'SMTP_URL'))
  // ctx.link = BASE_URL + path: "https://play.example.org/?a=1#x/auth/link?token=…" is a dead link.
  it('BASE_URL with a query or fragment', () => refused({ BASE_URL: 'https://play.example.org/?a=1#x' }, 'BASE_URL'))
  it('BASE_URL with user:password', () => refused({ BASE_URL: 'https://u:p@play.example.org' }, 'BASE_URL'))
  // pino throws "default level:verbose must be included in custom levels" from buildApp, with a stack trace.
  it('LOG_LEVEL that pino does not know', () => refused({ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'))
  // listen() later fails with getaddrinfo ENOTFOUND and a stack trace.
  it('HOST with a port in it', () => refused({ HOST: 'localhost:3000' }, 'HOST'))
  // mkdirSync throws a raw EEXIST/ENOTDIR Error (not a ConfigError): server.ts rethrows it as a stack trace.
  it('DATABASE_PATH whose folder cannot be created', () => {
    writeFileSync(join(dir, 'a-file'), '')
    refused({ DATABASE_PATH: join(dir, 'a-file', 'botwars.db') }, 'DATABASE_PATH')
  })
  // zod said "Invalid URL" of ftp://play.example.org, a good URL: the operator could not tell what was wrong.
  it('a URL of the wrong kind, saying which kinds it takes', () => {
    refused({ BASE_URL: 'ftp://play.example.org' }, 'BASE_URL: must be an http:// or https:// address')
    refused({ SMTP_URL: 'http://mail.example.org' }, 'SMTP_URL: must be an smtp:// or smtps:// address')
    refused({ IMAP_URL: 'https://imap.example.org/INBOX', MAIL_DOMAIN: 'play.example.org' }, 'IMAP_URL: must be an imap:// or imaps:// address')
  })
  // webhookPolicy reads only "1": "true" or "yes" left private addresses refused in production, with no word.
  it('BOTWARS_WEBHOOK_ALLOW_PRIVATE other than 1 or 0', () => refused({ BOTWARS_WEBHOOK_ALLOW_PRIVATE: 'yes' }, 'BOTWARS_WEBHOOK_ALLOW_PRIVATE'))
  it('TRUST_PROXY that is neither a number of proxies nor their addresses', () => refused({ TRUST_PROXY: 'yes please' }, 'TRUST_PROXY'))
})

describe('loadConfig takes what an operator means', () => {
  const config = (env: Record<string, string>) => loadConfig({ ...base, ...env })
  it('a site root with or without its slash', () => {
    expect(config({ BASE_URL: 'https://play.example.org/' }).baseUrl).toBe('https://play.example.org')
    expect(config({ BASE_URL: 'http://127.0.0.1:3000' }).baseUrl).toBe('http://127.0.0.1:3000')
  })
  it('the proxies in front, by count or by address', () => {
    expect(config({}).trustProxy).toBeUndefined()
    expect(config({ TRUST_PROXY: '1' }).trustProxy).toBe(1)
    expect(config({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, ::1' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1'])
  })
  // A newcomer who starts it with PORT=3917 and no BASE_URL got sign-in links to port 3000 (issue
  // found following the README): the mailed links and the spectator link on the game page were dead.
  it('links to the address it listens on when BASE_URL is unset', () => {
    expect(config({}).baseUrl).toBe('http://127.0.0.1:3000')
    expect(config({ PORT: '3917' }).baseUrl).toBe('http://127.0.0.1:3917')
    expect(config({ HOST: '0.0.0.0', PORT: '8080' }).baseUrl).toBe('http://127.0.0.1:8080')
    expect(config({ HOST: '::', PORT: '8080' }).baseUrl).toBe('http://127.0.0.1:8080')
    expect(config({ HOST: '192.168.1.5', PORT: '8080' }).baseUrl).toBe('http://192.168.1.5:8080')
    expect(config({ HOST: '::1' }).baseUrl).toBe('http://[::1]:3000')
    expect(config({ HOST: 'botwars.lan', PORT: '80' }).baseUrl).toBe('http://botwars.lan')
    expect(config({ PORT: '3917', BASE_URL: 'https://play.example.org' }).baseUrl).toBe('https://play.example.org')
  })
  it('hosts as addresses or names, and the log level', () => {
    expect(config({ HOST: '0.0.0.0', INBOUND_SMTP_HOST: '::' })).toMatchObject({ host: '0.0.0.0', inboundSmtp: undefined })
    expect(config({ HOST: 'localhost', LOG_LEVEL: 'warn' })).toMatchObject({ host: 'localhost', logLevel: 'warn' })
  })
})
