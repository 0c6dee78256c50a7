/**
 * Slow and idle clients against the real sync endpoint, with real sockets (docs/adr/0041): a request
 * trickled a byte at a time is cut, idle connections are capped, and a normal request still gets in. The
 * limits are shortened so each case takes a second or two; the defaults are the same mechanism, longer.
 */
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'
import type { ListenerLimits } from './http'

const LIMITS: Partial<ListenerLimits> = {
  headersTimeoutMs: 800,
  requestTimeoutMs: 1_200,
  idleTimeoutMs: 1_500,
  checkEveryMs: 100,
  maxConnections: 40,
  maxPerAddress: 10,
}

let s: TestSyncServer | undefined
const sockets: Socket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await s?.close()
  s = undefined
})

async function server(limits: Partial<ListenerLimits> = LIMITS): Promise<{ port: number; origin: string }> {
  s = await startTestSyncServer(undefined, limits)
  return { origin: s.origin, port: Number(new URL(s.origin).port) }
}

/** A raw connection from `from` (any 127.x address reaches a server on 127.0.0.1), open once connected. */
function open(port: number, from = '127.0.0.1'): Promise<Socket & { closedAt?: number; received: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: from }) as Socket & { closedAt?: number; received: string }
    socket.received = ''
    sockets.push(socket)
    socket.on('data', (chunk) => (socket.received += chunk.toString()))
    socket.on('close', () => (socket.closedAt ??= performance.now()))
    socket.on('error', () => undefined)
    socket.once('connect', () => resolve(socket))
    socket.once('error', reject)
  })
}

const stillOpen = (list: Array<{ closedAt?: number }>) => list.filter((socket) => socket.closedAt === undefined).length
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** GET /api/v1/health over a fresh connection from `from`: the status, or the error's code. */
async function health(port: number, from = '127.0.0.1'): Promise<string> {
  const socket = await open(port, from)
  socket.write('GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
  for (let i = 0; i < 100 && socket.closedAt === undefined; i++) await pause(20)
  return /^HTTP\/1\.1 (\d+)/.exec(socket.received)?.[1] ?? 'no answer'
}

describe('a slow client', () => {
  it('a body trickled a byte at a time is cut at the request deadline, with a 408', async () => {
    const { port } = await server()
    const socket = await open(port)
    const started = performance.now()
    socket.write(
      `POST /api/v1/bookmarks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${s!.alice.token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    )
    const trickle = setInterval(() => socket.writable && socket.write(' '), 50)
    for (let i = 0; i < 150 && socket.closedAt === undefined; i++) await pause(20)
    clearInterval(trickle)
    expect(socket.closedAt, 'the trickling request was still open after 3 s').toBeDefined()
    expect(socket.closedAt! - started).toBeLessThan(1_200 + 100 + 1_000)
    expect(socket.received).toMatch(/^HTTP\/1\.1 408/)
  })

  it('headers trickled a byte at a time are cut at the headers deadline', async () => {
    const { port } = await server()
    const socket = await open(port)
    const started = performance.now()
    socket.write('GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    const trickle = setInterval(() => socket.writable && socket.write('X-Slow: y\r\n'), 50)
    for (let i = 0; i < 150 && socket.closedAt === undefined; i++) await pause(20)
    clearInterval(trickle)
    expect(socket.closedAt, 'the trickling headers were still open after 3 s').toBeDefined()
    expect(socket.closedAt! - started).toBeLessThan(800 + 100 + 1_000)
  })

  it('a connection that sends nothing is closed at the headers deadline', async () => {
    const { port } = await server()
    const socket = await open(port)
    const started = performance.now()
    for (let i = 0; i < 150 && socket.closedAt === undefined; i++) await pause(20)
    expect(socket.closedAt, 'the silent connection was still open after 3 s').toBeDefined()
    expect(socket.closedAt! - started).toBeGreaterThanOrEqual(700)
  })

  it('a kept-alive connection is closed when no next request comes', async () => {
    const { port } = await server({ ...LIMITS, keepAliveTimeoutMs: 300 })
    const socket = await open(port)
    socket.write('GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    for (let i = 0; i < 50 && !socket.received.includes('"ok"'); i++) await pause(20)
    const answered = performance.now()
    for (let i = 0; i < 150 && socket.closedAt === undefined; i++) await pause(20)
    expect(socket.received).toMatch(/^HTTP\/1\.1 200/)
    // Node keeps a kept-alive socket about a second beyond the timeout it announces, for requests in flight.
    expect(socket.closedAt! - answered).toBeLessThan(2_000)
  })
})

describe('many idle connections', () => {
  it('from one address: at most maxPerAddress stay open, and a normal request still succeeds — from it too', async () => {
    const { port } = await server()
    const idle = []
    for (let i = 0; i < 300; i++) idle.push(await open(port, '127.0.0.2'))
    await pause(200)
    expect(stillOpen(idle)).toBeLessThanOrEqual(10)
    expect(await health(port)).toBe('200')
    expect(await health(port, '127.0.0.2')).toBe('200')
  })

  it('from many addresses: at most maxConnections stay open, and a normal request still succeeds', async () => {
    const { port } = await server()
    const idle = []
    for (let i = 0; i < 300; i++) idle.push(await open(port, `127.0.1.${1 + (i % 30)}`))
    await pause(200)
    expect(stillOpen(idle)).toBeLessThanOrEqual(40)
    expect(await health(port)).toBe('200')
  })

  it('a client busy with requests keeps its connections; a new one over the cap is refused, not a busy one', async () => {
    const { port } = await server({ ...LIMITS, maxPerAddress: 2, requestTimeoutMs: 5_000, checkEveryMs: 1_000 })
    // Two requests in progress: each has sent its headers and waits to send its body.
    const busy = []
    for (let i = 0; i < 2; i++) {
      const socket = await open(port, '127.0.0.3')
      socket.write(
        `POST /api/v1/bookmarks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${s!.alice.token}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 50\r\n\r\n',
      )
      busy.push(socket)
    }
    await pause(200)
    const third = await open(port, '127.0.0.3')
    await pause(200)
    expect(third.closedAt).toBeDefined()
    expect(stillOpen(busy)).toBe(2)
  })
})
