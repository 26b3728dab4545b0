// A real SMTP server on 127.0.0.1 (the smtp-server package) that counts what it accepted by
// Message-ID, and a "dropping" server for outages: accepts TCP connections and cuts them at once.
import net from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface Mailbox {
  port: number
  url: string
  /** Message-ID → how many times it was accepted. */
  received: Map<string, number>
  total(): number
  close(): Promise<void>
}

export async function startMailbox(port = 0): Promise<Mailbox> {
  const received = new Map<string, number>()
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false, size: 10 * 1024 * 1024, disableReverseLookup: true,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ')
        const id = /^Message-ID:\s*(.*)$/im.exec(head)?.[1]?.trim() ?? '(none)'
        received.set(id, (received.get(id) ?? 0) + 1)
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const address = server.server.address() as net.AddressInfo
  return {
    port: address.port, url: `smtp://127.0.0.1:${address.port}`, received,
    total: () => [...received.values()].reduce((a, b) => a + b, 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Accepts connections and destroys them at once: the mail server "drops" every connection. */
export async function startDropper(port: number): Promise<{ close(): Promise<void>; dropped: () => number }> {
  let dropped = 0
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => { dropped++; sockets.add(socket); socket.destroy() })
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', () => resolve()) })
  return {
    dropped: () => dropped,
    close: () => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()) }),
  }
}

/** A port that nothing listens on (yet): connections to it are refused. */
export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.address() as net.AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
