// Configuration comes only from environment variables (listed with their defaults in README.md).
// A bad value stops start-up with a message naming the variable.
import { randomBytes } from 'node:crypto'
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { BOARD_CACHE_SQUARES } from './services/board-cache.js'

/** An address to listen on: an IP address or a host name, without a port (PORT says that). */
const listenHost = z.string().min(1).refine((host) => isIP(host) !== 0 || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(host),
  'must be an IP address or a host name, without a port')

/**
 * Which proxies in front may say who the client is (X-Forwarded-For): a number of hops, or IP
 * addresses and CIDR ranges separated by commas. Unset, nobody: behind a proxy every client then
 * looks like the proxy, and the limits per address of origin (sign-in, live streams) are shared.
 */
const trustProxy = z.string().trim().transform((text, ctx) => {
  if (/^\d{1,2}$/.test(text) && Number(text) >= 1) return Number(text)
  const list = text.split(',').map((part) => part.trim())
  if (list.every((part) => isIP(part.split('/')[0]!) !== 0 && /^[^/]+(\/\d{1,3})?$/.test(part))) return list
  ctx.addIssue({ code: 'custom', message: 'must be a number of proxies (1, 2 …) or their IP addresses or CIDR ranges, separated by commas' })
  return z.NEVER
})

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: listenHost.default('127.0.0.1'),
  DATABASE_PATH: z.string().min(1).default('./data/botwars.db'),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// address, like smtp://user:pass@mail.example.org:587' }).refine((url) => URL.canParse(url) && new URL(url).hostname !== '', 'must name the mail server, like smtp://user:pass@mail.example.org:587').optional(),
  // Pages link from the site's root (/games/…), and mail links are BASE_URL + such a path.
  // Unset: the address it listens on (listenAddress), so the links work on the machine it runs on.
  BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address, like https://play.example.org' })
    // The refinements run on a value the URL check refused too (zod goes on), so they must not throw.
    .refine((url) => { if (!URL.canParse(url)) return false; const u = new URL(url); return !u.username && !u.password && !u.search && !u.hash && u.pathname === '/' },
      'must be the site\'s root: scheme, host and port only (no path, query, fragment or user), like https://play.example.org')
    .transform((url) => url.replace(/\/+$/, '')).optional(),
  TRUST_PROXY: trustProxy.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  MAIL_FROM: z.string().min(3).regex(/@/, 'must contain an email address').default('BotWars <botwars@localhost>'),
  MAIL_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(30),
  // Programs by reply (src/server/inbound/README.md).
  MAIL_DOMAIN: z.string().trim().toLowerCase()
    .regex(/^([a-z0-9._%-]+@)?[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'must be a domain (play.example.org) or one mailbox (botwars@example.org)').optional(),
  INBOUND_SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  INBOUND_SMTP_HOST: listenHost.default('127.0.0.1'),
  IMAP_URL: z.url({ protocol: /^imaps?$/, error: 'must be an imap:// or imaps:// address, like imaps://user:pass@imap.example.org/INBOX' }).optional(),
  IMAP_DONE_MAILBOX: z.string().trim().min(1).max(200).optional(),
  IMAP_POLL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  // Read by services/webhooks.ts (webhookPolicy), which takes only "1"; checked here so a "yes" is not ignored silently.
  BOTWARS_WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1'], { error: 'must be 1 (webhooks may call private addresses in production) or 0' }).optional(),
  // Memory (docs/performance.md, "Memory with 10,000 games"): up to about 3.4 KB a square.
  BOARD_CACHE_SQUARES: z.coerce.number().int().min(1).max(10_000_000).default(BOARD_CACHE_SQUARES),
})

export interface Config {
  port: number
  host: string
  databasePath: string
  /** Where the database lives; also holds the generated session secret and the .eml outbox. */
  dataDir: string
  smtpUrl: string | undefined
  baseUrl: string
  sessionSecret: string
  mailFrom: string
  /** Sent mail older than this many days is deleted from the outbox by the clockwork. */
  mailRetentionDays: number
  /** Where replies go (turn-<token>@domain, or box+turn-<token>@domain); unset: no programs by reply. */
  mailDomain?: string
  /** The built-in SMTP listener for replies, when a port is given. */
  inboundSmtp?: { port: number; host: string }
  /** The IMAP mailbox polled for replies, when a URL is given. */
  imap?: { url: string; doneMailbox: string | undefined; pollMs: number }
  /** How many squares the compiled boards kept in memory may hold together (services/board-cache.ts). */
  boardCacheSquares?: number
  /** The proxies trusted to say who the client is (Fastify's trustProxy); unset: none. */
  trustProxy?: number | string[]
  /** The log's level (server.ts). */
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
}

export class ConfigError extends Error {}

/** Reads and checks the environment; creates the data directory and, when needed, the session secret. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = Object.fromEntries(Object.keys(envSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]))
  const parsed = envSchema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const name = String(issue.path[0])
    throw new ConfigError(`Bad environment variable ${name}: ${issue.message} (got ${JSON.stringify(env[name])})`)
  }
  const e = parsed.data
  if ((e.INBOUND_SMTP_PORT !== undefined || e.IMAP_URL !== undefined) && !e.MAIL_DOMAIN) {
    throw new ConfigError('Bad environment variable MAIL_DOMAIN: needed with INBOUND_SMTP_PORT or IMAP_URL, to write the reply addresses (got undefined)')
  }
  const dataDir = e.DATABASE_PATH === ':memory:' ? './data' : dirname(e.DATABASE_PATH)
  // Only its owner may read it: it holds the database (every hand and program) and the outbox (sign-in links).
  try {
    makeFolder(dataDir)
    accessSync(dataDir, constants.W_OK)
  } catch (err) {
    throw new ConfigError(`Bad environment variable DATABASE_PATH: its folder ${dataDir} cannot be made or written (${(err as NodeJS.ErrnoException).code ?? String(err)}) (got ${JSON.stringify(env.DATABASE_PATH)})`)
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databasePath: e.DATABASE_PATH,
    dataDir,
    smtpUrl: e.SMTP_URL,
    baseUrl: e.BASE_URL ?? listenAddress(e.HOST, e.PORT),
    sessionSecret: e.SESSION_SECRET ?? storedSecret(join(dataDir, 'session-secret')),
    mailFrom: e.MAIL_FROM,
    mailRetentionDays: e.MAIL_RETENTION_DAYS,
    mailDomain: e.MAIL_DOMAIN,
    inboundSmtp: e.INBOUND_SMTP_PORT !== undefined ? { port: e.INBOUND_SMTP_PORT, host: e.INBOUND_SMTP_HOST } : undefined,
    imap: e.IMAP_URL !== undefined ? { url: e.IMAP_URL, doneMailbox: e.IMAP_DONE_MAILBOX, pollMs: e.IMAP_POLL_SECONDS * 1000 } : undefined,
    boardCacheSquares: e.BOARD_CACHE_SQUARES,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
  }
}

/**
 * The site's root as this machine reaches it: HOST and PORT, or 127.0.0.1 when HOST is every
 * address (0.0.0.0, ::). Behind a proxy or on another name, BASE_URL says the public address.
 */
function listenAddress(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : isIP(host) === 6 ? `[${host}]` : host
  return `http://${name}${port === 80 ? '' : `:${port}`}`
}

/**
 * mkdir -p for the data folder, one level at a time. Node's own (`recursive: true`) never returns
 * where mkdir answers ENOENT although the parent is there (under /proc): start-up hung, silent.
 */
function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 })
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EEXIST') {
      if (statSync(dir).isDirectory()) return
      throw Object.assign(new Error(`${dir} is a file`), { code: 'ENOTDIR' })
    }
    if (code !== 'ENOENT' || dirname(dir) === dir) throw err
    makeFolder(dirname(dir))
    mkdirSync(dir, { mode: 0o700 })
  }
}

/** The session secret kept beside the database, made once, so sessions survive a restart. */
function storedSecret(path: string): string {
  if (existsSync(path)) {
    const secret = readFileSync(path, 'utf8').trim()
    if (secret.length >= 32) return secret
  }
  const secret = randomBytes(32).toString('base64url')
  writeFileSync(path, secret + '\n', { mode: 0o600 })
  return secret
}
