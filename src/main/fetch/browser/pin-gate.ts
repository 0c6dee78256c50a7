/**
 * The host pin as a network chokepoint (docs/adr/0030-the-browser-behind-a-pin-gate.md): a SOCKS5 server on
 * loopback that the fetcher's browser must use for every connection it opens — a tab's document, a popup, a
 * worker's fetch, a WebSocket, a beacon, a preconnect — whichever target opened it. A connection whose
 * destination is not on the current pin is refused before anything is sent; everything else is piped through
 * untouched (TLS stays end to end, so the browser's own fingerprint reaches the Site).
 */
import { isIP, connect, createServer, type Server, type Socket } from 'node:net'

export interface PinGate {
  /** `socks5://127.0.0.1:PORT`, for the browser's proxy setting. */
  readonly proxyServer: string
  /** The current pin: a destination passes when this accepts its URL. Starts by accepting nothing. */
  pin: (url: URL) => boolean
  /** Ends every open connection (a Site's leftovers must not outlive a change of pin). */
  dropConnections(): void
  close(): Promise<void>
}

/** How long a destination may take to accept the connection. */
const CONNECT_TIMEOUT_MS = 30_000
/** Connections the gate holds at once (clients; each tunnel's upstream is one more). */
export const MAX_GATE_CONNECTIONS = 256

export async function startPinGate(): Promise<PinGate> {
  const open = new Set<Socket>()
  const track = (socket: Socket) => {
    open.add(socket)
    socket.once('close', () => open.delete(socket))
    socket.on('error', () => socket.destroy())
  }

  const gate: PinGate = {
    proxyServer: '',
    pin: () => false,
    dropConnections() {
      for (const socket of open) socket.destroy()
    },
    close: () =>
      new Promise<void>((resolve) => {
        gate.dropConnections()
        server.close(() => resolve())
      }),
  }

  const server: Server = createServer((client) => {
    track(client)
    client.setTimeout(CONNECT_TIMEOUT_MS, () => client.destroy())
    let buffered = Buffer.alloc(0)
    let greeted = false
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk])
      if (buffered.length > 600) return void client.destroy()
      if (!greeted) {
        const greeting = parseGreeting(buffered)
        if (!greeting) return
        greeted = true
        buffered = buffered.subarray(greeting.length)
        // Only "no authentication": the gate listens on loopback and reaches nothing but the pin.
        if (!greeting.methods.includes(0)) return void client.end(Buffer.from([5, 0xff]))
        client.write(Buffer.from([5, 0]))
      }
      const request = parseRequest(buffered)
      if (!request) return
      client.off('data', onData)
      const rest = buffered.subarray(request.length)
      if (request.command !== 1) return void client.end(reply(7))
      if (!passes(gate.pin, request.host, request.port)) return void client.end(reply(2))
      const upstream = connect({ host: request.host, port: request.port })
      track(upstream)
      upstream.setTimeout(CONNECT_TIMEOUT_MS, () => upstream.destroy())
      upstream.once('connect', () => {
        upstream.setTimeout(0)
        client.setTimeout(0)
        client.write(reply(0))
        if (rest.length) upstream.write(rest)
        upstream.pipe(client)
        client.pipe(upstream)
      })
      upstream.once('close', () => client.destroy())
      client.once('close', () => upstream.destroy())
      upstream.once('error', () => {
        if (!client.destroyed && client.writable) client.end(reply(5))
      })
    }
    client.on('data', onData)
  })

  // Any local user can connect to a loopback port: connections beyond this are closed as they arrive, so
  // idle ones (each also ended after CONNECT_TIMEOUT_MS without a tunnel) cannot take every file descriptor
  // of the app (docs/adr/0041-limits-on-every-listener.md). A browser tab needs a few dozen.
  server.maxConnections = MAX_GATE_CONNECTIONS
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as { port: number }
  return Object.assign(gate, { proxyServer: `socks5://127.0.0.1:${port}` })
}

/**
 * Whether a destination (host and port, no scheme: a SOCKS request carries none) is on the pin. Port 443 is
 * read as https and 80 as http, so a pin of `example.org` admits both; any other port must be pinned with it.
 */
export function passes(pin: (url: URL) => boolean, host: string, port: number): boolean {
  const name = isIP(host) === 6 ? `[${host}]` : host
  const candidates = port === 443 ? [`https://${name}/`] : port === 80 ? [`http://${name}/`] : [`http://${name}:${port}/`]
  return candidates.some((raw) => {
    try {
      return pin(new URL(raw))
    } catch {
      return false
    }
  })
}

function parseGreeting(data: Buffer): { methods: number[]; length: number } | null {
  if (data.length < 2) return null
  if (data[0] !== 5) return { methods: [], length: data.length }
  const count = data[1]!
  if (data.length < 2 + count) return null
  return { methods: [...data.subarray(2, 2 + count)], length: 2 + count }
}

function parseRequest(data: Buffer): { command: number; host: string; port: number; length: number } | null {
  if (data.length < 5) return null
  const command = data[1]!
  const type = data[3]
  let host: string
  let offset: number
  if (type === 1) {
    if (data.length < 10) return null
    host = [...data.subarray(4, 8)].join('.')
    offset = 8
  } else if (type === 3) {
    const size = data[4]!
    if (data.length < 5 + size + 2) return null
    host = data.subarray(5, 5 + size).toString('latin1')
    offset = 5 + size
  } else if (type === 4) {
    if (data.length < 22) return null
    const words: string[] = []
    for (let i = 0; i < 8; i++) words.push(data.readUInt16BE(4 + i * 2).toString(16))
    host = new URL(`http://[${words.join(':')}]/`).hostname.slice(1, -1)
    offset = 20
  } else {
    return { command: -1, host: '', port: 0, length: data.length }
  }
  return { command, host, port: data.readUInt16BE(offset), length: offset + 2 }
}

/** A SOCKS5 reply: 0 granted, 2 not allowed by the ruleset, 5 refused, 7 command not supported. */
function reply(code: number): Buffer {
  return Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0])
}
