// A real IMAP server for the tests: Debian's dovecot-imapd, started on 127.0.0.1 with a
// throwaway configuration, its own user/password file and maildir in a temp directory.
// Where dovecot is missing the tests that need it say so loudly and skip, and fail under CI
// (.ci/run installs it; test/required-tool.ts).
import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, connect } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { missingTool } from '../required-tool.js'

export const DOVECOT = ['/usr/sbin/dovecot', '/usr/bin/dovecot'].find((p) => existsSync(p))
export const hasDovecot = DOVECOT !== undefined

if (!hasDovecot) missingTool('IMAP TESTS: dovecot is missing', 'apt-get update && apt-get install -y dovecot-imapd')

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    }).on('error', reject)
  })
}

async function accepting(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = connect(port, '127.0.0.1', () => { c.end(); resolve(true) }).on('error', () => resolve(false))
    })
    if (ok) return
    if (Date.now() > until) throw new Error(`dovecot did not listen on ${port} within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

export interface Dovecot { port: number; user: string; pass: string; url: (mailbox?: string) => string; log: string; stop(): Promise<void> }

export async function startDovecot(): Promise<Dovecot> {
  const dir = mkdtempSync(join(tmpdir(), 'botwars-dovecot-'))
  const port = await freePort()
  const user = 'botwars'
  const pass = `pw-${Math.random().toString(36).slice(2)}`
  const me = userInfo()
  // As root, dovecot's own unprivileged users (made by the package) run its processes and own
  // the mail; otherwise everything runs as the current user.
  const asRoot = me.uid === 0
  const mailOwner = asRoot ? 'dovecot' : me.username
  for (const d of ['run', 'state', 'mail']) mkdirSync(join(dir, d), { recursive: true })
  // dovecot's auth process (its own user, as root) reads the password file through this folder.
  chmodSync(dir, 0o755)
  if (asRoot) {
    const { execFileSync } = await import('node:child_process')
    const uid = Number(execFileSync('id', ['-u', mailOwner]).toString().trim())
    const gid = Number(execFileSync('id', ['-g', mailOwner]).toString().trim())
    chownSync(join(dir, 'mail'), uid, gid)
  }
  writeFileSync(join(dir, 'users'), `${user}:{PLAIN}${pass}::::::\n`, { mode: 0o644 })
  const log = join(dir, 'dovecot.log')
  writeFileSync(join(dir, 'dovecot.conf'), `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${log}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${dir}/mail/%u
first_valid_uid = 1
default_internal_user = ${asRoot ? 'dovecot' : me.username}
default_login_user = ${asRoot ? 'dovenull' : me.username}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = uid=${mailOwner} gid=${mailOwner} home=${dir}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service stats {
  unix_listener stats-reader {
    mode = 0666
  }
  unix_listener stats-writer {
    mode = 0666
  }
}
`)
  const child: ChildProcess = spawn(DOVECOT!, ['-F', '-c', join(dir, 'dovecot.conf')], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (d: Buffer) => { output += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { output += d.toString() })
  try {
    await accepting(port, 15_000)
  } catch (err) {
    child.kill('SIGKILL')
    throw new Error(`${(err as Error).message}: ${output}`)
  }
  return {
    port, user, pass, log,
    url: (mailbox = 'INBOX') => `imap://${user}:${encodeURIComponent(pass)}@127.0.0.1:${port}/${encodeURIComponent(mailbox)}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
