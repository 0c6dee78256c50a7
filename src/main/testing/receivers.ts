/**
 * Test helpers for notifications: a real HTTP receiver on loopback (a webhook, an ntfy-style server or a push
 * service) that records every request, and a push subscription's keys made as a browser makes them.
 */
import { createECDH, randomBytes, type ECDH } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
}

export interface Receiver {
  readonly url: string
  readonly requests: Received[]
  /** The status every answer has (default 200). */
  status: number
  close(): Promise<void>
}

/** Starts a receiver on 127.0.0.1 on a free port; `path` is appended to its URL. */
export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const requests: Received[] = []
  const receiver = { url: '', requests, status: 200, close: async () => {} }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) })
      res.statusCode = receiver.status
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return receiver
}

/** A push subscription's keys as a browser makes them: a P-256 key pair and a 16-byte auth secret. */
export function subscriptionKeys(): { ecdh: ECDH; p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return { ecdh, p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') }
}

export interface SilentReceiver {
  readonly url: string
  /** Requests whose body arrived and that are still waiting for an answer (none is ever given). */
  readonly open: number
  /** The most that were open at once. */
  readonly mostOpen: number
  /** Every request that arrived. */
  readonly arrived: number
  close(): Promise<void>
}

/** A receiver on 127.0.0.1 that reads each request and never answers (until it is closed). */
export async function startSilentReceiver(path = '/never'): Promise<SilentReceiver> {
  const state = { url: '', open: 0, mostOpen: 0, arrived: 0, close: async () => {} }
  const server = createServer((req, res) => {
    req.resume()
    state.arrived++
    state.open++
    state.mostOpen = Math.max(state.mostOpen, state.open)
    res.on('close', () => state.open--)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return state
}
