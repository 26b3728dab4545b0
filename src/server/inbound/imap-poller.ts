// Polling an IMAP mailbox for replies (IMAP_URL), for people whose mail provider receives the
// reply addresses for them (a plus address on one mailbox: MAIL_DOMAIN=botwars@example.org).
//
// Exactly once: messages are handled in UID order, and the highest handled UID is stored in the
// same transaction that stores the program and queues the answer (imap_state, migration 014).
// Only after that commit is the message moved to IMAP_DONE_MAILBOX (or flagged \Seen +
// $BotWarsDone). A restart between the commit and the move handles nothing twice: the next
// poll starts after the stored UID and first moves (or flags) what was handled but left behind.
// If the server renumbers the mailbox (a new UIDVALIDITY), the count starts again, and
// Message-IDs already handled are recognised (inbound_messages).
import { ImapFlow } from 'imapflow'
import type { ServiceContext } from '../services/context.js'
import { handleInbound, MAX_INBOUND_BYTES } from './handle.js'
import { inboundStore } from './store.js'

export const DONE_FLAG = '$BotWarsDone'

export interface ImapOptions {
  url: string
  /** Move handled mail here (created if missing); unset: leave it in place, flagged. */
  doneMailbox?: string
  log: { warn(o: object, m: string): void }
}

function clientFor(url: string): { client: ImapFlow; mailbox: string } {
  const u = new URL(url)
  const secure = u.protocol === 'imaps:'
  const client = new ImapFlow({
    host: u.hostname, port: Number(u.port) || (secure ? 993 : 143), secure,
    auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) },
    logger: false, disableAutoIdle: true, connectionTimeout: 20_000, socketTimeout: 60_000,
  })
  return { client, mailbox: decodeURIComponent(u.pathname.replace(/^\//, '')) || 'INBOX' }
}

/** One poll: connects, handles every new message in UID order, tidies up, logs out. Returns how many were handled. */
export async function pollImapOnce(ctx: ServiceContext, options: ImapOptions): Promise<number> {
  const { client, mailbox } = clientFor(options.url)
  const store = inboundStore(ctx.db)
  client.on('error', (err: unknown) => options.log.warn({ err }, 'IMAP connection error'))
  await client.connect()
  let handled = 0
  try {
    if (options.doneMailbox) {
      const list = await client.list()
      if (!list.some((m) => m.path === options.doneMailbox)) await client.mailboxCreate(options.doneMailbox)
    }
    const lock = await client.getMailboxLock(mailbox)
    try {
      const opened = client.mailbox
      if (!opened) throw new Error(`IMAP mailbox ${mailbox} did not open`)
      const validity = String(opened.uidValidity)
      const state = store.imapState(mailbox)
      const lastUid = state && state.uid_validity === validity ? state.last_uid : 0
      const done = async (range: string) => {
        if (options.doneMailbox) await client.messageMove(range, options.doneMailbox, { uid: true })
        else await client.messageFlagsAdd(range, ['\\Seen', DONE_FLAG], { uid: true })
      }
      // Handled before a restart but not yet moved or flagged.
      if (lastUid > 0) {
        const left = await client.search({ uid: `1:${lastUid}`, ...(options.doneMailbox ? {} : { unKeyword: DONE_FLAG }) }, { uid: true })
        if (left && left.length) await done(left.join(','))
      }
      const found = await client.search({ uid: `${lastUid + 1}:*` }, { uid: true })
      const uids = (found || []).filter((uid) => uid > lastUid).sort((a, b) => a - b)
      for (const uid of uids) {
        const meta = await client.fetchOne(String(uid), { uid: true, size: true }, { uid: true })
        const size = meta ? meta.size ?? 0 : 0
        const tooLarge = size > MAX_INBOUND_BYTES
        const fetched = await client.fetchOne(String(uid), tooLarge ? { headers: true } : { source: true }, { uid: true })
        const raw = fetched ? (tooLarge ? Buffer.concat([fetched.headers ?? Buffer.alloc(0), Buffer.from('\r\n')]) : fetched.source) : undefined
        await handleInbound(ctx, { raw: raw ?? Buffer.alloc(0), ...(tooLarge ? { tooLarge: size } : {}) }, {
          inTransaction: () => store.setImapState(mailbox, validity, uid),
        })
        ctx.crash('imap-after-commit')
        await done(String(uid))
        handled++
      }
    } finally {
      lock.release()
    }
  } finally {
    await client.logout().catch(() => client.close())
  }
  return handled
}

/** Polls every `pollMs` (never two polls at once) until stopped. */
export function startImapPoller(ctx: ServiceContext, options: ImapOptions & { pollMs: number }) {
  let running: Promise<number> | null = null
  let stopped = false
  const poll = () => {
    if (stopped) return Promise.resolve(0)
    running ??= pollImapOnce(ctx, options)
      .catch((err: unknown) => { options.log.warn({ err }, 'IMAP poll failed; will try again'); return 0 })
      .finally(() => { running = null })
    return running
  }
  const timer = setInterval(() => void poll(), options.pollMs)
  timer.unref()
  return {
    poll,
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
